package reader

import (
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/microcosm-cc/bluemonday"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
)

// Rendering a page's document tree (docs/document-format.md) as HTML. Every text is escaped;
// every URL written comes from the graph's resolved links and files, or is an http(s)/mailto
// URL as written: a reference that resolves nowhere becomes plain text, never a broken page.

type node struct {
	Object    string         `json:"object"`
	Type      string         `json:"type"`
	Key       string         `json:"key"`
	Data      map[string]any `json:"data"`
	Nodes     []node         `json:"nodes"`
	Leaves    []leaf         `json:"leaves"`
	Fragments []fragment     `json:"fragments"`
}

type leaf struct {
	Text  string `json:"text"`
	Marks []struct {
		Type string         `json:"type"`
		Data map[string]any `json:"data"`
	} `json:"marks"`
}

type fragment struct {
	Fragment string `json:"fragment"`
	Nodes    []node `json:"nodes"`
}

// heading is an entry of the page's outline.
type heading struct {
	Level int
	ID    string
	Text  string
}

// docRenderer renders one document; links and files are the graph's answers for this page.
type docRenderer struct {
	b       strings.Builder
	links   map[string]*model.PublishedLink // by target as written
	files   map[string]*model.PublishedFile // by file id
	outline []heading
	anchors document.Anchors
	code    *chromahtml.Formatter
	style   *chroma.Style
	levels  *headingLevels
	// notes are the annotations' bodies, numbered in order, written after the document.
	notes    [][]node
	diagrams int
	math     int // math blocks and inline math written
}

var (
	codeFormatter = chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true))
	codeStyle     = styles.Get("github")
)

// renderedDocument is a document as the page shows it.
type renderedDocument struct {
	HTML    template.HTML
	Outline []heading
	// Diagrams: the document holds a diagram, which the page draws with the diagram library.
	Diagrams bool
	// Math: the document holds math, which the page typesets with the math library.
	Math bool
}

// renderDocument turns a document tree into HTML and the page's outline.
func renderDocument(doc json.RawMessage, links []*model.PublishedLink, files []*model.PublishedFile) (template.HTML, []heading) {
	out := render(doc, links, files)
	return out.HTML, out.Outline
}

// render turns a document tree into what the page shows.
func render(doc json.RawMessage, links []*model.PublishedLink, files []*model.PublishedFile) renderedDocument {
	var root node
	if len(doc) == 0 || json.Unmarshal(doc, &root) != nil {
		return renderedDocument{}
	}
	r := &docRenderer{links: map[string]*model.PublishedLink{}, files: map[string]*model.PublishedFile{}, anchors: document.Anchors{}, code: codeFormatter, style: codeStyle,
		levels: newHeadingLevels(root.Nodes)}
	// The graph names each reference's node too, but a reference is found by its target as
	// written: the same target always leads to the same place, and node keys depend on how the
	// document was built.
	for _, l := range links {
		r.links[l.Target] = l
	}
	for _, f := range files {
		r.files[f.ID] = f
	}
	r.blocks(root.Nodes)
	r.writeNotes()
	return renderedDocument{HTML: template.HTML(r.b.String()), Outline: r.outline, Diagrams: r.diagrams > 0, Math: r.math > 0}
}

func (r *docRenderer) w(s string)    { r.b.WriteString(s) }
func (r *docRenderer) text(s string) { r.b.WriteString(html.EscapeString(s)) }

func (r *docRenderer) blocks(nodes []node) {
	for _, n := range nodes {
		r.block(n)
	}
}

func str(data map[string]any, key string) string {
	s, _ := data[key].(string)
	return s
}

