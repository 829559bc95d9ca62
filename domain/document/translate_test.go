package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// translationSample holds every kind of structure a translation must keep.
const translationSample = `---
title: Getting started
description: How to begin
---

# Install the *tool* {#install}

Read the [guide](https://example.com/guide "Guide") and run ` + "`make install`" + `, then
continue with the next step.
Visit https://bare.example.com too.

> Quoted **text**
> on two lines

- [x] first item
- second item with <code class="expression">page.title</code> inside
  and a lazy line

1. one
2. two

| Name | Value |
|:-----|------:|
| Ann  | *3*   |

{% hint style="warning" %}
Careful: **back up** first.
{% endhint %}

{% tabs %}
{% tab title="macOS" %}
Use Homebrew.
{% endtab %}
{% endtabs %}

<details>
<summary>More details</summary>
Hidden body text.
</details>

` + "```go\nfmt.Println(\"hello world\")\n```" + `

![A cat](.gitbook/assets/cat.png "Our cat")

{% file src=".gitbook/assets/report.pdf" %}

$$
x^2
$$

Line with hard break  
and after. Inline $$a+b$$ math.

{% content-ref url="other.md" %}
[other.md](other.md)
{% endcontent-ref %}

An annotated word[^note] and an emoji :tada: here.

[^note]: The note's own text.
`

func TestTextRunsOfferOnlyText(t *testing.T) {
	runs := TextRuns(translationSample)
	var got []string
	for _, r := range runs {
		got = append(got, r.Text)
	}
	joined := strings.Join(got, "|")
	for _, want := range []string{"Install the", "tool", "Read the", "guide", "continue with the next step.", "Quoted", "text", "on two lines", "first item", "Name", "Ann", "Careful:", "Use Homebrew.", "More details", "Hidden body text.", "An annotated word", "The note's own text."} {
		if !strings.Contains(joined, want) {
			t.Errorf("runs %q miss %q", joined, want)
		}
	}
	for _, never := range []string{"make install", "https://", "page.title", "fmt.Println", "A cat", "Our cat", "report.pdf", "x^2", "a+b", "title:", "Getting started", "other.md", "{#install}", "macOS", "[^note]", ":tada:", "tada"} {
		if strings.Contains(joined, never) {
			t.Errorf("runs %q offer %q", joined, never)
		}
	}
}

func TestReplaceTextRunsKeepsShape(t *testing.T) {
	runs := TextRuns(translationSample)
	texts := make([]string, len(runs))
	for i, r := range runs {
		// Text full of markdown syntax and line breaks must come back as text.
		texts[i] = "«" + strings.ToUpper(r.Text) + "» *not emphasis* [no link](x) | # 1. - <b>\n`tick`"
	}
	out := ReplaceTextRuns(translationSample, runs, texts)
	if !SameShape(translationSample, out) {
		a, _ := json.Marshal(Shape(FromMarkdown(translationSample, nil)))
		b, _ := json.Marshal(Shape(FromMarkdown(out, nil)))
		t.Fatalf("shape changed:\n%s\n%s\n\nmarkdown:\n%s", a, b, out)
	}
	for _, kept := range []string{"---\ntitle: Getting started\ndescription: How to begin\n---\n", "`make install`", "https://example.com/guide", "```go\nfmt.Println(\"hello world\")\n```", `<code class="expression">page.title</code>`, "{% file src=\".gitbook/assets/report.pdf\" %}", "$$\nx^2\n$$", "{#install}", `{% tab title="macOS" %}`} {
		if !strings.Contains(out, kept) {
			t.Errorf("translated markdown lost %q:\n%s", kept, out)
		}
	}
	if strings.Contains(out, "Read the") || !strings.Contains(out, "«READ THE»") {
		t.Errorf("text not replaced:\n%s", out)
	}
	// The document's text is the translation.
	doc, _ := json.Marshal(FromMarkdown(out, nil))
	if !strings.Contains(string(doc), `«USE HOMEBREW.» *not emphasis* [no link](x) | # 1. - \u003cb\u003e `+"`tick`") {
		t.Errorf("document text = %s", doc)
	}
}

func TestReplaceTextRunsKeepsCRLFAndEmpty(t *testing.T) {
	src := "Hello\r\n\r\n- item\r\n"
	runs := TextRuns(src)
	if len(runs) != 2 {
		t.Fatalf("runs = %+v", runs)
	}
	if out := ReplaceTextRuns(src, runs, []string{"Bonjour", ""}); out != "Bonjour\r\n\r\n- item\r\n" {
		t.Errorf("out = %q", out)
	}
}

func TestSameShapeSeesStructure(t *testing.T) {
	if SameShape("Hello **world**", "Hello world") {
		t.Error("a lost mark is a shape change")
	}
	if !SameShape("Hello **world**", "Bonjour **le monde**") {
		t.Error("other text, same shape")
	}
}

// GitBook's HTML offers its text to translators (cards, table cells, button labels, <kbd>) and
// gets the translation back HTML-escaped; icon tokens, code and attributes stay as written.
func TestTextRunsOfGitBookHTML(t *testing.T) {
	md := "<table data-view=\"cards\"><thead><tr><th></th><th data-hidden data-card-target data-type=\"content-ref\"></th></tr></thead><tbody><tr><td><strong>Quick start</strong></td><td><a href=\"start.md\">start.md</a></td></tr></tbody></table>\n\n" +
		"Press <kbd>Ctrl</kbd> or <a href=\"x.md\" class=\"button primary\" data-icon=\"rocket\">Launch</a> <i class=\"fa-github\">:github:</i>\n\n" +
		"<p align=\"center\">Centered <code>code()</code> text</p>\n\n" +
		"<div class=\"widget\"><iframe src=\"https://e.example\"></iframe><p>Widget caption</p></div>\n"
	runs := TextRuns(md)
	var got []string
	for _, r := range runs {
		got = append(got, r.Text)
	}
	joined := strings.Join(got, "|")
	for _, want := range []string{"Quick start", "Ctrl", "Launch", "Centered", "text", "Widget caption"} {
		if !strings.Contains(joined, want) {
			t.Errorf("runs %q miss %q", joined, want)
		}
	}
	for _, never := range []string{":github:", "code()", "rocket", "cards"} {
		if strings.Contains(joined, never) {
			t.Errorf("runs %q offer %q", joined, never)
		}
	}
	texts := make([]string, len(runs))
	for i, r := range runs {
		texts[i] = "«" + strings.ToUpper(r.Text) + "» <b> & \"q\""
	}
	out := ReplaceTextRuns(md, runs, texts)
	if !SameShape(md, out) {
		a, _ := json.Marshal(Shape(FromMarkdown(md, nil)))
		b, _ := json.Marshal(Shape(FromMarkdown(out, nil)))
		t.Fatalf("shape changed:\n%s\n%s\n\nmarkdown:\n%s", a, b, out)
	}
	for _, want := range []string{"<strong>«QUICK START» &lt;b&gt; &amp; &#34;q&#34;</strong>", `<i class="fa-github">:github:</i>`, "<code>code()</code>", `data-icon="rocket"`,
		`<iframe src="https://e.example"></iframe><p>«WIDGET CAPTION» &lt;b&gt;`} {
		if !strings.Contains(out, want) {
			t.Errorf("translated markdown lacks %s:\n%s", want, out)
		}
	}
}
