package document

// This file converts the HTML that GitBook writes in its markdown into document nodes: cards and
// tables (<table>), images (<figure>, <picture>, <img>), aligned paragraphs and headings, <pre>
// code, lists, and inline buttons, icons, mentions, links, <kbd>, <mark> colours and the like.
// HTML that GitBook's format does not define becomes an "html" block that holds it as written
// (the reader shows it sanitized), or, inline, gives its text: markup is never shown as text.

import (
	"bytes"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parseHTML parses raw HTML as the content of a <body>. It fails only past the parser's bound on
// nesting.
func parseHTML(raw string) ([]*html.Node, error) {
	return html.ParseFragment(strings.NewReader(raw), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
}

func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func attrVal(n *html.Node, name string) string {
	v, _ := attr(n, name)
	return v
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(attrVal(n, "class")), class)
}

func children(n *html.Node) []*html.Node {
	var out []*html.Node
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		out = append(out, ch)
	}
	return out
}

// elements returns the element descendants of n named tag, in document order, not looking inside
// a match.
func elements(n *html.Node, tag atom.Atom) []*html.Node {
	var out []*html.Node
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		if ch.DataAtom == tag {
			out = append(out, ch)
			continue
		}
		out = append(out, elements(ch, tag)...)
	}
	return out
}

// htmlText is the text content of n.
func htmlText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		b.WriteString(htmlText(ch))
	}
	return b.String()
}

// htmlTextWithout is the text content of n outside its skip elements.
func htmlTextWithout(n *html.Node, skip atom.Atom) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.DataAtom != skip {
			b.WriteString(htmlTextWithout(ch, skip))
		}
	}
	return b.String()
}

func renderHTML(nodes ...*html.Node) string {
	var b strings.Builder
	for _, n := range nodes {
		_ = html.Render(&b, n)
	}
	return b.String()
}

// inlineElements are the elements that flow in text; anything else starts a block.
var inlineElements = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Br: true, atom.Button: true, atom.Cite: true,
	atom.Code: true, atom.Del: true, atom.Em: true, atom.Font: true, atom.I: true, atom.Img: true,
	atom.Ins: true, atom.Kbd: true, atom.Label: true, atom.Mark: true, atom.Picture: true, atom.Q: true,
	atom.S: true, atom.Samp: true, atom.Small: true, atom.Span: true, atom.Strike: true,
	atom.Strong: true, atom.Sub: true, atom.Sup: true, atom.U: true, atom.Var: true, atom.Time: true,
	atom.Select: true,
}

// htmlBlocks converts HTML nodes into blocks: runs of text and inline elements become paragraphs.
func (c *converter) htmlBlocks(nodes []*html.Node) []Node {
	var out []Node
	var run []*html.Node
	flush := func() {
		switch {
		case onlySpace(run):
		case loneImage(run) != nil: // an image alone is a block image (or GitBook's drawing)
			out = append(out, c.htmlElement(loneImage(run))...)
		default:
			out = append(out, c.htmlParagraph(run, nil))
		}
		run = nil
	}
	for _, n := range nodes {
		if c.over {
			break
		}
		switch {
		case n.Type == html.TextNode, n.Type == html.ElementNode && inlineElements[n.DataAtom]:
			run = append(run, n)
		case n.Type == html.ElementNode:
			flush()
			out = append(out, c.htmlElement(n)...)
		}
	}
	flush()
	return out
}

// loneImage returns the one <img> or <picture> among nodes that hold nothing else but white space.
func loneImage(nodes []*html.Node) *html.Node {
	var img *html.Node
	for _, n := range nodes {
		switch {
		case n.Type == html.TextNode && strings.TrimSpace(n.Data) == "":
		case n.Type == html.ElementNode && (n.DataAtom == atom.Img || n.DataAtom == atom.Picture) && img == nil:
			img = n
		default:
			return nil
		}
	}
	return img
}

// onlySpace reports whether nodes hold nothing but white space text.
func onlySpace(nodes []*html.Node) bool {
	for _, n := range nodes {
		if n.Type != html.TextNode || strings.TrimSpace(n.Data) != "" {
			return false
		}
	}
	return true
}

