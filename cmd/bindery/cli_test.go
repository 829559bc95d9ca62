package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCommandLineMistakesTouchNothing runs mistyped command lines in an empty directory: each must
// exit 2 and leave the directory empty (no database created, migrated or bootstrapped).
func TestCommandLineMistakesTouchNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "typo.db")
	for _, args := range [][]string{
		{"versoin"},
		{"serve", "--bogus"},
		{"--bogus"},
		{"serve", "extra"},
		{"migrate", "--database", db, "now"},
		{"migrate", "--databse", db},
		{"admin"},
		{"admin", "tokens"},
		{"admin", "token"},
		{"admin", "token", "create"},
		{"admin", "token", "revoke", "--database", db},
		{"admin", "token", "list", "--database", db, "--email"},
		{"admin", "bootstrap", "--database", db, "--email", "a@b.test"},
		{"--log-level", "loud", "migrate", "--database", db},
		{"serve", "--addr", "nonsense", "--database", db},
		{"serve", "--public-url", "example.com", "--database", db},
		{"serve", "--rate-limit-store", "database", "--database", db},
		{"serve", "--rate-limit-store", "redis", "--database", db},
		{"serve", "--rate-limit-token", "-1", "--database", db},
		{"serve", "--rate-limit-window", "10ms", "--database", db},
		{"serve", "--trusted-proxy", "10.0.0.0/33", "--database", db},
		{"serve", "--files-origin", "https://usercontent.example", "--database", db}, // no --secret-key to sign links
		{"serve", "--files-origin", "https://usercontent.example/files", "--secret-key", "k", "--database", db},
		{"serve", "--files-origin", "usercontent.example", "--secret-key", "k", "--database", db},
		{"serve", "--files", "gs://bucket", "--database", db},
		{"serve", "--files", "file://relative/files", "--database", db},
		{"serve", "--files", "s3://key:secret@bucket", "--database", db},
		{"backup", "--files", "s3://", "--database", db, "--out", filepath.Join(dir, "backup")},
		{"restore", "--files", "ftp://x", "--database", db, "--from", dir},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, err := run(t, context.Background(), args...)
			if code := exitCode(err); code != exitUsage {
				t.Fatalf("exit code %d (%v); want %d", code, err, exitUsage)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				t.Errorf("left %s behind", e.Name())
			}
		})
	}
}

func TestVersion(t *testing.T) {
	t.Chdir(t.TempDir())
	version, commit = "1.2.3", "abc123"
	t.Cleanup(func() { version, commit = "dev", "" })
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := run(t, context.Background(), args...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, want := range []string{"bindery 1.2.3", "commit: abc123", "go: " + runtime.Version()} {
			if !strings.Contains(out, want) {
				t.Errorf("%v printed %q; want %q in it", args, out, want)
			}
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Errorf("version left %d files behind", len(entries))
	}
}

func TestPublicURLFor(t *testing.T) {
	for _, c := range []struct {
		flag, addr, want string
		derived, bad     bool
	}{
		{addr: ":8080", want: "http://127.0.0.1:8080", derived: true},
		{addr: "0.0.0.0:8080", want: "http://127.0.0.1:8080", derived: true},
		{addr: "[::]:9000", want: "http://127.0.0.1:9000", derived: true},
		{addr: "127.0.0.1:8080", want: "http://127.0.0.1:8080"},
		{addr: "docs.internal:80", want: "http://docs.internal:80"},
		{addr: "[::1]:8080", want: "http://[::1]:8080"},
		{flag: "https://docs.example.com/", addr: ":8080", want: "https://docs.example.com"},
		{flag: "docs.example.com", addr: ":8080", bad: true},
		{addr: "8080", bad: true},
	} {
		got, derived, err := publicURLFor(c.flag, c.addr)
		if (err != nil) != c.bad || got != c.want || derived != c.derived {
			t.Errorf("publicURLFor(%q, %q) = %q, %v, %v; want %q, %v, error %v", c.flag, c.addr, got, derived, err, c.want, c.derived, c.bad)
		}
	}
}

func TestParsePrefix(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"10.0.0.1", "10.0.0.1/32"},
		{"10.0.0.0/8", "10.0.0.0/8"},
		{"::1", "::1/128"},
		{"fd00::/8", "fd00::/8"},
		{"10.0.0.0/33", ""},
		{"proxy.internal", ""},
	} {
		got, err := parsePrefix(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("parsePrefix(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("parsePrefix(%q) = %v, %v; want %s", c.in, got, err, c.want)
		}
	}
}