func (r *docRenderer) block(n node) {
	switch n.Type {
	case "paragraph":
		r.w("<p" + alignClass(n) + ">")
		r.inlines(n.Nodes)
		r.w("</p>\n")
	case "heading-1", "heading-2", "heading-3":
		r.heading(n)
	case "list-unordered":
		r.w("<ul>")
		r.blocks(n.Nodes)
		r.w("</ul>\n")
	case "list-ordered":
		if start, ok := n.Data["start"].(float64); ok && start != 1 {
			r.w(`<ol start="` + strconv.Itoa(int(start)) + `">`)
		} else {
			r.w("<ol>")
		}
		r.blocks(n.Nodes)
		r.w("</ol>\n")
	case "list-tasks":
		r.w(`<ul class="tasks">`)
		r.blocks(n.Nodes)
		r.w("</ul>\n")
	case "list-item":
		if checked, ok := n.Data["checked"].(bool); ok {
			box := `<input type="checkbox" disabled aria-label="not done">`
			if checked {
				box = `<input type="checkbox" checked disabled aria-label="done">`
			}
			r.w(`<li class="task">` + box)
		} else {
			r.w("<li>")
		}
		r.blocks(n.Nodes)
		r.w("</li>\n")
	case "blockquote":
		r.w("<blockquote>")
		r.blocks(n.Nodes)
		r.w("</blockquote>\n")
	case "divider":
		r.w("<hr>\n")
	case "code":
		r.codeBlock(n)
	case "images":
		r.w(`<div class="images">`)
		r.blocks(n.Nodes)
		r.w("</div>\n")
	case "image":
		r.image(n)
	case "table":
		r.table(n)
	case "math":
		// The formula's TeX, as code until the page's script typesets it (and when it cannot).
		r.math++
		r.w(`<div class="math" role="math"><code>`)
		r.text(str(n.Data, "formula"))
		r.w("</code></div>\n")
	case "hint":
		style := str(n.Data, "style")
		label := map[string]string{"info": "Info", "warning": "Warning", "danger": "Danger", "success": "Success"}[style]
		if label == "" {
			style, label = "info", "Info"
		}
		r.w(`<aside class="hint hint-` + style + `" role="note" aria-label="` + label + `"><span class="hint-icon" aria-hidden="true"></span><div>`)
		r.blocks(n.Nodes)
		r.w("</div></aside>\n")
	case "tabs":
		r.w(`<div class="tabs" data-tabs>`)
		for _, item := range n.Nodes {
			title := str(item.Data, "title")
			if title == "" {
				title = "Tab"
			}
			r.w(`<section class="tab-panel" data-title="` + html.EscapeString(title) + `"><p class="tab-title"><strong>`)
			r.text(title)
			r.w("</strong></p>")
			r.blocks(item.Nodes)
			r.w("</section>")
		}
		r.w("</div>\n")
	case "embed":
		u := safeURL(str(n.Data, "url"))
		if u == "" {
			r.text(str(n.Data, "url"))
			return
		}
		host := u
		if parsed, err := url.Parse(u); err == nil && parsed.Host != "" {
			host = parsed.Host
		}
		r.w(`<a class="card embed" href="` + html.EscapeString(u) + `" rel="noopener"><span class="card-title">`)
		r.text(host)
		r.w(`</span><span class="card-text">`)
		r.text(u)
		r.w("</span></a>\n")
	case "file":
		r.fileCard(n)
	case "drawing":
		r.image(n)
	case "stepper":
		r.w(`<ol class="stepper">`)
		for _, step := range n.Nodes {
			r.w(`<li class="step">`)
			r.blocks(step.Nodes)
			r.w("</li>")
		}
		r.w("</ol>\n")
	case "columns":
		r.w(`<div class="columns">`)
		for _, col := range n.Nodes {
			r.w(`<div class="column"` + widthStyle(col.Data["width"], "flex-basis") + ">")
			r.blocks(col.Nodes)
			r.w("</div>")
		}
		r.w("</div>\n")
	case "updates":
		r.w(`<div class="updates">`)
		for _, u := range n.Nodes {
			r.w(`<section class="update">`)
			if date := str(u.Data, "date"); date != "" {
				r.w(`<p class="update-date"><time datetime="` + html.EscapeString(date) + `">`)
				r.text(date)
				r.w("</time></p>")
			}
			r.blocks(u.Nodes)
			r.w("</section>")
		}
		r.w("</div>\n")
	case "if":
		// The graph keeps only the conditional blocks that hold for this visitor.
		r.blocks(n.Nodes)
	case "swagger", "openapi-operation", "openapi-schemas", "openapi-webhook":
		r.openAPICard(n)
	case "swagger-inline":
		r.swaggerInline(n)
	case "prompt":
		r.prompt(n)
	case "html":
		r.w(`<div class="html">` + sanitizeHTML(str(n.Data, "html")) + "</div>\n")
	case "content-ref":
		r.contentRef(n)
	case "reusable-content":
		r.reusableContent(n)
	case "expandable":
		r.w("<details class=\"expandable\"><summary>")
		for _, f := range n.Fragments {
			if f.Fragment == "expandable-title" {
				for _, p := range f.Nodes {
					r.inlines(p.Nodes)
				}
			}
		}
		r.w("</summary>")
		for _, f := range n.Fragments {
			if f.Fragment == "expandable-body" {
				r.blocks(f.Nodes)
			}
		}
		r.w("</details>\n")
	default:
		// A kind this reader does not know: its content, so nothing is lost.
		if len(n.Nodes) > 0 && n.Nodes[0].Object == "block" {
			r.blocks(n.Nodes)
		} else if len(n.Nodes) > 0 {
			r.w("<p>")
			r.inlines(n.Nodes)
			r.w("</p>\n")
		}
	}
}

