package usercontent

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestOriginServesItsHostOnly(t *testing.T) {
	o, err := NewOrigin("https://UserContent.example", "secret")
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]bool{
		"https://usercontent.example/files/x":     true,
		"https://usercontent.example:443/files/x": true,
		"https://usercontent.example:8443/x":      false,
		"https://bindery.example/files/x":         false,
		"https://usercontent.example.evil/x":      false,
	} {
		if got := o.Serves(httptest.NewRequest("GET", target, nil)); got != want {
			t.Errorf("Serves(%s) = %v, want %v", target, got, want)
		}
	}
}

func TestOriginSignsLinksForOneVersionUntilTheyExpire(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	o, _ := NewOrigin("https://usercontent.example", "secret")
	other, _ := NewOrigin("https://usercontent.example", "another secret")
	link := o.SignedFileURL("v1", "a b.png", now)
	if !strings.HasPrefix(link, "https://usercontent.example/files/v1/a%20b.png?") {
		t.Fatalf("link %q", link)
	}
	req := httptest.NewRequest("GET", link, nil)
	if !o.Verify(req, "v1", now.Add(LinkLifetime)) {
		t.Error("a link is refused within its lifetime")
	}
	if o.Verify(req, "v1", now.Add(LinkLifetime+time.Second)) {
		t.Error("an expired link is accepted")
	}
	if o.Verify(req, "v2", now) {
		t.Error("a link is accepted for another version")
	}
	if other.Verify(req, "v1", now) {
		t.Error("a link is accepted under another secret")
	}
}

func TestOriginNeedsAnOriginAndASecret(t *testing.T) {
	for _, tt := range []struct{ url, secret string }{
		{"https://usercontent.example", ""}, {"usercontent.example", "k"}, {"https://usercontent.example/files", "k"},
		{"ftp://usercontent.example", "k"}, {"https://user:pw@usercontent.example", "k"}, {"https://", "k"},
	} {
		if _, err := NewOrigin(tt.url, tt.secret); err == nil {
			t.Errorf("NewOrigin(%q, %q) accepted", tt.url, tt.secret)
		}
	}
}
