package expr

import (
	"sort"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// ClaimsRead lists the claims a condition reads, as dotted paths under visitor.claims
// ("plan", "unsigned.beta"), sorted and without repeats: what a site's adaptive schema must
// declare. Paths stop at the first part that is not a literal name (visitor.claims[x]).
func ClaimsRead(condition string) ([]string, error) {
	tree, err := parser.Parse(condition)
	if err != nil {
		return nil, message(err)
	}
	seen := map[string]bool{}
	// Each chain is read from its outermost member: the members inside it are parts of it.
	inner := map[ast.Node]bool{}
	ast.Walk(&tree.Node, visitor(func(node *ast.Node) {
		if m, ok := (*node).(*ast.MemberNode); ok {
			inner[unwrap(m.Node)] = true
		}
	}))
	ast.Walk(&tree.Node, visitor(func(node *ast.Node) {
		m, ok := (*node).(*ast.MemberNode)
		if !ok || inner[m] {
			return
		}
		var parts []string
		var n ast.Node = m
		for {
			mm, ok := unwrap(n).(*ast.MemberNode)
			if !ok {
				break
			}
			s, ok := mm.Property.(*ast.StringNode)
			if !ok {
				parts = nil // a computed part: only what is above it is known
			} else {
				parts = append([]string{s.Value}, parts...)
			}
			n = mm.Node
		}
		root, ok := unwrap(n).(*ast.IdentifierNode)
		if !ok || root.Value != "visitor" || len(parts) < 2 || parts[0] != "claims" {
			return
		}
		parts = parts[1:]
		if parts[0] == "unsigned" && len(parts) > 2 {
			parts = parts[:2]
		} else if parts[0] != "unsigned" && len(parts) > 1 {
			parts = parts[:1]
		}
		seen[strings.Join(parts, ".")] = true
	}))
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}