// heading writes a document heading one level under the page title (h1), with the anchor the
// document names or the one its title gives it (document.Anchors, as search does).
func (r *docRenderer) heading(n node) {
	level := r.levels.next(n.Type)
	title := plainText(n.Nodes)
	id := r.anchors.Next(str(n.Data, "id"), title)
	r.outline = append(r.outline, heading{Level: level, ID: id, Text: title})
	tag := "h" + strconv.Itoa(level)
	r.w("<" + tag + ` id="` + html.EscapeString(id) + `"` + alignClass(n) + ">")
	r.inlines(n.Nodes)
	r.w(` <a class="anchor" href="#` + html.EscapeString(id) + `" aria-label="Link to this section">#</a></` + tag + ">\n")
}

func plainText(nodes []node) string {
	var b strings.Builder
	var walk func([]node)
	walk = func(nodes []node) {
		for _, n := range nodes {
			for _, l := range n.Leaves {
				b.WriteString(l.Text)
			}
			walk(n.Nodes)
		}
	}
	walk(nodes)
	return strings.TrimSpace(b.String())
}

func (r *docRenderer) codeBlock(n node) {
	lines := make([]string, 0, len(n.Nodes))
	for _, l := range n.Nodes {
		lines = append(lines, plainTextRaw(l.Nodes))
	}
	source := strings.Join(lines, "\n")
	syntax := str(n.Data, "syntax")
	if syntax == "mermaid" {
		r.diagram(source)
		return
	}
	r.w(`<figure class="code">`)
	if title := str(n.Data, "title"); title != "" {
		r.w("<figcaption>")
		r.text(title)
		r.w("</figcaption>")
	}
	numbers, _ := n.Data["lineNumbers"].(bool)
	class := "chroma"
	if numbers {
		class += " numbered"
	}
	if str(n.Data, "overflow") == "wrap" {
		class += " wrap"
	}
	r.w(`<pre class="` + class + `" tabindex="0"><code data-lang="` + html.EscapeString(syntax) + `">`)
	lexer := lexers.Get(syntax)
	if lexer == nil {
		lexer = lexers.Fallback
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, source)
	if err == nil {
		// One span per line, so CSS can number them: the tokens are split into lines first (a
		// token may hold a newline), each line formatted alone, without its newline.
		var b strings.Builder
		for i, line := range chroma.SplitTokensIntoLines(it.Tokens()) {
			if n := len(line); n > 0 {
				line[n-1].Value = strings.TrimSuffix(line[n-1].Value, "\n")
			}
			if i > 0 {
				b.WriteString("\n")
			}
			b.WriteString(`<span class="line">`)
			if err = r.code.Format(&b, r.style, chroma.Literator(line...)); err != nil {
				break
			}
			b.WriteString(`</span>`)
		}
		if err == nil {
			r.w(b.String() + "</code></pre></figure>\n")
			return
		}
	}
	r.text(source)
	r.w("</code></pre></figure>\n")
}

