package gitsync

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/document"
	"github.com/google/go-cmp/cmp"
)

// bodyGen makes random page bodies in GitBook's markdown out of every construct the document
// format reads (docs/document-format.md), nested in each other.
type bodyGen struct {
	rnd   *rand.Rand
	notes []string // footnote definitions the body's annotations need, written at its end
}

var genWords = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "<kbd>golf</kbd>", "hotel"}

func (g *bodyGen) word() string { return genWords[g.rnd.IntN(len(genWords))] }

// layout is a page's front matter layout, or none: every cover size GitBook writes, with or
// without a mask.
func (g *bodyGen) layout() *Layout {
	if g.rnd.IntN(3) == 0 {
		return nil
	}
	vis := func() *Visibility { return &Visibility{Visible: g.rnd.IntN(2) == 0} }
	cover := &Cover{Visible: g.rnd.IntN(2) == 0, Size: []string{"", "hero", "full", "background"}[g.rnd.IntN(4)]}
	if g.rnd.IntN(2) == 0 {
		cover.Mask = []string{"none", g.word()}[g.rnd.IntN(2)]
	}
	return &Layout{Width: []string{"default", "wide"}[g.rnd.IntN(2)], Cover: cover, Title: vis(), Description: vis(),
		TableOfContents: vis(), Outline: vis(), Pagination: vis(), Metadata: vis()}
}

// inline is a run of text with one inline construct.
func (g *bodyGen) inline() string {
	w := g.word()
	switch g.rnd.IntN(16) {
	case 0:
		return "**" + w + "**"
	case 1:
		return "_" + w + "_"
	case 2:
		return "~~" + w + "~~"
	case 3:
		return "`" + w + "`"
	case 4:
		return "[" + w + "](https://e.example/" + w + ")"
	case 5:
		return "![" + w + "](https://e.example/i.png)"
	case 6:
		return "$$x^" + fmt.Sprint(g.rnd.IntN(9)) + "$$"
	case 7:
		return `<code class="expression">space.vars.v` + fmt.Sprint(g.rnd.IntN(3)) + `</code>`
	case 8:
		return ":tada:"
	case 9:
		n := fmt.Sprintf("n%d", len(g.notes)+1)
		g.notes = append(g.notes, "[^"+n+"]: A note on "+w+".")
		return "word[^" + n + "]"
	case 10:
		return `<mark style="color:red;">` + w + `</mark>`
	case 11:
		return `<i class="fa-github">:github:</i>`
	case 12:
		return `[other.md](other.md "mention")`
	case 13:
		return `<a href="https://e.example/go" class="button primary">` + w + `</a>`
	case 14:
		return "H<sub>2</sub>O"
	}
	return w
}

func (g *bodyGen) paragraph() string {
	parts := []string{}
	for range 1 + g.rnd.IntN(4) {
		parts = append(parts, g.inline())
	}
	return strings.Join(parts, " ")
}

