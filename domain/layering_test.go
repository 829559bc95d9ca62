package domain

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// The application knows nothing of GraphQL: no package of domain/ reaches gqlgen or its
// parser, directly or through another package, so that every door calls the same methods
// with the same inputs and REST links no GraphQL executor.
func TestDomainReachesNoGraphQLPackage(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps}, "github.com/bindery/bindery/domain/...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("loaded %d packages of domain/: the pattern matched less than the tree", len(pkgs))
	}
	seen := map[string]bool{}
	var walk func(p *packages.Package, path []string)
	walk = func(p *packages.Package, path []string) {
		path = append(path, p.PkgPath)
		if strings.HasPrefix(p.PkgPath, "github.com/99designs/gqlgen") || strings.HasPrefix(p.PkgPath, "github.com/vektah/gqlparser") || p.PkgPath == "github.com/bindery/bindery/graph" {
			t.Errorf("domain reaches a GraphQL package: %s", strings.Join(path, " → "))
			return
		}
		if seen[p.PkgPath] {
			return
		}
		seen[p.PkgPath] = true
		for _, imp := range p.Imports {
			walk(imp, path)
		}
	}
	for _, p := range pkgs {
		walk(p, nil)
	}
}