func plainTextRaw(nodes []node) string {
	var b strings.Builder
	for _, n := range nodes {
		for _, l := range n.Leaves {
			b.WriteString(l.Text)
		}
		b.WriteString(plainTextRaw(n.Nodes))
	}
	return b.String()
}

// refURL is where a node's reference leads: the graph's answer, else a file of the space, else an
// absolute http(s)/mailto URL as written; "" when nowhere (then the node renders as text).
func (r *docRenderer) refURL(n node) (string, *model.PublishedLink) {
	ref, _ := n.Data["ref"].(map[string]any)
	switch str(ref, "kind") {
	case "file":
		if f, ok := r.files[str(ref, "file")]; ok {
			return f.URL, &model.PublishedLink{Target: f.Name, Title: &f.Name}
		}
		return "", nil
	case "url":
		target := str(ref, "url")
		if l, ok := r.links[target]; ok {
			if l.URL == nil {
				return "", l
			}
			return safeURL(*l.URL), l
		}
		return safeURL(target), nil
	}
	if u := str(n.Data, "url"); u != "" {
		return safeURL(u), nil
	}
	return "", nil
}

// safeURL keeps absolute http, https and mailto URLs and the site's own (absolute) URLs.
func safeURL(u string) string {
	parsed, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return ""
	}
	switch strings.ToLower(parsed.Scheme) {
	case "http", "https", "mailto":
		return parsed.String()
	}
	if parsed.Scheme == "" && strings.HasPrefix(u, "#") {
		return u
	}
	return ""
}

func (r *docRenderer) image(n node) {
	src := ""
	ref, _ := n.Data["ref"].(map[string]any)
	var file *model.PublishedFile
	if str(ref, "kind") == "file" {
		if f, ok := r.files[str(ref, "file")]; ok {
			src, file = f.URL, f
		}
	}
	if src == "" {
		src, _ = r.refURL(n)
	}
	alt := str(n.Data, "alt")
	r.w("<figure class=\"image\">")
	if src == "" {
		r.w(`<span class="broken-image">`)
		r.text(alt)
		r.w("</span>")
	} else {
		dark := r.darkSource(n)
		if dark != "" {
			r.w(`<picture><source srcset="` + html.EscapeString(dark) + `" media="(prefers-color-scheme: dark)">`)
		}
		r.w(`<img src="` + html.EscapeString(src) + `" alt="` + html.EscapeString(alt) + `" loading="lazy"`)
		if file != nil && file.Width != nil && file.Height != nil {
			r.w(fmt.Sprintf(` width="%d" height="%d"`, *file.Width, *file.Height))
		}
		// A set width keeps the image's proportions: its file's height gives way.
		r.w(strings.Replace(widthStyle(n.Data["width"], "width"), `"width:`, `"height:auto;width:`, 1) + ">")
		if dark != "" {
			r.w("</picture>")
		}
	}
	for _, f := range n.Fragments {
		if f.Fragment == "caption" {
			r.w("<figcaption>")
			for _, p := range f.Nodes {
				r.inlines(p.Nodes)
			}
			r.w("</figcaption>")
		}
	}
	r.w("</figure>\n")
}

func (r *docRenderer) table(n node) {
	view, _ := n.Data["view"].(map[string]any)
	if str(view, "type") == "cards" {
		r.cards(n)
		return
	}
	def, _ := n.Data["definition"].(map[string]any)
	records, _ := n.Data["records"].(map[string]any)
	var columns []string
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			if s, ok := c.(string); ok {
				columns = append(columns, s)
			}
		}
	}
	fragments := map[string][]node{}
	for _, f := range n.Fragments {
		fragments[f.Fragment] = f.Nodes
	}
	type row struct {
		order  string
		values map[string]any
	}
	var rows []row
	for _, rec := range records {
		m, _ := rec.(map[string]any)
		values, _ := m["values"].(map[string]any)
		rows = append(rows, row{order: str(m, "orderIndex"), values: values})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].order < rows[j].order })
	align := func(col string) string {
		d, _ := def[col].(map[string]any)
		switch a := str(d, "textAlignment"); a {
		case "center", "right":
			return ` class="align-` + a + `"`
		}
		return ""
	}
	r.w(`<div class="table-wrap" tabindex="0"><table>`)
	if hide, _ := view["hideHeader"].(bool); !hide {
		r.w("<thead><tr>")
		for _, c := range columns {
			d, _ := def[c].(map[string]any)
			r.w(`<th scope="col"` + align(c) + ">")
			r.text(str(d, "title"))
			r.w("</th>")
		}
		r.w("</tr></thead>")
	}
	r.w("<tbody>")
	for _, rw := range rows {
		r.w("<tr>")
		for _, c := range columns {
			r.w("<td" + align(c) + ">")
			d, _ := def[c].(map[string]any)
			r.cell(rw.values[c], d, fragments)
			r.w("</td>")
		}
		r.w("</tr>")
	}
	r.w("</tbody></table></div>\n")
}

