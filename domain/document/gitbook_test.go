package document

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

func TestParseLiquidTag(t *testing.T) {
	tests := []struct {
		in    string
		ok    bool
		name  string
		attrs map[string]string
	}{
		{`{% hint style="info" %}`, true, "hint", map[string]string{"style": "info"}},
		{`{%hint style='warning'%}`, true, "hint", map[string]string{"style": "warning"}},
		{`{%- tab title="A &amp; B" -%}`, true, "tab", map[string]string{"title": "A & B"}},
		{`{% code title="x.js" lineNumbers="true" %}`, true, "code", map[string]string{"title": "x.js", "linenumbers": "true"}},
		{`{% embed url=https://e.example/v?a=1 %}`, true, "embed", map[string]string{"url": "https://e.example/v?a=1"}},
		{`{% file src="a b.pdf" fullWidth %}`, true, "file", map[string]string{"src": "a b.pdf", "fullwidth": "true"}},
		{`{% tab title="50 %} off" %}`, true, "tab", map[string]string{"title": "50 %} off"}},
		{`{% ="x" %}`, false, "", nil},
		{`{% endhint %}`, true, "endhint", map[string]string{}},
		{`{% hint style="info %}`, false, "", nil},
		{`{% %}`, false, "", nil},
		{`{% hint`, false, "", nil},
		{`text {% hint %}`, false, "", nil},
		{`{% hint %} text`, false, "", nil},
		{`{% hint style= %}`, false, "", nil},
	}
	for _, tt := range tests {
		tag, ok := parseLiquidTag(tt.in)
		if ok != tt.ok {
			t.Errorf("parseLiquidTag(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if tag.name != tt.name {
			t.Errorf("parseLiquidTag(%q) name = %q, want %q", tt.in, tag.name, tt.name)
		}
		if diff := cmp.Diff(tt.attrs, tag.attrs); diff != "" {
			t.Errorf("parseLiquidTag(%q) attrs (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestEndTagName(t *testing.T) {
	tests := map[string]string{
		"{% endhint %}":     "hint",
		"  {%endtabs%}  \n": "tabs",
		"</details>":        "details",
		"</DETAILS>\n":      "details",
		"{% endhint x=1 %}": "",
		"{% hint %}":        "",
		"endhint":           "",
		"</details> more":   "",
	}
	for in, want := range tests {
		got, ok := endTagName([]byte(in))
		if (want != "") != ok || got != want {
			t.Errorf("endTagName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// outline renders a goldmark tree as an indented outline of kinds, with tag names.
func outline(n ast.Node, depth int, b *strings.Builder) {
	b.WriteString(strings.Repeat("  ", depth))
	switch n := n.(type) {
	case *tagBlock:
		b.WriteString("Tag(" + n.Name + ")")
	case *endMarker:
		b.WriteString("End(" + n.Name + ")")
	default:
		b.WriteString(n.Kind().String())
	}
	b.WriteString("\n")
	if n.Type() == ast.TypeInline {
		return
	}
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if ch.Type() == ast.TypeBlock {
			outline(ch, depth+1, b)
		}
	}
}

// TestGitBookBlockParsers checks the goldmark tree the extension builds: tags are container blocks
// holding ordinary markdown blocks.
func TestGitBookBlockParsers(t *testing.T) {
	tests := []struct {
		name, markdown, want string
	}{
		{
			name: "nested tabs",
			markdown: "{% tabs %}\n{% tab title=\"A\" %}\nOne\n\n{% tabs %}\n{% tab title=\"B\" %}\nTwo\n{% endtab %}\n{% endtabs %}\n\nThree\n{% endtab %}\n" +
				"{% tab title=\"C\" %}\nFour\n{% endtab %}\n{% endtabs %}\nAfter",
			want: `
Document
  Tag(tabs)
    Tag(tab)
      Paragraph
      Tag(tabs)
        Tag(tab)
          Paragraph
      Paragraph
    Tag(tab)
      Paragraph
  Paragraph
`,
		},
		{
			name:     "hint holding a list and code",
			markdown: "{% hint %}\n- a\n- b\n\n```\ncode\n```\n{% endhint %}",
			want: `
Document
  Tag(hint)
    List
      ListItem
        TextBlock
      ListItem
        TextBlock
    FencedCodeBlock
`,
		},
		{
			name:     "void tags and end markers",
			markdown: "{% embed url=\"u\" %}\nCaption\n{% endembed %}\n{% file src=\"f\" %}",
			want: `
Document
  Tag(embed)
  Paragraph
  End(endembed)
  Tag(file)
`,
		},
		{
			name:     "details and math",
			markdown: "<details>\n<summary>S</summary>\n\n$$\nx\n$$\n</details>",
			want: `
Document
  GitBookDetails
    GitBookSummary
    GitBookMathBlock
`,
		},
		{
			name:     "unterminated",
			markdown: "{% tabs %}\n{% tab %}\n{% hint %}\ntext",
			want: `
Document
  Tag(tabs)
    Tag(tab)
      Tag(hint)
        Paragraph
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := markdown.Parser().Parse(text.NewReader([]byte(tt.markdown)))
			var b strings.Builder
			outline(root, 0, &b)
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), b.String()); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitCaptionedTag(t *testing.T) {
	tests := []struct {
		in      string
		ok      bool
		src     string
		caption string
	}{
		{`{% file src="a.pdf" %}The report{% endfile %}`, true, "a.pdf", "The report"},
		{`{% file src="a.pdf" %}  spaced  {%endfile%}`, true, "a.pdf", "spaced"},
		{`{% file src="a.pdf" %}{% endfile %}`, true, "a.pdf", ""},
		{`{% file src="50 %} off.pdf" %}Sale{% endfile %}`, true, "50 %} off.pdf", "Sale"},
		{`{% file src="a.pdf" %}The report`, false, "", ""},
		{`{% file src="a.pdf" %}The report{% endembed %}`, false, "", ""},
		{`{% file src="a.pdf" %}The report{% endfile x=1 %}`, false, "", ""},
		{`{% embed url="a" %}The report{% endfile %}`, false, "", ""},
		{`text {% file src="a.pdf" %}The report{% endfile %}`, false, "", ""},
	}
	for _, tt := range tests {
		tag, from, to, ok := splitCaptionedTag(tt.in, "file", "endfile")
		if ok != tt.ok {
			t.Errorf("splitCaptionedTag(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if tag.attrs["src"] != tt.src || tt.in[from:to] != tt.caption {
			t.Errorf("splitCaptionedTag(%q) = src %q, caption %q; want %q, %q", tt.in, tag.attrs["src"], tt.in[from:to], tt.src, tt.caption)
		}
	}
}