// htmlElement converts one block-level HTML element.
func (c *converter) htmlElement(n *html.Node) []Node {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxDepth {
		return nil
	}
	switch n.DataAtom {
	case atom.P:
		return []Node{c.htmlParagraph(children(n), alignData(n))}
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return []Node{c.htmlHeading(n)}
	case atom.Figure, atom.Picture, atom.Img:
		parts, ok := findImage(n)
		if !ok {
			break
		}
		// GitBook keeps a drawing as an SVG file shown by <img class="gitbook-drawing">.
		if id, ok := c.resolve(attrVal(parts.img, "src")); ok && hasClass(parts.img, "gitbook-drawing") {
			return []Node{c.voidBlock("drawing", map[string]any{"ref": map[string]any{"kind": "file", "file": id}})}
		}
		{
			b := c.block("images", nil)
			b.Nodes = []Node{c.htmlImage(parts)}
			return []Node{b}
		}
	case atom.Table:
		if attrVal(n, "data-view") == "cards" {
			return []Node{c.htmlTable(n, true)}
		}
		return []Node{c.htmlTable(n, false)}
	case atom.Pre:
		return []Node{c.htmlCode(n)}
	case atom.Ul, atom.Ol:
		return []Node{c.htmlList(n)}
	case atom.Blockquote:
		b := c.block("blockquote", nil)
		if b.Nodes = c.htmlBlocks(children(n)); len(b.Nodes) == 0 {
			b.Nodes = []Node{c.emptyParagraph()}
		}
		return []Node{b}
	case atom.Hr:
		return []Node{c.voidBlock("divider", nil)}
	case atom.Div, atom.Center, atom.Section, atom.Article, atom.Main, atom.Header, atom.Footer:
		// A layout wrapper of elements the format knows: its content; else kept as HTML.
		if known(n) {
			return c.htmlBlocks(children(n))
		}
	}
	return []Node{c.voidBlock("html", map[string]any{"html": renderHTML(n)})}
}

// known reports whether every element inside n converts to document nodes (no element kept as
// HTML), so that a wrapper around them can fall away.
func known(n *html.Node) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		switch ch.DataAtom {
		case atom.P, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Figure, atom.Table,
			atom.Pre, atom.Ul, atom.Ol, atom.Blockquote, atom.Hr:
			continue
		case atom.Div, atom.Center, atom.Section, atom.Article, atom.Main, atom.Header, atom.Footer:
			if known(ch) {
				continue
			}
			return false
		}
		if !inlineElements[ch.DataAtom] {
			return false
		}
	}
	return true
}

// alignData is a paragraph's or heading's data.align from GitBook's align attribute.
func alignData(n *html.Node) map[string]any {
	data := map[string]any{}
	switch strings.ToLower(attrVal(n, "align")) {
	case "center":
		data["align"] = "center"
	case "right", "end":
		data["align"] = "end"
	case "left", "start":
		data["align"] = "start"
	}
	return data
}

// htmlParagraph makes a paragraph of inline HTML.
func (c *converter) htmlParagraph(nodes []*html.Node, data map[string]any) Node {
	p := c.block("paragraph", data)
	p.Nodes = c.htmlInlineNodes(nodes)
	return p
}

// htmlInlineNodes converts inline HTML, its white space collapsed as a browser would.
func (c *converter) htmlInlineNodes(nodes []*html.Node) []Node {
	ib := &inlineBuilder{c: c}
	for _, n := range nodes {
		c.htmlInline(ib, n, nil)
	}
	ib.trimTrailingSpace()
	out := ib.result()
	if t := &out[0]; t.Object == ObjectText {
		t.Leaves[0].Text = strings.TrimLeft(t.Leaves[0].Text, " ")
		if t.Leaves[0].Text == "" && len(t.Leaves) > 1 {
			t.Leaves = t.Leaves[1:]
		}
	}
	return out
}

// collapseSpace folds runs of HTML white space into one space.
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}

// htmlHeading converts <h1>…<h6>: levels past 3 become heading-3; an empty <a id="x"> inside (or
// the element's own id) is its anchor.
func (c *converter) htmlHeading(n *html.Node) Node {
	level := min(int(n.Data[1]-'0'), 3)
	data := alignData(n)
	if id := attrVal(n, "id"); validAnchor(id) {
		data["id"] = id
	}
	var content []*html.Node
	for _, ch := range children(n) {
		if ch.DataAtom == atom.A && strings.TrimSpace(htmlText(ch)) == "" && validAnchor(attrVal(ch, "id")) {
			data["id"] = attrVal(ch, "id")
			continue
		}
		content = append(content, ch)
	}
	b := c.block("heading-"+string(rune('0'+level)), data)
	b.Nodes = c.htmlInlineNodes(content)
	return b
}

