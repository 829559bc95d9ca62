package domain

import (
	"slices"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
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

func TestPageSlugs(t *testing.T) {
	if got := slugify("Getting Started: the Basics!"); got != "getting-started-the-basics" {
		t.Errorf("slugify = %q", got)
	}
	if got := slugify("¿?"); got != "page" {
		t.Errorf("slugify of no letters = %q, want the fallback page", got)
	}
	if got := slugify(strings.Repeat("word ", 40)); len(got) > 100 || strings.HasSuffix(got, "-") {
		t.Errorf("slugify of a long title = %q (%d characters), want at most 100 and no trailing dash", got, len(got))
	}
	sibs := []*storage.PageVersion{{PageID: "a", Slug: "intro"}, {PageID: "b", Slug: "intro-2"}, {PageID: "c", Slug: "setup"}}
	for _, c := range []struct{ slug, self, want string }{
		{"intro", "x", "intro-3"},
		{"setup", "x", "setup-2"},
		{"setup", "c", "setup"}, // a page keeps its own slug
		{"faq", "x", "faq"},
	} {
		if got := uniqueSlug(c.slug, sibs, c.self); got != c.want {
			t.Errorf("uniqueSlug(%q) for %s = %q, want %q", c.slug, c.self, got, c.want)
		}
	}
	if err := slugFree("setup", sibs, "c"); err != nil {
		t.Errorf("a page's own slug: %v", err)
	}
	if err := slugFree("intro-2", sibs, "x"); apperr.KindOf(err) != apperr.Invalid {
		t.Errorf("a sibling's slug: %v, want Invalid (a given slug is never changed)", err)
	}
	if got := slug("Public Docs"); got != "public-docs" {
		t.Errorf("site space slug = %q", got)
	}
}

func TestPathCandidates(t *testing.T) {
	page := &model.RevisionPage{Path: "guides/install"}
	for rel, want := range map[string][]string{
		"setup.md":          {"guides/setup", "guides/install/setup"},
		"../README.md":      {"", "guides"},
		"/reference/api.md": {"reference/api"},
		"child/README.md":   {"guides/child", "guides/install/child"},
	} {
		if got := pathCandidates(page, rel); !slices.Equal(got, want) {
			t.Errorf("pathCandidates(%q) = %q, want %q", rel, got, want)
		}
	}
	if got := pathCandidates(&model.RevisionPage{Path: "intro"}, "faq.md"); !slices.Equal(got, []string{"faq", "intro/faq"}) {
		t.Errorf("from a root page: %q", got)
	}
}
