package rest

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// REST reaches the application through the graph's domain methods only (docs/graphql.md, "One
// way in"): it never calls gqlgen's generated resolvers (Query(), Mutation(), Space(), … or the
// interfaces they return), so both doors run the same operation with the same typed input; and it
// never imports storage.

const graphPath = "github.com/bindery/bindery/graph"

// isGenerated reports whether t is one of gqlgen's resolver interfaces (QueryResolver,
// SpaceResolver, …) or one of the methods of *domain.App that hand them out.
func isGeneratedInterface(t types.Type) bool {
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != graphPath {
		return false
	}
	_, isIface := named.Underlying().(*types.Interface)
	return isIface && strings.HasSuffix(named.Obj().Name(), "Resolver")
}

// oneWayViolations lists, as "file:line: what", what in files breaks the rule.
func oneWayViolations(fset *token.FileSet, files []*ast.File, info *types.Info) []string {
	var out []string
	where := func(n ast.Node) string { return fset.Position(n.Pos()).String() }
	for _, f := range files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "github.com/bindery/bindery/storage" || strings.HasPrefix(path, "github.com/bindery/bindery/storage/") {
				out = append(out, where(imp)+": imports "+path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch obj := info.Uses[sel.Sel].(type) {
			case *types.Func: // a method of a generated interface, or a root handing one out
				sig := obj.Type().(*types.Signature)
				if recv := sig.Recv(); recv != nil && isGeneratedInterface(recv.Type()) {
					out = append(out, where(sel)+": calls the generated "+obj.FullName())
				} else if sig.Results().Len() == 1 && isGeneratedInterface(sig.Results().At(0).Type()) {
					out = append(out, where(sel)+": calls the generated root "+obj.Name()+"()")
				}
			case *types.TypeName:
				if isGeneratedInterface(obj.Type()) {
					out = append(out, where(sel)+": names the generated "+obj.Name())
				}
			}
			return true
		})
	}
	return out
}

func loadREST(t *testing.T) *packages.Package {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports}, "github.com/bindery/bindery/rest")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading rest: %v", pkgs[0].Errors)
	}
	return pkgs[0]
}

func TestRESTCallsDomainMethodsOnly(t *testing.T) {
	pkg := loadREST(t) // the package proper: test files may drive GraphQL as clients do
	if len(pkg.Syntax) < 5 {
		t.Fatalf("checked only %d files", len(pkg.Syntax))
	}
	for _, v := range oneWayViolations(pkg.Fset, pkg.Syntax, pkg.TypesInfo) {
		t.Errorf("%s: call the domain method on *domain.App instead", v)
	}
}

// The checker finds each kind of violation, and not url.URL's Query().
func TestOneWayViolationsAreFound(t *testing.T) {
	src := `package x
import (
	"net/url"
	"github.com/bindery/bindery/graph"
	_ "github.com/bindery/bindery/storage"
)
func f(res *domain.App, u *url.URL) {
	res.Mutation().DeleteSpace(nil, "")
	var q graph.QueryResolver = res.Query()
	_ = q
	_ = u.Query()
	res.SpaceByID(nil, "")
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	rest := loadREST(t) // its imports give the snippet graph's types without compiling them again
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importerFunc(func(path string) (*types.Package, error) {
		if p := rest.Imports[path]; p != nil {
			return p.Types, nil
		}
		if path == "github.com/bindery/bindery/storage" {
			return types.NewPackage(path, "storage"), nil // only imported, never used
		}
		return importer.Default().Import(path)
	})}
	if _, err := conf.Check("x", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	got := oneWayViolations(fset, []*ast.File{f}, info)
	// storage import; Mutation(); DeleteSpace on MutationResolver; graph.QueryResolver; Query().
	if len(got) != 5 {
		t.Fatalf("want 5 violations, got %d: %q", len(got), got)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
