package blob

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Location is where a Store keeps its blobs: the value of `bindery serve --files`.
//
//   - a directory path (`/var/lib/bindery/files`, `bindery-files`) or a file URL
//     (`file:///var/lib/bindery/files`): a local directory;
//   - `s3://BUCKET?region=…&endpoint=…&use_path_style=true&prefix=…`: an S3-compatible bucket
//     (AWS S3, MinIO, Ceph, R2, Garage…), with gocloud.dev's s3blob URL options; credentials come
//     from the usual AWS sources (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role);
//   - `mem://`: memory, empty at every start (tests).
type Location struct {
	Scheme string // "file", "s3" or "mem"
	Dir    string // "file": the directory
	url    *url.URL
}

// ParseLocation reads a --files value. It checks the form only and touches nothing; errors say
// what a valid value looks like.
func ParseLocation(s string) (Location, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Location{}, errors.New("no files location: give a directory, file:///path, s3://bucket?… or mem://")
	}
	if !strings.Contains(s, "://") {
		return Location{Scheme: "file", Dir: filepath.Clean(s)}, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return Location{}, fmt.Errorf("files location %q is not a URL: %w", s, err)
	}
	switch u.Scheme {
	case "file":
		if (u.Host != "" && u.Host != "localhost") || u.Path == "" {
			return Location{}, fmt.Errorf("files location %q: a file URL names an absolute local path, as in file:///var/lib/bindery/files", s)
		}
		if u.RawQuery != "" {
			return Location{}, fmt.Errorf("files location %q: a file URL takes no options", s)
		}
		return Location{Scheme: "file", Dir: filepath.Clean(filepath.FromSlash(u.Path))}, nil
	case "s3":
		if u.Host == "" || (u.Path != "" && u.Path != "/") {
			return Location{}, fmt.Errorf("files location %q: an S3 URL names a bucket, as in s3://bindery-files?region=eu-west-1 (a folder goes in prefix=…)", s)
		}
		if u.User != nil {
			return Location{}, fmt.Errorf("files location %q: put no credentials in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", u.Redacted())
		}
		return Location{Scheme: "s3", url: u}, nil
	case "mem":
		return Location{Scheme: "mem"}, nil
	}
	return Location{}, fmt.Errorf("files location %q: unsupported scheme %q; use a directory, file:///path, s3://bucket?… or mem://", s, u.Scheme)
}

// Local reports whether the blobs are in a directory of this machine: with several servers, it
// must be a volume they all mount.
func (l Location) Local() bool { return l.Scheme == "file" }

// String is the location as given, without anything secret (there is nothing secret in it: S3
// credentials come from the environment).
func (l Location) String() string {
	switch l.Scheme {
	case "file":
		return l.Dir
	case "s3":
		return l.url.String()
	}
	return l.Scheme + "://"
}