// imageParts are the elements of an HTML image: the <img>, a <picture>'s dark-theme
// <source media="(prefers-color-scheme: dark)">, and a <figure>'s <figcaption>.
type imageParts struct{ img, dark, caption *html.Node }

// findImage finds the parts of the image in <figure>, <picture> or <img>; ok=false without an
// <img src>.
func findImage(n *html.Node) (imageParts, bool) {
	var p imageParts
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.DataAtom {
		case atom.Img:
			if p.img == nil {
				p.img = n
			}
			return
		case atom.Source:
			if p.dark == nil && strings.Contains(attrVal(n, "media"), "dark") {
				p.dark = n
			}
			return
		case atom.Figcaption:
			p.caption = n
			return
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(n)
	return p, p.img != nil && attrVal(p.img, "src") != ""
}

// htmlImage converts an HTML image into an image block: its source, dark-theme source, alt text,
// width and caption.
func (c *converter) htmlImage(p imageParts) Node {
	data := c.imageData(p.img, p.dark)
	if w, ok := lengthData(attrVal(p.img, "width")); ok {
		data["width"] = w
	}
	b := c.voidBlock("image", data)
	b.Fragments = []Fragment{}
	if p.caption != nil && strings.TrimSpace(htmlText(p.caption)) != "" {
		key := c.key()
		para := c.block("paragraph", nil)
		inner := children(p.caption)
		if ps := elements(p.caption, atom.P); len(ps) == 1 {
			inner = children(ps[0])
		}
		para.Nodes = c.htmlInlineNodes(inner)
		b.Fragments = []Fragment{{Key: key, Fragment: "caption", Nodes: []Node{para}}}
	}
	return b
}

// imageData is the ref, refDark and alt of an <img> (and its <picture>'s dark <source>).
func (c *converter) imageData(img, dark *html.Node) map[string]any {
	data := map[string]any{"ref": c.ref(attrVal(img, "src"))}
	if dark != nil {
		if src := firstSrc(attrVal(dark, "srcset")); src != "" {
			data["refDark"] = c.ref(src)
		}
	}
	if alt := attrVal(img, "alt"); alt != "" {
		data["alt"] = alt
	}
	return data
}

// firstSrc is the first URL of a srcset ("a.png 1x, b.png 2x" → "a.png").
func firstSrc(srcset string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(srcset), ",")
	url, _, _ := strings.Cut(strings.TrimSpace(first), " ")
	return url
}

// htmlCode converts <pre>, with an optional <code class="lang-x">, into a code block.
func (c *converter) htmlCode(n *html.Node) Node {
	syntax := "text"
	for _, el := range append([]*html.Node{n}, elements(n, atom.Code)...) {
		for _, class := range strings.Fields(attrVal(el, "class")) {
			for _, prefix := range []string{"lang-", "language-"} {
				if lang, ok := strings.CutPrefix(class, prefix); ok && lang != "" {
					syntax = lang
				}
			}
		}
	}
	b := c.block("code", map[string]any{"syntax": syntax})
	for line := range strings.SplitSeq(strings.TrimSuffix(htmlText(n), "\n"), "\n") {
		cl := c.block("code-line", nil)
		cl.Nodes = []Node{textNode(line)}
		b.Nodes = append(b.Nodes, cl)
	}
	return b
}

// htmlList converts <ul> and <ol>.
func (c *converter) htmlList(n *html.Node) Node {
	var b Node
	if n.DataAtom == atom.Ol {
		b = c.block("list-ordered", nil)
	} else {
		b = c.block("list-unordered", nil)
	}
	for _, li := range children(n) {
		if li.DataAtom != atom.Li {
			continue
		}
		item := c.block("list-item", nil)
		if item.Nodes = c.htmlBlocks(children(li)); len(item.Nodes) == 0 {
			item.Nodes = []Node{c.emptyParagraph()}
		}
		b.Nodes = append(b.Nodes, item)
	}
	if len(b.Nodes) == 0 {
		item := c.block("list-item", nil)
		item.Nodes = []Node{c.emptyParagraph()}
		b.Nodes = []Node{item}
	}
	return b
}

