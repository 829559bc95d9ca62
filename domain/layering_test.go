package domain

import (
	"strings"
	"testing"

	"github.com/bindery/bindery/internal/layering"
)

// The application knows nothing of GraphQL: no package of domain/ reaches gqlgen or its
// parser, directly or through another package, so that every door calls the same methods
// with the same inputs and REST links no GraphQL executor.
func TestDomainReachesNoGraphQLPackage(t *testing.T) {
	for _, v := range layering.Violations(t, "github.com/bindery/bindery/domain/...", 10, graphQL) {
		t.Errorf("domain reaches a GraphQL package: %s", v)
	}
}

// graphQL reports why the domain may not reach path: it is part of GraphQL's door.
func graphQL(path string) string {
	if strings.HasPrefix(path, "github.com/99designs/gqlgen") || strings.HasPrefix(path, "github.com/vektah/gqlparser") || path == "github.com/bindery/bindery/graph" {
		return "GraphQL"
	}
	return ""
}