func (r *docRenderer) fileCard(n node) {
	u, _ := r.refURL(n)
	ref, _ := n.Data["ref"].(map[string]any)
	name := str(ref, "file")
	if f, ok := r.files[name]; ok {
		name = f.Name
	}
	if u == "" {
		r.w(`<p class="broken-link">`)
		r.text(name)
		r.w("</p>\n")
		return
	}
	r.w(`<a class="card file" href="` + html.EscapeString(u) + `" download><span class="card-title">`)
	r.text(name)
	r.w(`</span><span class="card-text">Download</span></a>` + "\n")
}

func (r *docRenderer) contentRef(n node) {
	u, l := r.refURL(n)
	title := ""
	if l != nil {
		title = l.Target
		if l.Title != nil {
			title = *l.Title
		}
	}
	if title == "" {
		ref, _ := n.Data["ref"].(map[string]any)
		title = str(ref, "url")
		if f, ok := r.files[str(ref, "file")]; ok {
			title = f.Name
		}
	}
	if u == "" && isIncludePath(title) {
		r.missingInclude(title)
		return
	}
	if u == "" {
		r.w(`<p class="card broken-link">`)
		r.text(title)
		r.w("</p>\n")
		return
	}
	r.w(`<a class="card content-ref" href="` + html.EscapeString(u) + `"><span class="card-title">`)
	r.text(title)
	r.w("</span>")
	if l != nil && l.Description != nil && *l.Description != "" {
		r.w(`<span class="card-text">`)
		r.text(*l.Description)
		r.w("</span>")
	}
	r.w("</a>\n")
}

func (r *docRenderer) inlines(nodes []node) {
	for _, n := range nodes {
		switch {
		case n.Object == "text":
			for _, l := range n.Leaves {
				r.leaf(l)
			}
		case n.Type == "link":
			u, _ := r.refURL(n)
			if u == "" {
				r.w(`<span class="broken-link">`)
				r.inlines(n.Nodes)
				r.w("</span>")
				continue
			}
			r.w(`<a href="` + html.EscapeString(u) + `">`)
			r.inlines(n.Nodes)
			r.w("</a>")
		case n.Type == "inline-image":
			u, _ := r.refURL(n)
			alt := str(n.Data, "alt")
			if u == "" {
				r.text(alt)
				continue
			}
			dark := r.darkSource(n)
			if dark != "" {
				r.w(`<picture><source srcset="` + html.EscapeString(dark) + `" media="(prefers-color-scheme: dark)">`)
			}
			r.w(`<img class="inline" src="` + html.EscapeString(u) + `" alt="` + html.EscapeString(alt) + `">`)
			if dark != "" {
				r.w("</picture>")
			}
		case n.Type == "inline-math":
			r.math++
			r.w(`<code class="math" role="math">`)
			r.text(str(n.Data, "formula"))
			r.w("</code>")
		case n.Type == "button":
			r.button(n)
		case n.Type == "icon":
			r.icon(str(n.Data, "icon"))
		case n.Type == "mention":
			u, _ := r.refURL(n)
			title := r.mentionTitle(n)
			if u == "" {
				r.w(`<span class="broken-link">`)
				r.text(title)
				r.w("</span>")
				continue
			}
			r.w(`<a class="mention" href="` + html.EscapeString(u) + `">`)
			r.text(title)
			r.w("</a>")
		case n.Type == "annotation":
			r.annotation(n)
		case n.Type == "emoji":
			r.emoji(str(n.Data, "code"))
		case n.Type == "expression":
			// Not evaluated (it failed): shown as written, with why.
			r.w(`<code class="expression" title="` + html.EscapeString(str(n.Data, "error")) + `">`)
			r.text(str(n.Data, "expression"))
			r.w("</code>")
		default:
			r.inlines(n.Nodes)
		}
	}
}

