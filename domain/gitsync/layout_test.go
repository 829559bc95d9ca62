package gitsync

import (
	"sort"
	"strings"
	"testing"
)

func blobs(files map[string]string) map[string]Blob {
	out := map[string]Blob{}
	for p, s := range files {
		out[p] = Blob{OID: "oid-" + p, Data: []byte(s)}
	}
	return out
}

// outline is a page tree as "title(slug,path)" lines indented by depth.
func outline(pages []*Page, depth int) string {
	var b strings.Builder
	for _, p := range pages {
		b.WriteString(strings.Repeat("  ", depth) + p.Kind + " " + p.Title + " (" + p.Slug + ", " + p.Path + ")\n")
		b.WriteString(outline(p.Pages, depth+1))
	}
	return b.String()
}

func TestReadFollowsFoldersWithoutSummary(t *testing.T) {
	c, err := Read(blobs(map[string]string{
		"README.md":             "# Home\n\nWelcome.\n",
		"zeta.md":               "Last by name.\n",
		"guide/README.md":       "---\ndescription: The guide\nhidden: true\n---\n# The guide\n\nBody.\n",
		"guide/setup.md":        "# Set up\n",
		"loose/notes.md":        "# Notes\n",
		".gitbook/assets/a.png": "png",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := "document Home (home, README.md)\n" +
		"document The guide (guide, guide/README.md)\n" +
		"  document Set up (setup, guide/setup.md)\n" +
		"document Loose (loose, )\n" +
		"  document Notes (notes, loose/notes.md)\n" +
		"document Zeta (zeta, zeta.md)\n"
	if got := outline(c.Pages, 0); got != want {
		t.Fatalf("tree:\n%s\nwant:\n%s", got, want)
	}
	guide := c.Pages[1]
	if guide.Markdown != "Body.\n" || guide.Front.Description != "The guide" || !guide.Front.Hidden {
		t.Fatalf("guide page = %+v", guide)
	}
	if len(c.Files) != 1 || c.Files[0].Name != "a.png" {
		t.Fatalf("files = %+v", c.Files)
	}
}

func TestReadSummaryNestingGroupsAndRefusals(t *testing.T) {
	c, err := Read(blobs(map[string]string{
		"SUMMARY.md": "# Summary\n\n- [Intro](README.md)\n\n## Part one\n\n- [A](a.md \"Short A\")\n    - [A1](a/one.md)\n        - [Deep](a/deep.md)\n- [Outside](../etc/passwd.md)\n- [Twice](a.md)\n- [Site](https://example.com)\n",
		"README.md":  "Intro text.\n",
		"a.md":       "# A\n\nAlpha.\n",
		"a/one.md":   "# Another title\n\nOne.\n",
		"a/deep.md":  "Deep.\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := "document Intro (intro, README.md)\n" +
		"group Part one (part-one, )\n" +
		"  document A (a, a.md)\n" +
		"    document A1 (one, a/one.md)\n" +
		"      document Deep (deep, a/deep.md)\n" +
		"  link Site (, )\n"
	if got := outline(c.Pages, 0); got != want {
		t.Fatalf("tree:\n%s\nwant:\n%s", got, want)
	}
	a := c.Pages[1].Pages[0]
	if a.LinkTitle != "Short A" || a.Markdown != "Alpha.\n" {
		t.Fatalf("page A = %+v", a)
	}
	// A heading that differs from the summary's title stays content.
	if one := a.Pages[0]; one.Markdown != "# Another title\n\nOne.\n" {
		t.Fatalf("A1 markdown = %q", one.Markdown)
	}
}

func TestReadRefusesARootOutsideTheRepository(t *testing.T) {
	if _, err := Read(blobs(map[string]string{".gitbook.yaml": "root: ../../\n"})); err == nil {
		t.Fatal("a root above the repository was accepted")
	}
	for _, p := range []string{"../x.md", "/etc/passwd", "a/../../x", ".git/config", "a\\b"} {
		if _, ok := CleanPath(p); ok {
			t.Errorf("CleanPath(%q) accepted", p)
		}
	}
}

func TestWriteThenReadIsTheSameTree(t *testing.T) {
	in := &Content{Pages: []*Page{
		{Kind: "document", Title: "Home", Slug: "home", Markdown: "Hi.\n"},
		{Kind: "group", Title: "Docs", Slug: "docs", Pages: []*Page{
			{Kind: "document", Title: "Guide", Slug: "guide", Markdown: "G.\n", Front: FrontMatter{Icon: "book"}, Pages: []*Page{
				{Kind: "document", Title: "Step (one)", Slug: "step", Markdown: "S.\n", LinkTitle: "Step"},
			}},
			{Kind: "link", Title: "Web", URL: "https://example.com"},
		}},
	}, Files: []*File{{Name: "a.png", Data: []byte("png")}}}
	Assign(in)
	files := Write(in)
	back := map[string]Blob{}
	for p, b := range files {
		back[p] = Blob{Data: b}
	}
	out, err := Read(back)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := outline(out.Pages, 0), outline(in.Pages, 0); got != want {
		t.Fatalf("read back:\n%s\nwrote:\n%s\nSUMMARY.md:\n%s", got, want, files["SUMMARY.md"])
	}
	if out.Pages[1].Pages[0].Front.Icon != "book" || out.Pages[1].Pages[0].Pages[0].LinkTitle != "Step" {
		t.Fatalf("front matter or link title lost")
	}
	if len(out.Files) != 1 || string(out.Files[0].Data) != "png" || out.Files[0].Path != ".gitbook/assets/a.png" {
		t.Fatalf("files = %+v", out.Files)
	}
}

// Reusable content is read under the root .gitbook.yaml names and, when the root is a folder,
// at the synced directory's own .gitbook/includes/ too, by its path relative to the root; its
// text is kept as written.
func TestReadIncludes(t *testing.T) {
	c, err := Read(blobs(map[string]string{
		".gitbook.yaml":                   "root: ./docs/\n",
		".gitbook/includes/outer.md":      "---\ntitle: Outer part\n---\n\nOuter.\n",
		".gitbook/includes/both.md":       "Outside.\n",
		"docs/.gitbook/includes/both.md":  "Inside.\n",
		"docs/.gitbook/includes/plain.md": "Plain.\n",
		"docs/.gitbook/includes/skip.txt": "not markdown",
		"docs/README.md":                  "# Home\n\n{% include \"../.gitbook/includes/outer.md\" %}\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, inc := range c.Includes {
		got = append(got, inc.Path+" "+inc.Title+" "+strings.TrimSpace(IncludeBody(inc.Text)))
	}
	want := []string{".gitbook/includes/both.md Both Inside.", ".gitbook/includes/plain.md Plain Plain.", "../.gitbook/includes/outer.md Outer part Outer."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("includes:\n got %q\nwant %q", got, want)
	}
}

// Pages synced from a subdirectory may include files of a .gitbook/includes/ folder outside it:
// those they include (directly or through another include) are added by their path relative to
// the synced folder, and nothing else.
func TestAddOutsideIncludes(t *testing.T) {
	c, err := Read(map[string]Blob{
		"README.md":                   {Data: []byte("# Home\n\n{% include \"../.gitbook/includes/a.md\" %}\n")},
		"guide/deep.md":               {Data: []byte("# Deep\n\n{% include \"../../.gitbook/includes/a.md\" %}\n")},
		".gitbook/includes/inside.md": {Data: []byte("Inside.\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	AddOutsideIncludes(c, map[string]Blob{
		"../.gitbook/includes/a.md":      {OID: "1", Data: []byte("A\n\n{% include \"b.md\" %}\n")},
		"../.gitbook/includes/b.md":      {OID: "2", Data: []byte("B\n")},
		"../.gitbook/includes/unused.md": {OID: "3", Data: []byte("Unused\n")},
	})
	var got []string
	for _, inc := range c.Includes {
		got = append(got, inc.Path)
	}
	want := []string{".gitbook/includes/inside.md", "../.gitbook/includes/a.md", "../.gitbook/includes/b.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("includes = %q, want %q", got, want)
	}
}

func TestRelativeTo(t *testing.T) {
	tests := []struct{ dir, p, want string }{
		{"documentation", ".gitbook/includes/x.md", "../.gitbook/includes/x.md"},
		{"a/b", "a/.gitbook/includes/x.md", "../.gitbook/includes/x.md"},
		{"a/b", "c/.gitbook/includes/x.md", "../../c/.gitbook/includes/x.md"},
	}
	for _, tt := range tests {
		if got, ok := relativeTo(tt.dir, tt.p); got != tt.want || !ok {
			t.Errorf("relativeTo(%q, %q) = %q, %v, want %q", tt.dir, tt.p, got, ok, tt.want)
		}
	}
	for _, p := range []string{".gitbook/includes/x.md", "docs/.gitbook/includes/a/b.MD"} {
		if !outsideInclude(p) {
			t.Errorf("outsideInclude(%q) = false", p)
		}
	}
	for _, p := range []string{"../.gitbook/includes/x.md", ".gitbook/includes/x.txt", "docs/page.md", ".git/.gitbook/includes/x.md"} {
		if outsideInclude(p) {
			t.Errorf("outsideInclude(%q) = true", p)
		}
	}
}

// A root that .gitbook.yaml moves: export writes the content under it, the includes read outside
// it back where they were, and .gitbook.yaml as it was; reading that gives the same content.
func TestWriteUnderRoot(t *testing.T) {
	repo := map[string]string{
		".gitbook.yaml":               "# moved\nroot: ./docs/\n",
		".gitbook/includes/banner.md": "Banner, see [Boats](../../docs/guide/boats.md).\n",
		"docs/README.md":              "# Home\n\n{% include \"../.gitbook/includes/banner.md\" %}\n",
		"docs/guide/boats.md":         "# Boats\n\n{% include \"../../.gitbook/includes/banner.md\" %}\n",
		"docs/SUMMARY.md":             "# Table of contents\n\n* [Home](README.md)\n* [Boats](guide/boats.md)\n",
	}
	c, err := Read(blobs(repo))
	if err != nil {
		t.Fatal(err)
	}
	if c.Root != "docs" || len(c.Includes) != 1 || c.Includes[0].Path != "../.gitbook/includes/banner.md" {
		t.Fatalf("root %q, includes %+v", c.Root, c.Includes)
	}
	Assign(c)
	out := Write(c)
	for name, body := range repo {
		if string(out[name]) != body {
			t.Errorf("Write %s:\n%s\nwant:\n%s", name, out[name], body)
		}
	}
	if len(out) != len(repo) {
		t.Errorf("Write wrote %d files, want %d", len(out), len(repo))
	}

	// Without the file as read (content written through the API), the root is named in one.
	c.Config = nil
	if cfg := string(Write(c)[".gitbook.yaml"]); !strings.Contains(cfg, "root: ./docs/") {
		t.Errorf(".gitbook.yaml = %q", cfg)
	}
}

// Pages under a moved root in a synced folder include files outside the folder: their paths,
// relative to the root, climb out of both.
func TestAddOutsideIncludesUnderRoot(t *testing.T) {
	c, err := Read(blobs(map[string]string{
		".gitbook.yaml":  "root: ./docs/\n",
		"docs/README.md": "# Home\n\n{% include \"../../.gitbook/includes/a.md\" %}\n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	AddOutsideIncludes(c, map[string]Blob{"../.gitbook/includes/a.md": {OID: "1", Data: []byte("A\n")}})
	if len(c.Includes) != 1 || c.Includes[0].Path != "../../.gitbook/includes/a.md" {
		t.Fatalf("includes = %+v", c.Includes)
	}
	if out := Write(c); string(out["../.gitbook/includes/a.md"]) != "A\n" {
		t.Errorf("Write = %v", keysOf(out))
	}
}

func keysOf(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// A page's front matter is written back as GitBook wrote it (a folded description, keys Bindery
// does not read) while the page still says the same; a changed field writes it anew.
func TestWriteKeepsFrontMatterAsWritten(t *testing.T) {
	page := "---\ndescription: >-\n  A folded\n  description\nlayout:\n  tags:\n    visible: true\n---\n\n# Home\n\nHello.\n"
	c, err := Read(blobs(map[string]string{"README.md": page, "SUMMARY.md": "# Table of contents\n\n* [Home](README.md)\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Pages[0].Front.Description != "A folded description" {
		t.Fatalf("description = %q", c.Pages[0].Front.Description)
	}
	Assign(c)
	if got := string(Write(c)["README.md"]); got != page {
		t.Errorf("Write = %q, want the page as read", got)
	}
	c.Pages[0].Front.Description = "Changed"
	if got := string(Write(c)["README.md"]); !strings.HasPrefix(got, "---\ndescription: Changed\n") || strings.Contains(got, "folded") {
		t.Errorf("Write after a change = %q", got)
	}
}

// .gitbook.yaml is written back as read while it names the same root and redirects; otherwise
// it is written anew.
func TestWriteKeepsGitBookYAML(t *testing.T) {
	cfg := "# Our layout\nroot: ./\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\nredirects:\n  old: README.md\n"
	c, err := Read(blobs(map[string]string{".gitbook.yaml": cfg, "README.md": "# Home\n", "SUMMARY.md": "# Table of contents\n\n* [Home](README.md)\n"}))
	if err != nil {
		t.Fatal(err)
	}
	Assign(c)
	if got := string(Write(c)[".gitbook.yaml"]); got != cfg {
		t.Errorf(".gitbook.yaml = %q, want it as read", got)
	}
	c.Redirects = map[string]string{"older": "README.md"}
	if got := string(Write(c)[".gitbook.yaml"]); strings.Contains(got, "# Our layout") || !strings.Contains(got, "older: README.md") {
		t.Errorf(".gitbook.yaml after new redirects = %q", got)
	}
}