// htmlTable converts an HTML <table> into a table block: a grid, or GitBook's cards
// (<table data-view="cards">). Header cells define the columns: data-hidden leaves a column out
// of the view, data-card-target, data-card-cover and data-card-cover-dark name the cards' link
// and cover images, and data-type sets the column's type (text, content-ref, files, image,
// select, number, checkbox). Text cells hold blocks, in fragments as for markdown tables.
func (c *converter) htmlTable(t *html.Node, cards bool) Node {
	b := c.voidBlock("table", nil)
	var head []*html.Node
	var rows [][]*html.Node
	for _, tr := range elements(t, atom.Tr) {
		var cells []*html.Node
		header := true
		for _, cell := range children(tr) {
			if cell.DataAtom == atom.Td || cell.DataAtom == atom.Th {
				cells = append(cells, cell)
				header = header && cell.DataAtom == atom.Th
			}
		}
		if head == nil && header && len(cells) > 0 && len(rows) == 0 {
			head = cells
			continue
		}
		rows = append(rows, cells)
	}
	width := len(head)
	for _, r := range rows {
		width = max(width, len(r))
	}
	view := map[string]any{"type": "grid"}
	if cards {
		view = map[string]any{"type": "cards", "cardSize": "medium"}
		if attrVal(t, "data-card-size") == "large" {
			view["cardSize"] = "large"
		}
	}
	columns := []any{}
	ids := make([]string, width)
	types := make([]string, width)
	definition := map[string]any{}
	for i := range width {
		id := c.key()
		ids[i] = id
		var th *html.Node
		if i < len(head) {
			th = head[i]
		}
		typ, title := "text", ""
		if th != nil {
			title = strings.TrimSpace(collapseSpace(htmlTextWithout(th, atom.Select)))
			switch v := attrVal(th, "data-type"); v {
			case "content-ref", "files", "image", "select", "number", "checkbox", "rating", "users":
				typ = v
			}
			if len(elements(th, atom.Select)) > 0 { // GitBook lists a select column's options in its header
				typ = "select"
			}
			for _, role := range []struct{ attr, field, typ string }{
				{"data-card-target", "targetDefinition", "content-ref"},
				{"data-card-cover", "coverDefinition", "files"},
				{"data-card-cover-dark", "coverDefinitionDark", "files"},
			} {
				if _, ok := attr(th, role.attr); ok && cards {
					view[role.field] = id
					if typ == "text" {
						typ = role.typ
					}
				}
			}
		}
		types[i] = typ
		def := map[string]any{"id": id, "title": title, "type": typ}
		if typ == "text" {
			def["textAlignment"] = "left"
			if th != nil {
				switch a := strings.ToLower(attrVal(th, "align")); a {
				case "center", "right":
					def["textAlignment"] = a
				}
			}
		}
		if typ == "select" {
			def["multiple"], def["options"] = selectOptions(th, rows, i)
		}
		definition[id] = def
		if _, hidden := attr(thOrNil(head, i), "data-hidden"); !hidden {
			columns = append(columns, id)
		}
	}
	view["columns"] = columns
	if !cards {
		_, hide := attr(t, "data-header-hidden")
		view["hideHeader"] = hide || head == nil
	}
	records := map[string]any{}
	fragments := []Fragment{}
	for row, cells := range rows {
		if c.over {
			break
		}
		recordID := c.key()
		values := map[string]any{}
		for i, cell := range cells {
			if v, ok := c.cellValue(cell, types[i], &fragments); ok {
				values[ids[i]] = v
			}
		}
		records[recordID] = map[string]any{"orderIndex": orderIndex(row), "values": values}
	}
	b.Data = map[string]any{"view": view, "records": records, "definition": definition}
	b.Fragments = fragments
	return b
}

// thOrNil returns head[i], or an empty element when the header has no such cell.
func thOrNil(head []*html.Node, i int) *html.Node {
	if i < len(head) {
		return head[i]
	}
	return &html.Node{Type: html.ElementNode}
}

