package graph

import (
	"context"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/domain"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Unit tests of the graph's pure helpers: no database, no HTTP.

func TestSelects(t *testing.T) {
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `
		type Query { page: Page }
		type Page { id: ID, title: String, markdown: String, pages: [Page] }`})
	for _, c := range []struct {
		query string
		want  bool
	}{
		{`{ page { id title } }`, false},
		{`{ page { id markdown } }`, true},
		{`{ page { pages { pages { markdown } } } }`, true},
		{`{ page { ... on Page { markdown } } }`, true},
		{`fragment F on Page { markdown } { page { ...F } }`, true},
		{`fragment F on Page { title } { page { ...F } }`, false},
	} {
		doc, errs := gqlparser.LoadQuery(schema, c.query)
		if errs != nil {
			t.Fatal(errs)
		}
		op := &graphql.OperationContext{Doc: doc}
		page := doc.Operations[0].SelectionSet[0].(*ast.Field)
		if got := selects(op, page.SelectionSet, "markdown", "document"); got != c.want {
			t.Errorf("%s: selects = %v, want %v", c.query, got, c.want)
		}
	}
}

// selectionOf parses query against a small schema and returns the selection of its first field.
func selectionOf(t *testing.T, query string) ast.SelectionSet {
	t.Helper()
	schema := gqlparser.MustLoadSchema(&ast.Source{Input: `
		interface Node { id: ID }
		type Query { org: Org }
		type Org { spaces: SpaceConnection, node: Node }
		type SpaceConnection { totalCount: Int, nodes: [Space] }
		type Space implements Node { id: ID, title: String, counters: Int }`})
	doc, errs := gqlparser.LoadQuery(schema, query)
	if errs != nil {
		t.Fatal(errs)
	}
	return doc.Operations[0].SelectionSet[0].(*ast.Field).SelectionSet
}

func TestSelectionHelpers(t *testing.T) {
	for _, c := range []struct {
		query          string
		here, counters bool
	}{
		{`{ org { spaces { nodes { id } } } }`, false, false},
		{`{ org { spaces { totalCount nodes { counters } } } }`, false, true},
		{`{ org { ... on Org { spaces { totalCount } } } }`, false, false},
		{`fragment F on SpaceConnection { nodes { counters } } { org { spaces { ...F } } }`, false, true},
		{`{ org { node { ... on Space { counters } } } }`, false, true},
	} {
		org := selectionOf(t, c.query)
		if got := selectsOn(org, "Space", []string{"counters"}); got != c.counters {
			t.Errorf("%s: selectsOn Space.counters = %v, want %v", c.query, got, c.counters)
		}
		if got := selectsHere(org, "totalCount"); got != c.here {
			t.Errorf("%s: selectsHere totalCount on the organization = %v, want %v (it is a level down)", c.query, got, c.here)
		}
	}
	spaces := selectionOf(t, `{ org { spaces { ... on SpaceConnection { totalCount } } } }`)[0].(*ast.Field)
	if !selectsHere(spaces.SelectionSet, "totalCount") || selectsHere(spaces.SelectionSet, "nodes") {
		t.Error("selectsHere reads inline fragments at its own level only")
	}
	for w, whole := range map[domain.Want]bool{domain.WantTotal: true, domain.WantSpaceCounters: true, domain.WantCommentReplies: true, domain.WantSpaceContent: false, domain.WantMemberTeams: false} {
		if got := domain.Wants(context.Background(), w); got != whole {
			t.Errorf("outside GraphQL (REST) want %d = %v, want %v: a REST shape has totals and counters and no nested content", w, got, whole)
		}
	}
}

func TestCountAliases(t *testing.T) {
	for query, want := range map[string]int{
		`{ org { spaces { nodes { id } } } }`:                             0,
		`{ org { a: spaces { nodes { id } } b: spaces { totalCount } } }`: 2,
		`{ org { spaces: spaces { nodes { x: id y: title } } } }`:         2, // an alias that repeats the name is none
		`{ org { ... on Org { n: node { id } } } }`:                       1,
	} {
		if got := countAliases(selectionOf(t, query)); got != want {
			t.Errorf("%s: %d aliases, want %d", query, got, want)
		}
	}
}
