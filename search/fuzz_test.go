package search

import (
	"strings"
	"testing"
)

// FuzzSearchQuery checks that the search query parser never panics and works in linear time on
// any input (about one allocation per byte; eight allowed).
func FuzzSearchQuery(f *testing.F) {
	for _, seed := range []string{`install guide`, `"exact phrase" -draft OR api`, `-`, `"unclosed`, `a OR OR b`, strings.Repeat("x ", 500)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		wantAllocsAtMost(t, 8*float64(len(q))+64, func() { _ = ParseQuery(q) })
	})
}

// wantAllocsAtMost fails when one call of fn allocates more than limit times.
func wantAllocsAtMost(t *testing.T, limit float64, fn func()) {
	t.Helper()
	if n := testing.AllocsPerRun(1, fn); n > limit {
		t.Errorf("%.0f allocations, want at most %.0f", n, limit)
	}
}
