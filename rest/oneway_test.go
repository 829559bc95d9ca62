package rest

import (
	"strings"
	"testing"

	"github.com/bindery/bindery/internal/layering"
	"golang.org/x/tools/go/packages"
)

// REST reaches the application through *domain.App only (docs/graphql.md, "One way in"): its
// package proper reaches no other door (graph, the reader that runs it, gqlgen), directly or
// through another package, and imports no storage package itself. cmd/bindery mounts the other
// doors (package doors).

// forbidden reports why rest may not reach the package at path; "" when it may.
var forbidden = layering.OtherDoors("github.com/bindery/bindery/rest")

// isStorage reports whether path is a storage package, which rest may reach through the domain
// but not import.
func isStorage(path string) bool {
	return path == "github.com/bindery/bindery/storage" || strings.HasPrefix(path, "github.com/bindery/bindery/storage/")
}

// oneWayViolations lists, as "a → b → c: why", each forbidden package that pattern reaches, and
// each storage package it imports itself.
func oneWayViolations(t *testing.T, pattern string) []string {
	t.Helper()
	out := layering.Violations(t, pattern, 1, forbidden)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports}, pattern)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("loading %s: %v", pattern, err)
	}
	for imp := range pkgs[0].Imports {
		if isStorage(imp) {
			out = append(out, pattern+" → "+imp+": storage")
		}
	}
	return out
}

func TestRESTReachesTheDomainOnly(t *testing.T) {
	for _, v := range oneWayViolations(t, "github.com/bindery/bindery/rest") {
		t.Errorf("rest reaches %s", v)
	}
}

// The walk finds what it must: the package that mounts the doors reaches graph and gqlgen.
func TestOneWayViolationsAreFound(t *testing.T) {
	got := strings.Join(oneWayViolations(t, "github.com/bindery/bindery/doors"), "\n")
	for _, want := range []string{"doors → github.com/bindery/bindery/graph: another door", "doors → github.com/99designs/gqlgen/graphql: GraphQL's executor"} {
		if !strings.Contains(got, want) {
			t.Errorf("the walk of doors misses %q; found:\n%s", want, got)
		}
	}
}

// A storage import is found where it is direct (the domain's), not where it is reached.
func TestOneWayFindsStorageImports(t *testing.T) {
	got := strings.Join(oneWayViolations(t, "github.com/bindery/bindery/domain"), "\n")
	if !strings.Contains(got, "github.com/bindery/bindery/domain → github.com/bindery/bindery/storage: storage") {
		t.Errorf("the domain's own storage import is not found:\n%s", got)
	}
}