// button writes a button: a link to its target, or (a search or ask action, or no target) a
// label that does nothing here.
func (r *docRenderer) button(n node) {
	kind := "primary"
	if str(n.Data, "kind") == "secondary" {
		kind = "secondary"
	}
	u, _ := r.refURL(n)
	if u != "" {
		r.w(`<a class="button button-` + kind + `" href="` + html.EscapeString(u) + `">`)
	} else {
		r.w(`<span class="button button-` + kind + `">`)
	}
	if icon := str(n.Data, "icon"); icon != "" {
		r.icon(icon)
	}
	r.text(str(n.Data, "label"))
	if u != "" {
		r.w("</a>")
	} else {
		r.w("</span>")
	}
}

// icon writes an icon by its Font Awesome name: the reader's drawing for it, else a dot.
func (r *docRenderer) icon(name string) {
	if svg := iconSVG(name); svg != "" {
		r.w(`<span class="icon" role="img" aria-label="` + html.EscapeString(name) + `">` + string(svg) + "</span>")
		return
	}
	r.w(`<span class="icon icon-unknown" role="img" aria-label="` + html.EscapeString(name) + `"></span>`)
}

// markColors are the colour names a color mark may carry, as CSS class suffixes.
var markColors = map[string]string{
	"green": "green", "blue": "blue", "red": "red", "orange": "orange", "yellow": "yellow", "purple": "purple",
	"$primary": "primary", "$info": "info", "$success": "success", "$warning": "warning", "$danger": "danger",
}

func (r *docRenderer) leaf(l leaf) {
	var open, close []string
	for _, m := range l.Marks {
		if m.Type == "color" {
			var classes []string
			if c := markColors[str(m.Data, "text")]; c != "" {
				classes = append(classes, "text-"+c)
			}
			if c := markColors[str(m.Data, "background")]; c != "" {
				classes = append(classes, "bg-"+c)
			}
			open = append(open, `<mark class="`+strings.Join(classes, " ")+`">`)
			close = append([]string{"</mark>"}, close...)
			continue
		}
		tag := map[string]string{"bold": "strong", "italic": "em", "strikethrough": "s", "code": "code",
			"keyboard": "kbd", "superscript": "sup", "subscript": "sub"}[m.Type]
		if tag == "" {
			continue
		}
		open = append(open, "<"+tag+">")
		close = append([]string{"</" + tag + ">"}, close...)
	}
	r.w(strings.Join(open, ""))
	r.w(strings.ReplaceAll(html.EscapeString(l.Text), "\n", "<br>")) // hard line breaks
	r.w(strings.Join(close, ""))
}

// alignClass is the class of a paragraph's or heading's data.align.
func alignClass(n node) string {
	switch a := str(n.Data, "align"); a {
	case "center", "end":
		return ` class="align-` + a + `"`
	}
	return ""
}

// widthStyle writes a Length (pixels, or {"value","unit":"%"}) as a style property.
func widthStyle(v any, prop string) string {
	switch w := v.(type) {
	case float64:
		if w > 0 {
			return ` style="` + prop + `:` + strconv.FormatFloat(w, 'f', -1, 64) + `px"`
		}
	case map[string]any:
		if value, ok := w["value"].(float64); ok && value > 0 && value <= 100 && str(w, "unit") == "%" {
			return ` style="` + prop + `:` + strconv.FormatFloat(value, 'f', -1, 64) + `%"`
		}
	}
	return ""
}

// darkSource is where an image's dark-theme source (data.refDark) is, or "".
func (r *docRenderer) darkSource(n node) string {
	ref, ok := n.Data["refDark"].(map[string]any)
	if !ok {
		return ""
	}
	u, _ := r.refURL(node{Data: map[string]any{"ref": ref}})
	return u
}

