package gitsync

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// A repository URL's credentials are split off its public address, and a refusal never repeats
// them.
func TestParseRemote(t *testing.T) {
	tests := []struct {
		raw, url, user, password string
		local                    bool
	}{
		{"https://bot:s3cret@git.example.com/org/docs.git", "https://git.example.com/org/docs.git", "bot", "s3cret", false},
		{"  https://git.example.com/docs.git ", "https://git.example.com/docs.git", "", "", false},
		{"ssh://git@git.example.com/docs.git", "ssh://git.example.com/docs.git", "git", "", false},
		{"git@git.example.com:org/docs.git", "git@git.example.com:org/docs.git", "", "", false},
		{"file:///srv/docs.git", "file:///srv/docs.git", "", "", true},
	}
	for _, tt := range tests {
		r, err := ParseRemote(tt.raw)
		if err != nil {
			t.Errorf("ParseRemote(%q): %v", tt.raw, err)
			continue
		}
		if r.URL != tt.url || r.Username != tt.user || r.Password != tt.password || r.Local != tt.local {
			t.Errorf("ParseRemote(%q) = %+v, want URL %s, user %q, password %q, local %v", tt.raw, r, tt.url, tt.user, tt.password, tt.local)
		}
		if r.HasCredentials() != (tt.user != "" || tt.password != "") {
			t.Errorf("ParseRemote(%q).HasCredentials() = %v", tt.raw, r.HasCredentials())
		}
	}
	for _, raw := range []string{"", "docs.git", "git@host:", "@host:path", "git@:docs.git", "https://bot:s3cret@/docs.git", "ftp://bot:s3cret@host/docs.git",
		"https://bot:s3cret@host/docs.git?token=x", "https://host/docs.git#main", "file://bot:s3cret@remote/srv/docs.git", "https://bot:s3cret@host/%zz"} {
		_, err := ParseRemote(raw)
		if !errors.Is(err, ErrInvalidURL) {
			t.Errorf("ParseRemote(%q) = %v, want ErrInvalidURL", raw, err)
		} else if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("ParseRemote(%q): the refusal %q repeats the password", raw, err)
		}
	}
}

// Local, private and literal internal addresses are refused unless the operator allows them; no
// case here resolves a name.
func TestCheckReachable(t *testing.T) {
	for raw, refused := range map[string]bool{
		"file:///srv/docs.git":             true,
		"https://127.0.0.1/docs.git":       true,
		"https://[::1]/docs.git":           true,
		"https://10.1.2.3/docs.git":        true,
		"https://169.254.169.254/docs.git": true,
		"https://100.64.0.1/docs.git":      true,
		"https://[::ffff:192.168.0.1]/x":   true,
		"https://localhost/docs.git":       true,
		"https://git.localhost/docs.git":   true,
		"git@127.0.0.1:docs.git":           true, // the host of an scp-like address is checked too
		"https://93.184.215.14/docs.git":   false,
		"https://docs.invalid/docs.git":    false, // a name that does not resolve: an error, not a local one
	} {
		r, err := ParseRemote(raw)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = CheckReachable(ctx, r, false)
		cancel()
		if errors.Is(err, ErrLocalRemote) != refused {
			t.Errorf("CheckReachable(%s) = %v, want refused %v", raw, err, refused)
		}
		if err := CheckReachable(context.Background(), r, true); err != nil {
			t.Errorf("CheckReachable(%s, allowed) = %v", raw, err)
		}
	}
}