// cellValue is a table record's value for a cell of a column of type typ: text cells' content
// goes in a fragment (appended to fragments) named by the value.
func (c *converter) cellValue(cell *html.Node, typ string, fragments *[]Fragment) (any, bool) {
	links := elements(cell, atom.A)
	href := ""
	if len(links) > 0 {
		href = attrVal(links[0], "href")
	}
	switch typ {
	case "content-ref", "image":
		if href == "" {
			return nil, false
		}
		return c.ref(href), true
	case "files":
		var ids []any
		for _, a := range links {
			if id, ok := c.resolve(attrVal(a, "href")); ok {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			return ids, true
		}
		if href == "" {
			return nil, false
		}
		return urlRef(href), true // a cover the space does not hold: by its URL
	case "select":
		// GitBook writes a cell's choices as <span data-option="value">Label</span>.
		values := []any{}
		for _, span := range elements(cell, atom.Span) {
			if v, ok := attr(span, "data-option"); ok {
				values = append(values, v)
			}
		}
		for _, o := range elements(cell, atom.Option) {
			if _, selected := attr(o, "selected"); selected || len(elements(cell, atom.Option)) == 1 {
				values = append(values, optionValue(o))
			}
		}
		return values, true
	case "number":
		s := strings.TrimSpace(htmlText(cell))
		if s == "" {
			return nil, false
		}
		return s, true
	case "checkbox":
		_, checked := attr(cell, "data-checked")
		return checked || strings.TrimSpace(htmlText(cell)) == "true", true
	}
	name := c.key()
	nodes := c.htmlBlocks(children(cell))
	if len(nodes) == 0 {
		nodes = []Node{c.emptyParagraph()}
	}
	*fragments = append(*fragments, Fragment{Key: name, Fragment: name, Nodes: nodes})
	return name, true
}

func optionValue(o *html.Node) string {
	if v, ok := attr(o, "value"); ok {
		return v
	}
	return strings.TrimSpace(htmlText(o))
}

// selectOptions gathers the options of a select column: the <option value label color>s of
// its header's <select> (GitBook's form), then those of its cells' <select>s.
func selectOptions(th *html.Node, rows [][]*html.Node, col int) (bool, []any) {
	multiple := false
	seen := map[string]bool{}
	options := []any{}
	add := func(n *html.Node) {
		for _, sel := range elements(n, atom.Select) {
			_, m := attr(sel, "multiple")
			multiple = multiple || m
		}
		for _, o := range elements(n, atom.Option) {
			v := optionValue(o)
			if seen[v] {
				continue
			}
			seen[v] = true
			label, ok := attr(o, "label")
			if !ok {
				label = strings.TrimSpace(htmlText(o))
			}
			options = append(options, map[string]any{"value": v, "label": label, "color": attrVal(o, "color")})
		}
	}
	if th != nil {
		add(th)
	}
	for _, cells := range rows {
		if col < len(cells) {
			add(cells[col])
		}
	}
	return multiple, options
}

// htmlInline converts one inline HTML node into ib.
func (c *converter) htmlInline(ib *inlineBuilder, n *html.Node, marks []Mark) {
	switch n.Type {
	case html.TextNode:
		ib.text(collapseSpace(n.Data), marks)
		return
	case html.ElementNode:
	default:
		return
	}
	each := func(marks []Mark) {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			c.htmlInline(ib, ch, marks)
		}
	}
	switch n.DataAtom {
	case atom.Br:
		ib.text("\n", marks)
	case atom.Strong, atom.B:
		each(withMark(marks, "bold"))
	case atom.Em, atom.Cite, atom.Var:
		each(withMark(marks, "italic"))
	case atom.I:
		if icon, ok := iconName(n); ok {
			ib.inline(c.inlineNode("icon", map[string]any{"icon": icon}))
			return
		}
		each(withMark(marks, "italic"))
	case atom.Code, atom.Samp:
		ib.text(collapseSpace(htmlText(n)), withMark(marks, "code"))
	case atom.S, atom.Del, atom.Strike:
		each(withMark(marks, "strikethrough"))
	case atom.Kbd:
		each(withMark(marks, "keyboard"))
	case atom.Sup:
		each(withMark(marks, "superscript"))
	case atom.Sub:
		each(withMark(marks, "subscript"))
	case atom.Mark:
		each(withColor(marks, attrVal(n, "style")))
	case atom.Img, atom.Picture:
		p, ok := findImage(n)
		if !ok {
			return
		}
		data := c.imageData(p.img, p.dark)
		if size := attrVal(p.img, "data-size"); size == "line" || size == "original" {
			data["size"] = size
		}
		ib.inline(c.inlineNode("inline-image", data))
	case atom.A, atom.Button:
		c.htmlAnchor(ib, n, marks)
	case atom.Select:
		var labels []string
		for _, o := range elements(n, atom.Option) {
			labels = append(labels, strings.TrimSpace(htmlText(o)))
		}
		ib.text(strings.Join(labels, ", "), marks)
	case atom.Script, atom.Style, atom.Template, atom.Iframe, atom.Object, atom.Embed, atom.Input, atom.Textarea:
		// no text of its own to show
	default:
		each(marks)
	}
}