// cell writes a table cell's value: a text cell's fragment, a link, an image, select labels.
func (r *docRenderer) cell(v any, def map[string]any, fragments map[string][]node) {
	switch v := v.(type) {
	case string:
		nodes, ok := fragments[v]
		if !ok {
			r.text(v)
			return
		}
		if len(nodes) == 1 && nodes[0].Type == "paragraph" {
			r.inlines(nodes[0].Nodes)
			return
		}
		r.blocks(nodes)
	case map[string]any: // a content-ref or image
		u, l := r.refURL(node{Data: map[string]any{"ref": v}})
		title := str(v, "url")
		if l != nil {
			title = l.Target
			if l.Title != nil {
				title = *l.Title
			}
		}
		if u == "" {
			r.text(title)
			return
		}
		if str(def, "type") == "image" {
			r.w(`<img class="inline" src="` + html.EscapeString(u) + `" alt="">`)
			return
		}
		r.w(`<a href="` + html.EscapeString(u) + `">`)
		r.text(title)
		r.w("</a>")
	case []any:
		labels := map[string]string{}
		options, _ := def["options"].([]any)
		for _, o := range options {
			m, _ := o.(map[string]any)
			labels[str(m, "value")] = str(m, "label")
		}
		for _, item := range v {
			s, _ := item.(string)
			if str(def, "type") == "files" {
				if f, ok := r.files[s]; ok {
					r.w(`<a href="` + html.EscapeString(f.URL) + `">`)
					r.text(f.Name)
					r.w("</a> ")
				}
				continue
			}
			if l := labels[s]; l != "" {
				s = l
			}
			r.w(`<span class="option">`)
			r.text(s)
			r.w("</span> ")
		}
	case bool:
		if v {
			r.w(`<input type="checkbox" checked disabled aria-label="yes">`)
		} else {
			r.w(`<input type="checkbox" disabled aria-label="no">`)
		}
	case nil:
	default:
		r.text(fmt.Sprint(v))
	}
}

// coverURL is where a card's cover image is: a file of the space, or an image URL.
func (r *docRenderer) coverURL(v any) string {
	switch v := v.(type) {
	case []any:
		for _, id := range v {
			if s, ok := id.(string); ok {
				if f, ok := r.files[s]; ok {
					return f.URL
				}
			}
		}
	case map[string]any:
		u, _ := r.refURL(node{Data: map[string]any{"ref": v}})
		return u
	}
	return ""
}

// cards writes a cards table: one card per record, its visible columns' content, its cover
// (light and dark) on top, the whole card a link to its target.
func (r *docRenderer) cards(n node) {
	view, _ := n.Data["view"].(map[string]any)
	def, _ := n.Data["definition"].(map[string]any)
	records, _ := n.Data["records"].(map[string]any)
	fragments := map[string][]node{}
	for _, f := range n.Fragments {
		fragments[f.Fragment] = f.Nodes
	}
	var columns []string
	if cols, ok := view["columns"].([]any); ok {
		for _, c := range cols {
			if s, ok := c.(string); ok {
				columns = append(columns, s)
			}
		}
	}
	type rec struct {
		order  string
		values map[string]any
	}
	var recs []rec
	for _, v := range records {
		m, _ := v.(map[string]any)
		values, _ := m["values"].(map[string]any)
		recs = append(recs, rec{str(m, "orderIndex"), values})
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].order < recs[j].order })
	size := "medium"
	if str(view, "cardSize") == "large" {
		size = "large"
	}
	r.w(`<div class="cards cards-` + size + `">`)
	for _, rc := range recs {
		target := ""
		if t := str(view, "targetDefinition"); t != "" {
			if ref, ok := rc.values[t].(map[string]any); ok {
				target, _ = r.refURL(node{Data: map[string]any{"ref": ref}})
			}
		}
		if target != "" {
			r.w(`<a class="card card-cover" href="` + html.EscapeString(target) + `">`)
		} else {
			r.w(`<div class="card card-cover">`)
		}
		cover := r.coverURL(rc.values[str(view, "coverDefinition")])
		dark := r.coverURL(rc.values[str(view, "coverDefinitionDark")])
		if cover != "" || dark != "" {
			if cover == "" {
				cover = dark
			}
			r.w(`<picture class="card-image">`)
			if dark != "" && dark != cover {
				r.w(`<source srcset="` + html.EscapeString(dark) + `" media="(prefers-color-scheme: dark)">`)
			}
			r.w(`<img src="` + html.EscapeString(cover) + `" alt="" loading="lazy"></picture>`)
		}
		r.w(`<div class="card-body">`)
		for _, c := range columns {
			d, _ := def[c].(map[string]any)
			if str(d, "type") == "content-ref" && target != "" {
				continue // the card itself is the link: no link inside a link
			}
			r.w(`<div class="card-field">`)
			if target != "" {
				r.cardText(rc.values[c], fragments)
			} else {
				r.cell(rc.values[c], d, fragments)
			}
			r.w("</div>")
		}
		r.w("</div>")
		if target != "" {
			r.w("</a>")
		} else {
			r.w("</div>")
		}
	}
	r.w("</div>\n")
}

