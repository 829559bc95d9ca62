package graph

import (
	"context"
	"slices"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/vektah/gqlparser/v2/ast"
)

// selectionWants answers domain.Wants from the selection below the GraphQL field being resolved
// (through fragments too; @skip and @include are not evaluated, so a skipped field still counts).
// Outside a field (an operation's own set-up) the caller reads whole shapes.
//
// It only lets a read leave out work nobody will see (a statement for counters or a total): the
// answer to what is selected never depends on it, which is why the rule that the domain does not
// look at the operation (REST has none) does not apply.
func selectionWants(ctx context.Context, w domain.Want) bool {
	fc := graphQLField(ctx)
	if fc == nil {
		return domain.WholeShape(w)
	}
	set := fc.Field.Selections
	switch w {
	case domain.WantTotal:
		return selectsHere(set, "totalCount")
	case domain.WantSpaceCounters:
		return selectsOn(set, "Space", spaceCounters)
	case domain.WantCommentReplies:
		return selectsOn(set, "Comment", []string{"replyList"})
	case domain.WantMemberTeams:
		return selectsOn(set, "Member", []string{"teamMemberships"})
	case domain.WantMemberSpaces:
		return selectsOn(set, "Member", []string{"accessibleSpaces"})
	case domain.WantSpaceContent:
		return selectsOn(set, "Space", []string{"content"})
	case domain.WantChangeRequestContent:
		return selectsOn(set, "ChangeRequest", []string{"content"})
	case domain.WantRevisionPages:
		return selectsOn(set, "Revision", []string{"pages"})
	case domain.WantPageContent:
		return selectsOn(set, "RevisionPage", []string{"markdown", "document"})
	case domain.WantReusableContentText:
		return selectsOn(set, "ReusableContent", []string{"markdown", "document"})
	}
	return false
}

// withSelection makes every operation's reads ask its selection what it wants, and its loads
// whether they read for an element of a list.
func withSelection(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	return next(loader.WithInList(domain.WithSelection(ctx, selectionWants), inList))
}

// inList reports whether the field being resolved belongs to an element of a GraphQL list,
// whose siblings gqlgen resolves concurrently.
func inList(ctx context.Context) bool {
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		if fc.Index != nil {
			return true
		}
	}
	return false
}

// graphQLField is the GraphQL field being resolved, nil outside GraphQL.
func graphQLField(ctx context.Context) *graphql.FieldContext {
	if fc := graphql.GetFieldContext(ctx); fc != nil && fc.Field.Field != nil {
		return fc
	}
	return nil
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

// graphPageTree is a revision's page tree for GraphQL. When the query asks for any page's
// markdown or document, every document's markdown is read with the tree in one statement, rather
// than batched per page.
func (r *Resolver) graphPageTree(ctx context.Context, src *domain.ContentSource) ([]*model.RevisionPage, error) {
	tree, err := r.PageTree(ctx, src)
	if err != nil {
		return nil, err
	}
	if fc := graphql.GetFieldContext(ctx); fc != nil && selects(graphql.GetOperationContext(ctx), fc.Field.Selections, "markdown", "document") {
		err = r.WithMarkdown(ctx, tree)
	}
	return tree, err
}

// selects reports whether a selection set asks, at any depth, for a field of one of the names.
func selects(op *graphql.OperationContext, set ast.SelectionSet, names ...string) bool {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if slices.Contains(names, s.Name) || selects(op, s.SelectionSet, names...) {
				return true
			}
		case *ast.InlineFragment:
			if selects(op, s.SelectionSet, names...) {
				return true
			}
		case *ast.FragmentSpread:
			if op != nil && op.Doc != nil {
				if def := op.Doc.Fragments.ForName(s.Name); def != nil && selects(op, def.SelectionSet, names...) {
					return true
				}
			}
		}
	}
	return false
}