// htmlAnchor converts <a> (a link, a button, a mention) and <button>.
func (c *converter) htmlAnchor(ib *inlineBuilder, n *html.Node, marks []Mark) {
	href := attrVal(n, "href")
	label := strings.TrimSpace(collapseSpace(htmlText(n)))
	if hasClass(n, "button") || n.DataAtom == atom.Button {
		ib.inline(c.button(href, label, attrVal(n, "class"), attrVal(n, "data-icon"), attrVal(n, "data-action")))
		return
	}
	if _, ok := attr(n, "data-mention"); ok && href != "" {
		ib.inline(c.inlineNode("mention", map[string]any{"ref": c.ref(href)}))
		return
	}
	if href == "" {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			c.htmlInline(ib, ch, marks)
		}
		return
	}
	link := c.inlineNode("link", map[string]any{"ref": c.ref(href)})
	link.IsVoid = false
	inner := &inlineBuilder{c: c}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.htmlInline(inner, ch, marks)
	}
	link.Nodes = inner.result()
	ib.inline(link)
}

// inlineNode makes a void inline node.
func (c *converter) inlineNode(typ string, data map[string]any) Node {
	return Node{Object: ObjectInline, Type: typ, Key: c.key(), IsVoid: true, Data: data}
}

// button makes GitBook's button: kind "primary" unless its class says "secondary", an optional
// icon, and a target (href) or an action ("search", "ask").
func (c *converter) button(href, label, class, icon, action string) Node {
	kind := "primary"
	if slices.Contains(strings.Fields(class), "secondary") {
		kind = "secondary"
	}
	data := map[string]any{"label": label, "kind": kind}
	if icon != "" {
		data["icon"] = icon
	}
	if href != "" {
		data["ref"] = c.ref(href)
	}
	if action == "search" || action == "ask" {
		data["action"] = action
	}
	return c.inlineNode("button", data)
}

// iconName reads GitBook's icon element, <i class="fa-rocket">:rocket:</i>: the fa- class names
// the icon (style classes such as fa-solid aside).
func iconName(n *html.Node) (string, bool) {
	for _, class := range strings.Fields(attrVal(n, "class")) {
		name, ok := strings.CutPrefix(class, "fa-")
		if !ok || name == "" {
			continue
		}
		switch name {
		case "solid", "regular", "light", "thin", "duotone", "brands", "sharp", "fw", "lg", "xs", "sm", "xl", "2x", "3x":
			continue
		}
		return name, true
	}
	return "", false
}

// textColors are the contract's text and background colours.
var textColors = map[string]bool{
	"default": true, "green": true, "blue": true, "red": true, "orange": true, "yellow": true,
	"purple": true, "$primary": true, "$info": true, "$success": true, "$warning": true, "$danger": true,
}

// withColor adds the color mark of a <mark style="color:red;background-color:yellow;">: a colour
// the contract does not name is "default".
func withColor(marks []Mark, style string) []Mark {
	data := map[string]any{"text": "default", "background": "default"}
	for decl := range strings.SplitSeq(style, ";") {
		prop, value, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		value = strings.ToLower(strings.TrimSpace(value))
		if !textColors[value] {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(prop)) {
		case "color":
			data["text"] = value
		case "background-color", "background":
			data["background"] = value
		}
	}
	for _, m := range marks {
		if m.Type == "color" {
			return marks
		}
	}
	out := make([]Mark, len(marks), len(marks)+1)
	copy(out, marks)
	return append(out, Mark{Type: "color", Data: data})
}

