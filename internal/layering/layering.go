// Package layering finds the packages a package reaches that its layer forbids, for the tests
// that keep Bindery's dependencies pointing one way.
package layering

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// Violations lists, as "a → b → c: why", each package that the packages matching pattern reach
// (directly or through others) for which forbidden gives a reason. The matched packages
// themselves are not judged. It fails t when the pattern matches fewer than least packages.
func Violations(t testing.TB, pattern string, least int, forbidden func(path string) string) []string {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps}, pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < least {
		t.Fatalf("%s matched %d packages, want at least %d", pattern, len(pkgs), least)
	}
	var out []string
	seen := map[string]bool{}
	var walk func(p *packages.Package, path []string)
	walk = func(p *packages.Package, path []string) {
		if len(p.Errors) > 0 {
			t.Fatalf("loading %s: %v", p.PkgPath, p.Errors)
		}
		path = append(path, p.PkgPath)
		if why := forbidden(p.PkgPath); why != "" && len(path) > 1 {
			out = append(out, strings.Join(path, " → ")+": "+why)
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
	return out
}

// OtherDoors forbids, to the door self (a package path), the other doors of the server (the
// graph, REST, the reader, the package that mounts them) and GraphQL's executor: a door reaches
// the application through the domain alone.
func OtherDoors(self string) func(path string) string {
	const mod = "github.com/bindery/bindery/"
	return func(path string) string {
		switch {
		case path == self:
			return ""
		case path == mod+"graph" || strings.HasPrefix(path, mod+"graph/"), path == mod+"rest", path == mod+"reader", path == mod+"doors":
			return "another door"
		case strings.HasPrefix(path, "github.com/99designs/gqlgen"), strings.HasPrefix(path, "github.com/vektah/gqlparser"):
			return "GraphQL's executor"
		}
		return ""
	}
}
