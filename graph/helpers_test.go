package graph

import (
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/storage"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// Unit tests of the graph's pure helpers: no database, no HTTP.

func siblings(positions ...float64) []*storage.PageVersion {
	out := make([]*storage.PageVersion, len(positions))
	for i, p := range positions {
		out[i] = &storage.PageVersion{PageID: string(rune('a' + i)), Position: p}
	}
	return out
}

func TestPosition(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		name          string
		sibs          []*storage.PageVersion
		before, after *string
		self          string
		want          float64
		renumbered    bool
	}{
		{"alone", nil, nil, nil, "x", 0, false},
		{"last by default", siblings(0, 1, 2), nil, nil, "x", 3, false},
		{"first", siblings(0, 1, 2), str("a"), nil, "x", -1, false},
		{"between", siblings(0, 1, 2), nil, str("a"), "x", 0.5, false},
		{"after the last", siblings(0, 1, 2), nil, str("c"), "x", 3, false},
		{"itself is not a sibling", siblings(0, 1, 2), str("c"), nil, "b", 1, false},
		{"no room left: renumber", siblings(1, 1), nil, str("a"), "x", 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, re, err := position(c.sibs, c.before, c.after, c.self)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || (re != nil) != c.renumbered {
				t.Fatalf("position = %v (renumbered %v), want %v (renumbered %v)", got, re != nil, c.want, c.renumbered)
			}
			if re != nil {
				for i, s := range re {
					if s.Position == got || i > 0 && s.Position <= re[i-1].Position {
						t.Fatalf("renumbered siblings %v leave no distinct place %v", []float64{re[0].Position, re[len(re)-1].Position}, got)
					}
				}
			}
		})
	}
	_, _, err := position(siblings(0, 1), nil, &[]string{"zz"}[0], "x")
	if apperr.KindOf(err) != apperr.Invalid {
		t.Fatalf("an unknown anchor: %v, want Invalid", err)
	}
}

func TestPageFormat(t *testing.T) {
	if f, err := pageFormat(""); err != nil || f != model.PageFormatDocument {
		t.Fatalf(`"" = %q, %v; want document`, f, err)
	}
	if f, err := pageFormat(model.PageFormatMarkdown); err != nil || f != model.PageFormatMarkdown {
		t.Fatalf("markdown = %q, %v", f, err)
	}
	if _, err := pageFormat("html"); apperr.KindOf(err) != apperr.Invalid {
		t.Fatalf("html: %v, want Invalid", err)
	}
	if err := commentFormat(nil); err != nil {
		t.Fatalf("no format on a comment: %v", err)
	}
}

func TestStringVars(t *testing.T) {
	got := stringVars(model.JSON(`{"name":"Ada","n":2,"ok":true,"list":[1,"a"]}`))
	want := map[string]string{"name": "Ada", "n": "2", "ok": "true", "list": `[1,"a"]`}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if len(stringVars(model.JSON(`null`))) != 0 || len(stringVars(model.JSON(`[1]`))) != 0 {
		t.Error("null or a non-object gives no variables")
	}
}

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
