package reader

import (
	"html"
	"strconv"
	"strings"
)

// An annotation (GitBook's, a markdown footnote in its repositories) shows its word with a
// numbered reference to its note; the notes follow the document, each linking back. Without
// JavaScript or hover this is a footnote, as any reader knows one.

// annotation writes the annotated text and its reference, and keeps its note for writeNotes.
func (r *docRenderer) annotation(n node) {
	var body []node
	for _, f := range n.Fragments {
		if f.Fragment == "annotation-body" {
			body = f.Nodes
		}
	}
	r.notes = append(r.notes, body)
	num := strconv.Itoa(len(r.notes))
	r.w(`<span class="annotation">`)
	r.inlines(n.Nodes)
	r.w(`<sup class="annotation-ref"><a href="#fn-` + num + `" id="fnref-` + num + `" aria-describedby="notes-title">` + num + `</a></sup></span>`)
}

// writeNotes writes the notes of the annotations met so far; a note may annotate in turn, and
// its note joins the list.
func (r *docRenderer) writeNotes() {
	if len(r.notes) == 0 {
		return
	}
	r.w(`<section class="annotations"><h2 class="annotations-title" id="notes-title">Notes</h2><ol>`)
	for i := 0; i < len(r.notes); i++ {
		num := strconv.Itoa(i + 1)
		r.w(`<li id="fn-` + num + `">`)
		r.blocks(r.notes[i])
		r.w(`<a class="note-back" href="#fnref-` + num + `" aria-label="Back to the text">↩</a></li>`)
	}
	r.w("</ol></section>\n")
}

// emoji writes an emoji from its code (code points in hex joined by "-"); a code that is not
// one writes nothing.
func (r *docRenderer) emoji(code string) {
	var b strings.Builder
	for part := range strings.SplitSeq(code, "-") {
		cp, err := strconv.ParseUint(part, 16, 32)
		if err != nil || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp < 0x20 {
			return
		}
		b.WriteRune(rune(cp))
	}
	r.w(`<span class="emoji">` + html.EscapeString(b.String()) + `</span>`)
}

// diagram writes a mermaid diagram's source as code, marked for the page's script to draw: the
// source stays readable without JavaScript, and when the drawing fails.
func (r *docRenderer) diagram(source string) {
	r.diagrams++
	r.w(`<figure class="code diagram" data-diagram="mermaid"><pre class="chroma" tabindex="0"><code data-lang="mermaid">`)
	r.text(source)
	r.w("</code></pre></figure>\n")
}

// swaggerInline writes GitBook's legacy API block: its method, path and summary, then its
// description, parameters and responses.
func (r *docRenderer) swaggerInline(n node) {
	method := strings.ToUpper(str(n.Data, "method"))
	r.w(`<section class="openapi openapi-inline"><p class="openapi-title"><code>`)
	r.text(strings.TrimSpace(method + " " + str(n.Data, "path")))
	r.w("</code>")
	if summary := str(n.Data, "summary"); summary != "" {
		r.w(" ")
		r.text(summary)
	}
	r.w("</p>")
	r.blocks(n.Nodes)
	r.w("</section>\n")
}

// reusableContent writes the reusable content a page includes, in place: the graph gives the
// block its document as a fragment. One it could not read shows as missing.
func (r *docRenderer) reusableContent(n node) {
	for _, f := range n.Fragments {
		if f.Fragment == "reusable-content" {
			r.w(`<div class="reusable-content">`)
			r.blocks(f.Nodes)
			r.w("</div>\n")
			return
		}
	}
	r.missingInclude("")
}

// isIncludePath reports whether a reference is to a reusable content's file (an include tag
// that resolved to none).
func isIncludePath(target string) bool { return strings.Contains(target, ".gitbook/includes/") }

// missingInclude is the card an include that resolves to nothing shows, naming what it names.
func (r *docRenderer) missingInclude(target string) {
	r.w(`<p class="card broken-link reusable-content-missing"><span class="card-title">Reusable content not found</span>`)
	if target != "" {
		r.w(`<span class="card-text">`)
		r.text(target[strings.LastIndex(target, "/")+1:])
		r.w("</span>")
	}
	r.w("</p>\n")
}

// prompt writes GitBook's prompt block: an expandable titled by its icon and description, open
// unless the block says its prompt starts hidden.
func (r *docRenderer) prompt(n node) {
	open := " open"
	if str(n.Data, "defaultExpanded") == "hidden" {
		open = ""
	}
	r.w(`<details class="prompt"` + open + `><summary>`)
	if icon := str(n.Data, "icon"); icon != "" {
		r.icon(icon)
		r.w(" ")
	}
	if d := str(n.Data, "description"); d != "" {
		r.text(d)
	} else {
		r.w("Prompt")
	}
	r.w("</summary>")
	r.blocks(n.Nodes)
	r.w("</details>\n")
}