// ---------------------------------------------------------------------------------------------
// Inline HTML in markdown text

// inlineTag is one tag of inline raw HTML in markdown: goldmark gives a start tag, the markdown
// inside and the end tag as siblings.
type inlineTag struct {
	name        string
	end         bool
	selfClosing bool
}

// readInlineTag reads the one start or end tag raw holds; ok=false for a comment or anything else.
func readInlineTag(raw string) (inlineTag, bool) {
	z := html.NewTokenizer(strings.NewReader(raw))
	switch z.Next() {
	case html.StartTagToken:
		name, _ := z.TagName()
		return inlineTag{name: string(name)}, true
	case html.SelfClosingTagToken:
		name, _ := z.TagName()
		return inlineTag{name: string(name), selfClosing: true}, true
	case html.EndTagToken:
		name, _ := z.TagName()
		return inlineTag{name: string(name), end: true}, true
	}
	return inlineTag{}, false
}

// markOf is the mark an inline element puts on its content.
var markOf = map[string]string{
	"strong": "bold", "b": "bold", "em": "italic", "i": "italic", "cite": "italic", "var": "italic",
	"s": "strikethrough", "del": "strikethrough", "strike": "strikethrough", "kbd": "keyboard",
	"sup": "superscript", "sub": "subscript", "code": "code", "samp": "code",
}

// htmlElement converts the inline element that the raw HTML start tag open begins, up to its end
// tag among open's following siblings, and returns that end tag's node; nil when open starts no
// element with an end (then walk takes the tag alone). Marks and links keep the markdown inside
// them; buttons, icons, mentions, pictures and selects are read as HTML.
func (b *inlineBuilder) htmlElement(open *ast.RawHTML, marks []Mark) ast.Node {
	src := b.c.src
	end := b.c.endOf(open)
	if end == nil || b.c.inlineDepth >= maxDepth {
		return nil
	}
	b.c.inlineDepth++
	defer func() { b.c.inlineDepth-- }()
	tag, _ := readInlineTag(rawHTML(open, src))
	asHTML := func() {
		start := open.Segments.At(0).Start
		stop := end.Segments.At(end.Segments.Len() - 1).Stop
		nodes, _ := parseHTML(string(src[start:stop]))
		for _, n := range nodes {
			b.c.htmlInline(b, n, marks)
		}
	}
	attrs := startTagAttrs(rawHTML(open, src))
	if readsAsHTML(tag.name, attrs) {
		asHTML()
		return end
	}
	switch tag.name {
	case "a":
		if attrs["href"] == "" {
			b.walkRange(open.NextSibling(), end, marks)
			break
		}
		link := Node{Object: ObjectInline, Type: "link", Key: b.c.key(), Data: map[string]any{"ref": b.c.ref(attrs["href"])}}
		inner := &inlineBuilder{c: b.c}
		inner.walkRange(open.NextSibling(), end, marks)
		link.Nodes = inner.result()
		b.inline(link)
	case "mark":
		b.walkRange(open.NextSibling(), end, withColor(marks, attrs["style"]))
	case "script", "style", "template", "iframe", "object", "textarea":
		// nothing to show
	default:
		if m := markOf[tag.name]; m != "" {
			marks = withMark(marks, m)
		}
		b.walkRange(open.NextSibling(), end, marks)
	}
	return end
}

// readsAsHTML reports whether an inline element is read as HTML rather than as markdown inside
// tags: buttons, mentions, icons, pictures and selects, whose content is a label or markup.
func readsAsHTML(tag string, attrs map[string]string) bool {
	switch tag {
	case "button", "picture", "select":
		return true
	case "a":
		_, mention := attrs["data-mention"]
		return mention || slices.Contains(strings.Fields(attrs["class"]), "button")
	case "i":
		_, icon := iconName(&html.Node{Attr: []html.Attribute{{Key: "class", Val: attrs["class"]}}})
		return icon
	}
	return false
}

// inHTMLElement reports whether a text node follows the start tag of an inline element read as
// HTML (readsAsHTML): its text is HTML text, written back HTML-escaped.
func inHTMLElement(n *ast.Text, src []byte) bool {
	open, ok := n.PreviousSibling().(*ast.RawHTML)
	if !ok {
		return false
	}
	raw := rawHTML(open, src)
	tag, ok := readInlineTag(raw)
	return ok && !tag.end && readsAsHTML(tag.name, startTagAttrs(raw))
}

