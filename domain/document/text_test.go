package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Search's sections come from the parsed document: custom anchors are the sections' anchors,
// repeated headings take -2, code and tables keep their text, markup and GitBook tags do not.
func TestSections(t *testing.T) {
	md := "Intro with **bold** and a [link](https://x.example) and ![a cat](cat.png).\n\n" +
		"# Install {#setup}\n\nRun it:\n\n```sh\ngo run ./cmd/bindery\n```\n\n" +
		"## Options <a href=\"#opts\" id=\"opts\"></a>\n\n| Flag | Meaning |\n|---|---|\n| `--addr` | listen address |\n\n" +
		"{% hint style=\"info\" %}\nA *hint* inside.\n{% endhint %}\n\n" +
		"## Café crème\n\n- one\n- two <span>tagged</span>\n\n## Café crème\n\n<details><summary>More</summary>\n\nHidden text.\n\n</details>\n"
	want := []Section{
		{Text: "Intro with bold and a link and a cat."},
		{Anchor: "setup", Title: "Install", Text: "Run it:\ngo run ./cmd/bindery"},
		{Anchor: "opts", Title: "Options", Text: "Flag Meaning\n--addr listen address\nA hint inside."},
		{Anchor: "cafe-creme", Title: "Café crème", Text: "one\ntwo tagged"},
		{Anchor: "cafe-creme-2", Title: "Café crème", Text: "More\nHidden text."},
	}
	if diff := cmp.Diff(want, Sections(md)); diff != "" {
		t.Errorf("Sections (-want +got):\n%s", diff)
	}
	if got := SearchText("# A\n\nb\n"); got != "A\nb\n" {
		t.Errorf("SearchText = %q", got)
	}
	// Search indexes a link's text, not its target (storage's search tests use a reader that
	// does the same).
	if got := SearchText("See [install](https://example.com/install).\n"); got != "See install.\n" {
		t.Errorf("SearchText of a link = %q", got)
	}
}

// The reader's headings and search's sections share one anchor rule.
func TestAnchors(t *testing.T) {
	a := Anchors{}
	for _, tt := range []struct{ id, title, want string }{
		{"", "Hello, World!", "hello-world"},
		{"", "Привет", "section"},
		{"custom", "Ignored", "custom"},
		{"", "Hello world", "hello-world-2"},
		{"custom", "", "custom-2"},
	} {
		if got := a.Next(tt.id, tt.title); got != tt.want {
			t.Errorf("Next(%q, %q) = %q, want %q", tt.id, tt.title, got, tt.want)
		}
	}
}

// GitBook's blocks give search their text: cards' and HTML tables' cells, steps, button labels;
// never icon tokens, scripts, OpenAPI tags' bodies, nor conditional content (search answers every
// visitor alike).
func TestSectionsOfGitBookBlocks(t *testing.T) {
	md := "<table data-view=\"cards\"><thead><tr><th></th></tr></thead><tbody><tr><td><strong>Quick</strong> start</td></tr></tbody></table>\n\n" +
		"{% stepper %}\n{% step %}\nFirst step.\n{% endstep %}\n{% endstepper %}\n\n" +
		"Go <a href=\"x.md\" class=\"button primary\">Launch</a> <i class=\"fa-github\">:github:</i> <kbd>Ctrl</kbd>\n\n" +
		"<div><script>var secret = 1;</script><p>Kept &amp; shown</p><i class=\"fa-star\">:star:</i></div>\n\n" +
		"{% if visitor.claims.plan == \"pro\" %}\nPro only.\n{% endif %}\n\n" +
		"{% openapi-operation spec=\"pets\" path=\"/pets\" method=\"get\" %}\n[OpenAPI pets](https://e.example/p.json)\n{% endopenapi-operation %}\n"
	want := []Section{{Text: "Quick start\nFirst step.\nGo Launch Ctrl\nKept & shown"}}
	if diff := cmp.Diff(want, Sections(md)); diff != "" {
		t.Errorf("Sections (-want +got):\n%s", diff)
	}
}
