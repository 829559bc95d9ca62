package gitsync

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// treeGen makes random page trees that Bindery's API can hold and SUMMARY.md can express:
// root pages and links first, then groups; documents nest, links and groups hold no pages
// below a group's level.
type treeGen struct{ rnd *rand.Rand }

// titleRunes mixes letters with what SUMMARY.md and headings read as syntax.
var titleRunes = []rune("abcXYZ019 é#[]()<>\"\\*_.-!?`|:")

func (g treeGen) title() string {
	for {
		n := 1 + g.rnd.IntN(14)
		r := make([]rune, n)
		for i := range r {
			r[i] = titleRunes[g.rnd.IntN(len(titleRunes))]
		}
		if s := string(r); strings.TrimSpace(s) == s {
			return s
		}
	}
}

// slug is the title's slug, or one given by hand (as the API allows), unique among siblings.
func (g treeGen) slug(title string, taken map[string]bool) string {
	var s string
	switch g.rnd.IntN(4) {
	case 0:
		s = []string{"readme", "guide", "a_b", "v1.2", "summary", "index"}[g.rnd.IntN(6)]
	case 1:
		s = fmt.Sprintf("p%d", g.rnd.IntN(5))
	default:
		s = Slugify(title)
	}
	base := s
	for n := 2; taken[s]; n++ {
		s = fmt.Sprintf("%s-%d", base, n)
	}
	taken[s] = true
	return s
}

func (g treeGen) document(taken map[string]bool, depth int) *Page {
	p := &Page{Kind: "document", Title: g.title(), Markdown: fmt.Sprintf("Body %d.\n", g.rnd.IntN(100))}
	p.Slug = g.slug(p.Title, taken)
	if g.rnd.IntN(5) == 0 {
		p.LinkTitle = g.title()
	}
	if depth < 3 {
		p.Pages = g.children(depth + 1)
	}
	return p
}

func (g treeGen) link() *Page {
	return &Page{Kind: "link", Title: g.title(), URL: fmt.Sprintf("https://example.com/%d?q=(%d)", g.rnd.IntN(9), g.rnd.IntN(9))}
}

func (g treeGen) children(depth int) []*Page {
	taken := map[string]bool{}
	var out []*Page
	for n := g.rnd.IntN(4 - min(depth, 3)); n > 0; n-- {
		if g.rnd.IntN(4) == 0 {
			out = append(out, g.link())
		} else {
			out = append(out, g.document(taken, depth))
		}
	}
	return out
}

func (g treeGen) tree() []*Page {
	taken := map[string]bool{}
	var out []*Page
	for n := g.rnd.IntN(4); n > 0; n-- {
		if g.rnd.IntN(4) == 0 {
			out = append(out, g.link())
		} else {
			out = append(out, g.document(taken, 0))
		}
	}
	for n := g.rnd.IntN(4); n > 0; n-- {
		group := &Page{Kind: "group", Title: g.title()}
		group.Slug = g.slug(group.Title, taken)
		group.Pages = g.children(0)
		out = append(out, group)
	}
	return out
}

// shape lists every page as Bindery knows it, in order: its path (its ancestors' slugs and its
// own), kind, title, table of contents title, link and content.
func shape(pages []*Page, parent string) []string {
	var out []string
	for i, p := range pages {
		at := strings.TrimPrefix(parent+"/"+p.Slug, "/")
		if p.Kind == "link" {
			at = fmt.Sprintf("%s/[%d]", parent, i)
		}
		out = append(out, fmt.Sprintf("%s %s %q %q %s %q", at, p.Kind, p.Title, p.LinkTitle, p.URL, p.Markdown))
		out = append(out, shape(p.Pages, at)...)
	}
	return out
}

// exportImport writes content out and reads it back, as a sync out and in again does.
func exportImport(t *testing.T, c *Content) (*Content, map[string][]byte) {
	t.Helper()
	if err := CheckOrder(c.Pages); err != nil {
		t.Fatal(err)
	}
	Assign(c)
	files := Write(c)
	back, err := Read(blobs(toStrings(files)))
	if err != nil {
		t.Fatal(err)
	}
	return back, files
}

func toStrings(files map[string][]byte) map[string]string {
	out := map[string]string{}
	for p, b := range files {
		out[p] = string(b)
	}
	return out
}

// TestExportImportKeepsEveryPage: for random trees of pages, groups and links, writing the
// content and reading it back (twice: the second time from the paths the first import gave)
// keeps every page's path, kind, title, order, parent and content.
func TestExportImportKeepsEveryPage(t *testing.T) {
	for seed := range uint64(2000) {
		g := treeGen{rand.New(rand.NewPCG(seed, 27))}
		in := &Content{Pages: g.tree()}
		want := shape(in.Pages, "")
		once, files := exportImport(t, in)
		if got := shape(once.Pages, ""); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("seed %d: read back:\n%s\nwrote:\n%s\nSUMMARY.md:\n%s", seed, strings.Join(got, "\n"), strings.Join(want, "\n"), files["SUMMARY.md"])
		}
		twice, files := exportImport(t, once)
		if got := shape(twice.Pages, ""); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("seed %d, second round: read back:\n%s\nwrote:\n%s\nSUMMARY.md:\n%s", seed, strings.Join(got, "\n"), strings.Join(want, "\n"), files["SUMMARY.md"])
		}
	}
}

func TestCheckOrderRefusesAPageAfterAGroup(t *testing.T) {
	ok := []*Page{{Kind: "document", Title: "Home"}, {Kind: "link", Title: "Web"}, {Kind: "group", Title: "A"}, {Kind: "group", Title: "B"}}
	if err := CheckOrder(ok); err != nil {
		t.Fatalf("CheckOrder(pages, then groups) = %v", err)
	}
	for _, kind := range []string{"document", "link"} {
		bad := []*Page{{Kind: "group", Title: "Guides"}, {Kind: kind, Title: "Release notes"}}
		err := CheckOrder(bad)
		if err == nil || !strings.Contains(err.Error(), `"Release notes" follows the group "Guides"`) {
			t.Fatalf("CheckOrder(group, then a %s) = %v", kind, err)
		}
	}
}

func TestReadGroupHeadingAnchor(t *testing.T) {
	c, err := Read(blobs(map[string]string{
		"SUMMARY.md": "# Table of contents\n\n* [Home](README.md)\n\n## Get Started <a href=\"#getting-started\" id=\"getting-started\"></a>\n\n* [Install](install.md)\n\n## C# ##\n",
		"README.md":  "# Home\n",
		"install.md": "# Install\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := "document Home (home, README.md)\n" +
		"group Get Started (getting-started, )\n" +
		"  document Install (install, install.md)\n" +
		"group C# (c, )\n"
	if got := outline(c.Pages, 0); got != want {
		t.Fatalf("tree:\n%s\nwant:\n%s", got, want)
	}
	Assign(c)
	if summary := string(Write(c)["SUMMARY.md"]); !strings.Contains(summary, "\n## Get Started <a href=\"#getting-started\" id=\"getting-started\"></a>\n") {
		t.Fatalf("the anchor was not written back:\n%s", summary)
	}
}