// block is one block; depth bounds how deep containers nest.
func (g *bodyGen) block(depth int) string {
	inner := func() string {
		if depth >= 2 {
			return g.paragraph()
		}
		return g.block(depth+1) + "\n\n" + g.paragraph()
	}
	w := g.word()
	switch g.rnd.IntN(29) {
	case 0:
		return "## " + w + " heading " + fmt.Sprint(g.rnd.IntN(99))
	case 1:
		return "### " + w + ` <a href="#id-` + w + `" id="id-` + w + `"></a>`
	case 2:
		return "* " + g.paragraph() + "\n* " + g.paragraph()
	case 3:
		return "1. " + g.paragraph() + "\n2. " + g.paragraph()
	case 4:
		return "- [x] " + w + "\n- [ ] " + g.word()
	case 5:
		return "> " + g.paragraph()
	case 6:
		return "***"
	case 7:
		return "```go\nfmt.Println(\"" + w + "\")\n```"
	case 8:
		return "{% code title=\"" + w + ".sh\" lineNumbers=\"true\" %}\n```bash\necho " + w + "\n```\n{% endcode %}"
	case 9:
		return "| A | B |\n| --- | --- |\n| " + w + " | " + g.inline() + " |"
	case 10:
		return "$$\nx + " + w + "\n$$"
	case 11:
		return "{% hint style=\"warning\" %}\n" + inner() + "\n{% endhint %}"
	case 12:
		return "{% tabs %}\n{% tab title=\"" + w + "\" %}\n" + inner() + "\n{% endtab %}\n\n{% tab title=\"Two\" %}\n" + g.paragraph() + "\n{% endtab %}\n{% endtabs %}"
	case 13:
		return "{% embed url=\"https://e.example/v/" + w + "\" %}"
	case 14:
		return "{% content-ref url=\"other.md\" %}\n[other.md](other.md)\n{% endcontent-ref %}"
	case 15:
		return "<details>\n\n<summary>" + w + "</summary>\n\n" + inner() + "\n\n</details>"
	case 16:
		return "{% stepper %}\n{% step %}\n" + inner() + "\n{% endstep %}\n{% endstepper %}"
	case 17:
		return "{% columns %}\n{% column width=\"50%\" %}\n" + inner() + "\n{% endcolumn %}\n\n{% column %}\n" + g.paragraph() + "\n{% endcolumn %}\n{% endcolumns %}"
	case 18:
		return "{% updates format=\"full\" %}\n{% update date=\"2026-01-0" + fmt.Sprint(1+g.rnd.IntN(9)) + "\" %}\n" + inner() + "\n{% endupdate %}\n{% endupdates %}"
	case 19:
		return "{% if visitor.claims.unsigned.plan == \"" + w + "\" %}\n" + inner() + "\n{% endif %}"
	case 20:
		return "{% include \"../.gitbook/includes/part-" + fmt.Sprint(g.rnd.IntN(3)) + ".md\" %}"
	case 21:
		return "{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-operation %}"
	case 22:
		return "{% swagger method=\"get\" path=\"/" + w + "\" summary=\"" + w + "\" %}\n{% swagger-description %}\n" + g.paragraph() +
			"\n{% endswagger-description %}\n\n{% swagger-parameter in=\"query\" name=\"q\" %}\n" + g.word() + "\n{% endswagger-parameter %}\n{% endswagger %}"
	case 23:
		return "```mermaid\ngraph TD; " + "A-->B\n```"
	case 24:
		return `<figure><img src="https://e.example/` + w + `.png" alt="` + w + `"><figcaption><p>` + w + `</p></figcaption></figure>`
	case 25:
		return `<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td><strong>` + w + `</strong></td></tr></tbody></table>`
	case 27:
		return "{% prompt description=\"" + w + "\" icon=\"wand-magic\" %}\n```markdown\nAsk about " + w + ".\n```\n{% endprompt %}"
	case 26:
		return `<div class="note"><iframe src="https://e.example/w"></iframe><b>` + w + `</b></div>`
	}
	return g.paragraph()
}

func (g *bodyGen) body() string {
	g.notes = nil
	var blocks []string
	for range 1 + g.rnd.IntN(6) {
		blocks = append(blocks, g.block(0))
	}
	blocks = append(blocks, g.notes...)
	return strings.Join(blocks, "\n\n") + "\n"
}

var nodeType = regexp.MustCompile(`"object":"(?:block|inline)","type":"([a-z0-9-]+)"`)

