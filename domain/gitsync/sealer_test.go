package gitsync

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Credentials sealed under the server's secret open under it and under nothing else; damaged or
// altered ciphertext is refused, never opened to something else.
func TestSealer(t *testing.T) {
	if NewSealer("") != nil {
		t.Fatal("an empty secret gives a sealer: credentials would be kept under no key")
	}
	s := NewSealer("the server's secret")
	const creds = `["bindery-user","s3cr3t"]`
	sealed := s.Seal(creds)
	if strings.Contains(sealed, "s3cr3t") {
		t.Fatal("the sealed text holds the secret")
	}
	if again := s.Seal(creds); again == sealed {
		t.Fatal("two seals of the same text are equal: the nonce is not random")
	}
	if plain, err := s.Open(sealed); err != nil || plain != creds {
		t.Fatalf("round trip: %q, %v", plain, err)
	}

	// A rotated (changed) secret opens nothing sealed before, and says why.
	if _, err := NewSealer("a new secret").Open(sealed); err == nil || !strings.Contains(err.Error(), "secret key changed") {
		t.Fatalf("another secret: %v", err)
	}
	// Every single flipped bit of the ciphertext is refused.
	raw, _ := base64.StdEncoding.DecodeString(sealed)
	for i := range raw {
		tampered := append([]byte(nil), raw...)
		tampered[i] ^= 0x01
		if plain, err := s.Open(base64.StdEncoding.EncodeToString(tampered)); err == nil {
			t.Fatalf("byte %d altered: opened to %q", i, plain)
		}
	}
	// Damaged text: not base64, or shorter than a nonce.
	for _, damaged := range []string{"not base64!", base64.StdEncoding.EncodeToString([]byte("short")), ""} {
		if _, err := s.Open(damaged); err == nil || !strings.Contains(err.Error(), "damaged") {
			t.Errorf("Open(%q): %v", damaged, err)
		}
	}
}
