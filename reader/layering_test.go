package reader

import (
	"testing"

	"github.com/bindery/bindery/internal/layering"
)

// The reader is a door of its own over the domain: it reaches neither GraphQL (its executor or
// the graph package) nor the other doors, so that what a visitor reads is decided by the domain's
// published-site reads alone.
func TestReaderReachesTheDomainOnly(t *testing.T) {
	for _, v := range layering.Violations(t, "github.com/bindery/bindery/reader", 1, layering.OtherDoors("github.com/bindery/bindery/reader")) {
		t.Errorf("reader reaches %s", v)
	}
}
