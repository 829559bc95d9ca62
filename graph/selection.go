package graph

import (
	"context"
	"slices"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// asked reports whether a read must fill any of fields of GraphQL type typ for the objects it
// returns: true outside GraphQL (a REST answer always shows everything its shape has), else
// whether the selection below the field being resolved asks for one of them anywhere (through
// fragments too; @skip and @include are not evaluated, so a skipped field still counts).
//
// It only lets a read leave out work nobody will see (a statement for counters or a total): the
// answer to what is selected never depends on it, which is why the rule that resolvers do not
// look at the operation (REST has none) does not apply.
func asked(ctx context.Context, typ string, fields ...string) bool {
	fc := graphQLField(ctx)
	return fc == nil || selectsOn(fc.Field.Selections, typ, fields)
}

// graphQLField is the GraphQL field being resolved, nil outside GraphQL.
func graphQLField(ctx context.Context) *graphql.FieldContext {
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Field.Field != nil {
		return fc
	}
	return nil
}

// totalAsked reports whether a list's total must be counted: outside GraphQL (REST's count), or
// when the connection being resolved selects totalCount.
func totalAsked(ctx context.Context) bool {
	fc := graphQLField(ctx)
	return fc == nil || selectsHere(fc.Field.Selections, "totalCount")
}

// selectsHere reports whether set itself (through fragments, not in sub-selections) selects name.
func selectsHere(set ast.SelectionSet, name string) bool {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if s.Name == name {
				return true
			}
		case *ast.InlineFragment:
			if selectsHere(s.SelectionSet, name) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && selectsHere(s.Definition.SelectionSet, name) {
				return true
			}
		}
	}
	return false
}

// selectsOn reports whether set, or a set below it, selects one of fields on typ (or on an
// interface or union, which typ may implement).
func selectsOn(set ast.SelectionSet, typ string, fields []string) bool {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if def := s.ObjectDefinition; def != nil && (def.Name == typ || def.Kind != ast.Object) && slices.Contains(fields, s.Name) {
				return true
			}
			if selectsOn(s.SelectionSet, typ, fields) {
				return true
			}
		case *ast.InlineFragment:
			if selectsOn(s.SelectionSet, typ, fields) {
				return true
			}
		case *ast.FragmentSpread:
			if s.Definition != nil && selectsOn(s.Definition.SelectionSet, typ, fields) {
				return true
			}
		}
	}
	return false
}

// spaceCounters are the fields of Space that withCounts fills.
var spaceCounters = []string{"comments", "changeRequests", "changeRequestsOpen", "changeRequestsDraft"}