// treeJSON is a body's document tree, reusable content resolved from includes.
func treeJSON(t *testing.T, md string, includes map[string]string) string {
	t.Helper()
	doc, err := document.ConvertWith(md, nil, func(src string) (document.Include, bool) {
		text, ok := includes[document.IncludeKey(src)]
		return document.Include{ID: document.IncludeKey(src), Markdown: IncludeBody(text)}, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestExportImportKeepsEveryDocument: pages (and reusable contents) made of random mixes of every
// construct, written out as a Git Sync export writes them and read back as an import reads
// them, twice, keep their markdown byte for byte and so their document trees: export(import(x))
// is a fixed point.
func TestExportImportKeepsEveryDocument(t *testing.T) {
	seen := map[string]bool{}
	defer func() {
		// The generator reaches every node type it is meant to.
		for _, typ := range []string{"paragraph", "heading-2", "heading-3", "list-unordered", "list-ordered", "list-tasks", "list-item",
			"blockquote", "divider", "code", "code-line", "table", "math", "hint", "tabs", "tabs-item", "embed", "content-ref", "expandable",
			"stepper", "stepper-step", "prompt", "columns", "column", "updates", "update", "if", "reusable-content", "openapi-operation", "swagger-inline",
			"image", "html", "link", "inline-image", "inline-math", "expression", "emoji", "annotation", "icon", "mention", "button"} {
			if !seen[typ] && !t.Failed() {
				t.Errorf("no generated document holds a %s", typ)
			}
		}
	}()
	for seed := range uint64(300) {
		g := &bodyGen{rnd: rand.New(rand.NewPCG(seed, 61))}
		in := &Content{}
		for i := range 1 + g.rnd.IntN(4) {
			in.Pages = append(in.Pages, &Page{Kind: "document", Title: fmt.Sprintf("Page %d", i), Slug: fmt.Sprintf("page-%d", i), Markdown: g.body(),
				Front: FrontMatter{Description: g.word(), Layout: g.layout()}})
		}
		includes := map[string]string{}
		for i := range g.rnd.IntN(3) {
			text := fmt.Sprintf("---\ntitle: Part %d\n---\n\n", i) + g.body()
			in.Includes = append(in.Includes, &Include{Path: fmt.Sprintf("%s/part-%d.md", IncludesDir, i), Title: fmt.Sprintf("Part %d", i), Text: text})
			includes[fmt.Sprintf("part-%d.md", i)] = text
		}
		want := map[string]string{}
		for _, p := range in.Pages {
			want[p.Title] = treeJSON(t, p.Markdown, includes)
			for _, m := range nodeType.FindAllStringSubmatch(want[p.Title], -1) {
				seen[m[1]] = true
			}
		}
		current := in
		var firstFiles map[string][]byte
		for round := 1; round <= 2; round++ {
			back, files := exportImport(t, current)
			if round == 1 {
				firstFiles = files
			}
			if len(back.Pages) != len(in.Pages) || len(back.Includes) != len(in.Includes) {
				t.Fatalf("seed %d round %d: %d pages and %d includes back, want %d and %d", seed, round, len(back.Pages), len(back.Includes), len(in.Pages), len(in.Includes))
			}
			for i, p := range back.Pages {
				if p.Markdown != in.Pages[i].Markdown {
					t.Fatalf("seed %d round %d: %s changed:\n%s\nwant:\n%s\nfile:\n%s", seed, round, p.Title, p.Markdown, in.Pages[i].Markdown, files[p.Path])
				}
				if diff := cmp.Diff(in.Pages[i].Front, p.Front); diff != "" {
					t.Fatalf("seed %d round %d: %s front matter changed (-want +got):\n%s\nfile:\n%s", seed, round, p.Title, diff, files[p.Path])
				}
				if string(files[p.Path]) != string(firstFiles[p.Path]) {
					t.Fatalf("seed %d round %d: %s written as\n%s\nwant:\n%s", seed, round, p.Path, files[p.Path], firstFiles[p.Path])
				}
				if got := treeJSON(t, p.Markdown, includes); got != want[p.Title] {
					t.Fatalf("seed %d round %d: %s reads as another tree:\n%s\nwant:\n%s", seed, round, p.Title, got, want[p.Title])
				}
			}
			for i, inc := range back.Includes {
				if inc.Text != in.Includes[i].Text || inc.Path != in.Includes[i].Path || inc.Title != in.Includes[i].Title {
					t.Fatalf("seed %d round %d: include %s changed: %q %q", seed, round, inc.Path, inc.Title, inc.Text)
				}
			}
			current = back
		}
	}
}
