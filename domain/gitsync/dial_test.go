package gitsync

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// Connections are checked after resolution: a remote that reaches a loopback address is refused
// unless the context allows local addresses (then the connection itself fails: nothing listens).
func TestTransportRefusesLocalAddressesAtConnect(t *testing.T) {
	r, err := ParseRemote("https://127.0.0.1:1/docs.git")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Fetch(context.Background(), r, "refs/heads/main", "", DefaultLimits)
	if !errors.Is(err, ErrLocalRemote) {
		t.Fatalf("fetch from loopback: %v, want ErrLocalRemote", err)
	}
	_, err = Fetch(WithAllowLocal(context.Background(), true), r, "refs/heads/main", "", DefaultLimits)
	if err == nil || errors.Is(err, ErrLocalRemote) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("fetch from loopback, allowed: %v, want connection refused", err)
	}
}