// endOf returns the end tag that closes the inline HTML start tag open among its siblings, or nil.
// The tags of a parent's inline children are paired once, in one pass with a stack per tag name,
// so that any number of tags (nested, or never closed) costs linear time.
func (c *converter) endOf(open *ast.RawHTML) *ast.RawHTML {
	parent := open.Parent()
	if c.paired == nil {
		c.paired, c.ends = map[ast.Node]bool{}, map[*ast.RawHTML]*ast.RawHTML{}
	}
	if !c.paired[parent] {
		c.paired[parent] = true
		stacks := map[string][]*ast.RawHTML{}
		for ch := parent.FirstChild(); ch != nil; ch = ch.NextSibling() {
			raw, ok := ch.(*ast.RawHTML)
			if !ok {
				continue
			}
			tag, ok := readInlineTag(rawHTML(raw, c.src))
			switch {
			case !ok || tag.selfClosing:
			case !tag.end:
				stacks[tag.name] = append(stacks[tag.name], raw)
			case len(stacks[tag.name]) > 0:
				st := stacks[tag.name]
				c.ends[st[len(st)-1]] = raw
				stacks[tag.name] = st[:len(st)-1]
			}
		}
	}
	return c.ends[open]
}

// startTagAttrs reads the attributes of one start tag.
func startTagAttrs(raw string) map[string]string {
	z := html.NewTokenizer(strings.NewReader(raw))
	z.Next()
	attrs := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if len(k) > 0 {
			attrs[string(k)] = string(v)
		}
		if !more {
			return attrs
		}
	}
}

// isIconText reports whether a text node is the :name: token inside GitBook's icon element
// (<i class="fa-name">:name:</i>): not text a reader sees, nor text to translate or index.
func isIconText(n *ast.Text, src []byte) bool {
	open, ok := n.PreviousSibling().(*ast.RawHTML)
	if !ok {
		return false
	}
	raw := rawHTML(open, src)
	tag, ok := readInlineTag(raw)
	return ok && !tag.end && tag.name == "i" && readsAsHTML("i", startTagAttrs(raw))
}

// hiddenText are the elements whose text is not prose: code, scripts, styles and the like.
var hiddenText = map[string]bool{"script": true, "style": true, "template": true, "pre": true, "code": true, "textarea": true}

// htmlTextSpans calls fn for each stretch of text in raw HTML (outside code, scripts and icons),
// with its offsets in raw; text holds it with character references resolved, and newBlock says
// whether a block element's tag (a cell, a paragraph) came since the last stretch.
func htmlTextSpans(raw []byte, fn func(text string, start, stop int, newBlock bool)) {
	z := html.NewTokenizer(bytes.NewReader(raw))
	off := 0
	skipName, skipDepth := "", 0
	newBlock := true
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		tok := z.Raw()
		start := off
		off += len(tok)
		var tag string
		attrs := map[string]string{}
		if tt == html.StartTagToken || tt == html.EndTagToken || tt == html.SelfClosingTagToken {
			name, more := z.TagName()
			tag = string(name)
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				attrs[string(k)] = string(v)
			}
			if !inlineElements[atom.Lookup(name)] {
				newBlock = true
			}
		}
		switch tt {
		case html.StartTagToken:
			switch {
			case skipName == tag:
				skipDepth++
			case skipName != "":
			case hiddenText[tag] || (tag == "i" && readsAsHTML(tag, attrs)):
				skipName, skipDepth = tag, 1
			}
		case html.EndTagToken:
			if skipName == tag {
				if skipDepth--; skipDepth == 0 {
					skipName = ""
				}
			}
		case html.TextToken:
			lead := len(tok) - len(bytes.TrimLeft(tok, " \t\r\n\f"))
			trail := len(tok) - len(bytes.TrimRight(tok, " \t\r\n\f"))
			if skipName != "" || lead == len(tok) {
				continue
			}
			fn(strings.Join(strings.Fields(html.UnescapeString(string(tok))), " "), start+lead, start+len(tok)-trail, newBlock)
			newBlock = false
		}
	}
}
