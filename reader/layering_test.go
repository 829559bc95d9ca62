package reader

import (
	"strings"
	"testing"

	"github.com/bindery/bindery/internal/layering"
)

// The reader is a door of its own over the domain: it reaches neither GraphQL (its executor or
// the graph package) nor the other doors, so that what a visitor reads is decided by the domain's
// published-site reads alone.
func TestReaderReachesTheDomainOnly(t *testing.T) {
	forbidden := func(path string) string {
		switch {
		case path == "github.com/bindery/bindery/graph" || strings.HasPrefix(path, "github.com/bindery/bindery/graph/"),
			path == "github.com/bindery/bindery/rest", path == "github.com/bindery/bindery/doors":
			return "another door"
		case strings.HasPrefix(path, "github.com/99designs/gqlgen"), strings.HasPrefix(path, "github.com/vektah/gqlparser"):
			return "GraphQL's executor"
		}
		return ""
	}
	for _, v := range layering.Violations(t, "github.com/bindery/bindery/reader", 1, forbidden) {
		t.Errorf("reader reaches %s", v)
	}
}