// cardText writes a field of a card that is itself a link: its text and marks, no links.
func (r *docRenderer) cardText(v any, fragments map[string][]node) {
	name, _ := v.(string)
	for _, p := range fragments[name] {
		r.w("<p>")
		r.linklessInlines(p.Nodes)
		r.w("</p>")
	}
}

// linklessInlines writes inline nodes with links (and buttons, mentions) as their text.
func (r *docRenderer) linklessInlines(nodes []node) {
	for _, n := range nodes {
		switch {
		case n.Object == "text":
			for _, l := range n.Leaves {
				r.leaf(l)
			}
		case n.Type == "button":
			r.text(str(n.Data, "label"))
		case n.Type == "link":
			r.linklessInlines(n.Nodes)
		case n.Type == "mention":
			r.text(r.mentionTitle(n))
		default:
			r.inlines([]node{n})
		}
	}
}

// openAPICard shows an OpenAPI block: what its specification says, when the graph found it (the
// block's "openapi" fragment), else a card naming its operation and specification.
func (r *docRenderer) openAPICard(n node) {
	for _, f := range n.Fragments {
		if f.Fragment == "openapi" && len(f.Nodes) > 0 {
			r.w(`<section class="openapi openapi-resolved">`)
			r.blocks(f.Nodes)
			r.w("</section>\n")
			return
		}
	}
	ref, _ := n.Data["ref"].(map[string]any)
	spec := str(ref, "spec")
	if spec == "" {
		spec = str(ref, "url")
	}
	if f, ok := r.files[str(ref, "file")]; ok {
		spec = f.Name
	}
	title := strings.TrimSpace(strings.ToUpper(str(n.Data, "method")) + " " + str(n.Data, "path"))
	switch n.Type {
	case "openapi-schemas":
		var names []string
		if schemas, ok := n.Data["schemas"].([]any); ok {
			for _, s := range schemas {
				if name, ok := s.(string); ok {
					names = append(names, name)
				}
			}
		}
		title = "Schemas: " + strings.Join(names, ", ")
	case "openapi-webhook":
		title = "Webhook: " + str(n.Data, "name")
	}
	r.w(`<div class="card openapi"><span class="card-title"><code>`)
	r.text(title)
	r.w(`</code></span><span class="card-text">OpenAPI specification `)
	r.text(spec)
	r.w("</span></div>\n")
}

// mentionTitle is the title of the page or file a mention points at.
func (r *docRenderer) mentionTitle(n node) string {
	_, l := r.refURL(n)
	if l != nil && l.Title != nil && *l.Title != "" {
		return *l.Title
	}
	if l != nil && l.Target != "" {
		return l.Target
	}
	ref, _ := n.Data["ref"].(map[string]any)
	return str(ref, "url")
}

// htmlPolicy sanitizes the HTML that documents keep as html blocks: user-generated content's
// elements and attributes, without scripts, styles, event handlers or frames.
var htmlPolicy = bluemonday.UGCPolicy()

func sanitizeHTML(s string) string { return htmlPolicy.Sanitize(s) }
