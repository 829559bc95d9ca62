// Package blobtest runs an S3-compatible server in the test process (gofakes3 with its in-memory
// backend, on a loopback httptest server), so that the S3 path of the blob store is tested through
// the real S3 client and protocol without any service outside the test.
package blobtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net/http/httptest"
	"net/url"
	"sort"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	gcblob "gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
)

// S3 is a running S3-compatible server holding one empty bucket.
type S3 struct {
	// Location is the bucket's --files value: s3://BUCKET?endpoint=…&region=…&use_path_style=true.
	Location string
	srv      *httptest.Server
}

// NewS3 starts a server with a fresh bucket; it stops when the test ends.
func NewS3(t testing.TB) *S3 {
	t.Helper()
	backend := s3mem.New()
	var b [6]byte
	_, _ = rand.Read(b[:])
	bucket := "bindery-" + hex.EncodeToString(b[:])
	if err := backend.CreateBucket(bucket); err != nil {
		t.Fatalf("create bucket: %v", err)
	}
	srv := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(srv.Close)
	q := url.Values{}
	q.Set("endpoint", srv.URL)
	q.Set("region", "us-east-1")
	q.Set("use_path_style", "true")
	// No credentials to find (and no instance metadata service to ask): the fake checks none.
	q.Set("anonymous", "true")
	return &S3{Location: "s3://" + bucket + "?" + q.Encode(), srv: srv}
}

// Stop shuts the server down, as an outage would: requests to it fail from now on.
func (s *S3) Stop() { s.srv.Close() }

// Objects lists every object in the bucket (blobs and anything else, such as temporary uploads),
// sorted.
func (s *S3) Objects(t testing.TB) []string {
	t.Helper()
	ctx := context.Background()
	u, err := url.Parse(s.Location)
	if err != nil {
		t.Fatal(err)
	}
	b, err := (&s3blob.URLOpener{}).OpenBucketURL(ctx, u)
	if err != nil {
		t.Fatalf("open bucket: %v", err)
	}
	defer b.Close()
	var out []string
	it := b.List(&gcblob.ListOptions{})
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("list bucket: %v", err)
		}
		out = append(out, obj.Key)
	}
	sort.Strings(out)
	return out
}
