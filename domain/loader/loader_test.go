package loader

import (
	"context"
	"testing"
)

// A read without a request state would lose batching silently; in a test binary it panics, so
// that the door or job that forgot to install one fails its tests.
func TestLoadersWithoutRequestStatePanicInTests(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("For without a request state did not panic")
		}
	}()
	For(context.Background(), nil)
}
