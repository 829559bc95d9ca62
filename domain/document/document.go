// Package document converts GitBook-flavoured markdown into GitBook's JSON document tree
// ({"object":"document","data":{},"nodes":[…]}), the rich-text format of GitBook's API.
//
// Markdown is parsed with goldmark (CommonMark plus GFM tables, strikethrough, task lists and
// linkify) extended with GitBook's block syntax (see gitbook.go), and the goldmark AST is walked to
// build the tree. docs/document-format.md lists every node type emitted and the markdown that
// produces it.
package document

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Document is the contract's JSON document: {"object":"document","data":{},"nodes":[...blocks]}.
type Document struct {
	Object string         `json:"object"`
	Data   map[string]any `json:"data"`
	Nodes  []Node         `json:"nodes"`
}

// MarshalJSON writes the document with "object":"document", and data and nodes never null.
func (d Document) MarshalJSON() ([]byte, error) {
	var e encoder
	obj := d.Object
	if obj == "" {
		obj = "document"
	}
	e.WriteString(`{"object":`)
	e.value(obj)
	e.WriteString(`,"data":`)
	e.data(d.Data)
	e.WriteString(`,"nodes":`)
	e.nodes(d.Nodes)
	e.WriteByte('}')
	return e.Bytes(), e.err
}

// Object values of a Node.
const (
	ObjectBlock  = "block"
	ObjectInline = "inline"
	ObjectText   = "text"
)

// Node is a block, inline or text node.
//
// A block or inline node marshals as {"object","type","key","isVoid"?,"data","nodes"?,"fragments"?}:
// isVoid only when true, nodes only on non-void nodes (always an array there), fragments only when
// non-nil. A text node marshals as {"object":"text","leaves":[…]}.
type Node struct {
	Object string         // ObjectBlock, ObjectInline or ObjectText
	Type   string         // block or inline type, such as "paragraph" or "link"
	Key    string         // block and inline nodes: unique in the document, deterministic
	IsVoid bool           // void nodes (divider, image, embed, …) have no nodes
	Data   map[string]any // block and inline nodes; nil marshals as {}
	Nodes  []Node         // children of non-void block and inline nodes
	// Fragments are the named sub-documents of some void blocks (an image's caption, a table's
	// cells, an expandable's title and body).
	Fragments []Fragment
	Leaves    []Leaf // text nodes only
}

// MarshalJSON writes the node in the contract's shape (see Node).
func (n Node) MarshalJSON() ([]byte, error) {
	var e encoder
	e.node(n)
	return e.Bytes(), e.err
}

// Leaf is a run of text with one set of marks. It marshals as
// {"object":"leaf","text":"…","marks":[…]}.
type Leaf struct {
	Text  string
	Marks []Mark
}

// MarshalJSON writes the leaf in the contract's shape, marks never null.
func (l Leaf) MarshalJSON() ([]byte, error) {
	var e encoder
	e.leaf(l)
	return e.Bytes(), e.err
}

// Mark is a text formatting: "bold", "italic", "strikethrough" or "code". It marshals as
// {"object":"mark","type":"bold","data":{}}.
type Mark struct {
	Type string
	Data map[string]any
}

// MarshalJSON writes the mark in the contract's shape, data never null.
func (m Mark) MarshalJSON() ([]byte, error) {
	var e encoder
	e.mark(m)
	return e.Bytes(), e.err
}

// Fragment is a named list of blocks held by a void block. It marshals as
// {"object":"fragment","key":"…","fragment":"…","type"?:"…","nodes":[…]}.
type Fragment struct {
	Key      string
	Fragment string // the fragment's name: "caption", "expandable-title", a table cell id, …
	Type     string // optional
	Nodes    []Node
}

// MarshalJSON writes the fragment in the contract's shape, nodes never null.
func (f Fragment) MarshalJSON() ([]byte, error) {
	var e encoder
	e.fragment(f)
	return e.Bytes(), e.err
}

// encoder writes a whole tree in one pass. (Letting encoding/json call each node's MarshalJSON
// would re-validate every subtree at every level: quadratic in the depth.) It does not escape <, >
// and &: a caller's json.Marshal escapes them, and an encoder with SetEscapeHTML(false) keeps them.
type encoder struct {
	bytes.Buffer
	err     error
	scratch bytes.Buffer
	enc     *json.Encoder
}

// value writes v with encoding/json (strings, data values).
func (e *encoder) value(v any) {
	if s, ok := v.(string); ok {
		e.str(s)
		return
	}
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.scratch)
		e.enc.SetEscapeHTML(false)
	}
	e.scratch.Reset()
	if err := e.enc.Encode(v); err != nil {
		if e.err == nil {
			e.err = err
		}
		e.WriteString("null")
		return
	}
	e.Write(bytes.TrimSuffix(e.scratch.Bytes(), []byte("\n")))
}

// str writes s as a JSON string, escaping what JSON requires (and U+2028, U+2029 as encoding/json
// does) but not <, > and &.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	e.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			e.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				e.WriteByte('\\')
				e.WriteByte(c)
			case '\n':
				e.WriteString(`\n`)
			case '\r':
				e.WriteString(`\r`)
			case '\t':
				e.WriteString(`\t`)
			default:
				e.WriteString(`\u00`)
				e.WriteByte(hex[c>>4])
				e.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.WriteString(s[start:i])
			e.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			e.WriteString(s[start:i])
			e.WriteString(`\u202`)
			e.WriteByte(hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	e.WriteString(s[start:])
	e.WriteByte('"')
}

func (e *encoder) data(d map[string]any) {
	if len(d) == 0 {
		e.WriteString("{}")
		return
	}
	e.value(d)
}

func (e *encoder) nodes(nodes []Node) {
	e.WriteByte('[')
	for i, n := range nodes {
		if i > 0 {
			e.WriteByte(',')
		}
		e.node(n)
	}
	e.WriteByte(']')
}

func (e *encoder) node(n Node) {
	if n.Object == ObjectText {
		e.WriteString(`{"object":"text","leaves":[`)
		for i, l := range n.Leaves {
			if i > 0 {
				e.WriteByte(',')
			}
			e.leaf(l)
		}
		e.WriteString("]}")
		return
	}
	e.WriteString(`{"object":`)
	e.value(n.Object)
	e.WriteString(`,"type":`)
	e.value(n.Type)
	e.WriteString(`,"key":`)
	e.value(n.Key)
	if n.IsVoid {
		e.WriteString(`,"isVoid":true`)
	} else if isVoidRequired[n.Type] {
		e.WriteString(`,"isVoid":false`)
	}
	e.WriteString(`,"data":`)
	e.data(n.Data)
	if !n.IsVoid {
		e.WriteString(`,"nodes":`)
		e.nodes(n.Nodes)
	}
	if n.Fragments != nil {
		e.WriteString(`,"fragments":[`)
		for i, f := range n.Fragments {
			if i > 0 {
				e.WriteByte(',')
			}
			e.fragment(f)
		}
		e.WriteByte(']')
	}
	e.WriteByte('}')
}

// isVoidRequired are the non-void node types whose schema requires "isVoid": false.
var isVoidRequired = map[string]bool{"images": true, "columns": true, "annotation": true}

func (e *encoder) leaf(l Leaf) {
	e.WriteString(`{"object":"leaf","text":`)
	e.value(l.Text)
	e.WriteString(`,"marks":[`)
	for i, m := range l.Marks {
		if i > 0 {
			e.WriteByte(',')
		}
		e.mark(m)
	}
	e.WriteString("]}")
}

func (e *encoder) mark(m Mark) {
	e.WriteString(`{"object":"mark","type":`)
	e.value(m.Type)
	e.WriteString(`,"data":`)
	e.data(m.Data)
	e.WriteByte('}')
}

func (e *encoder) fragment(f Fragment) {
	e.WriteString(`{"object":"fragment","key":`)
	e.value(f.Key)
	e.WriteString(`,"fragment":`)
	e.value(f.Fragment)
	if f.Type != "" {
		e.WriteString(`,"type":`)
		e.value(f.Type)
	}
	e.WriteString(`,"nodes":`)
	e.nodes(f.Nodes)
	e.WriteByte('}')
}

// FileResolver maps a markdown image/link target to a file id of the revision (by file name or
// path such as ".gitbook/assets/x.png" or "x.png"); ok=false leaves it a URL.
//
// It is asked only about relative targets (no URL scheme, not an #anchor), first as written, then
// percent-decoded, then without leading "./", "../" and "/" segments, until one resolves.
type FileResolver func(target string) (fileID string, ok bool)

// markdown is the configured goldmark instance; goldmark parsers are safe for concurrent use.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote, gitbookExtension{}),
	goldmark.WithParserOptions(parser.WithHeadingAttribute()),
)

// FromMarkdown parses markdown into a document. files may be nil.
//
// The result is deterministic: the same markdown (and resolver answers) gives the same tree,
// keys included. Keys are base-36 counters in document order.
//
// The tree holds at most MaxReadNodes keyed nodes: past that the rest of the markdown is left out
// (see Convert, which reports it).
func FromMarkdown(markdownText string, files FileResolver) Document {
	doc, _ := Convert(markdownText, files)
	return doc
}

// Convert is FromMarkdown that reports ErrTooLarge when the markdown would make more than
// MaxReadNodes keyed nodes, stopping there: the size is checked while the tree is built, so that
// no content stored before the write limits existed (CheckMarkdown) can make a read build a huge
// tree.
func Convert(markdownText string, files FileResolver) (Document, error) {
	return convert(markdownText, files, nil)
}

func convert(markdownText string, files FileResolver, includes IncludeResolver) (Document, error) {
	src := []byte(strings.ReplaceAll(markdownText, "\r\n", "\n"))
	root := markdown.Parser().Parse(text.NewReader(src))
	c := &converter{src: src, files: files, notes: footnotes(root), includes: includes}
	nodes := c.blocks(root)
	if nodes == nil {
		nodes = []Node{}
	}
	doc := Document{Object: "document", Data: map[string]any{}, Nodes: nodes}
	if c.over {
		return doc, ErrTooLarge
	}
	return doc, nil
}

// maxDepth bounds the nesting of the output: a container block deeper than that (say a list
// nested hundreds of times) is left out and its content kept in its place, so that any tree stays
// well within JSON decoders' depth limits.
const maxDepth = 100

// converter walks one goldmark AST.
type converter struct {
	src   []byte
	files FileResolver
	n     int64
	depth int  // block nesting of the block being converted
	over  bool // MaxReadNodes keys were given out: the conversion stops
	// ends maps each inline HTML start tag to its end tag among its siblings (htmlPairs), for
	// the parents paired so far; inlineDepth is the nesting of inline HTML elements being read.
	ends        map[*ast.RawHTML]*ast.RawHTML
	paired      map[ast.Node]bool
	inlineDepth int
	// notes are the footnote definitions by index; reading marks those being converted, so a
	// note that refers to itself does not recurse.
	notes   map[int]*extast.Footnote
	reading map[int]bool
	// includes finds reusable content; including lists the ids being included, outermost first.
	includes  IncludeResolver
	including []string
	// base is the folder of the reusable content being converted ("" for a page): relative
	// references start from it (fromBase).
	base string
}

// key returns the next node key.
func (c *converter) key() string {
	c.n++
	if c.n > MaxReadNodes {
		c.over = true
	}
	return strconv.FormatInt(c.n, 36)
}

func (c *converter) block(typ string, data map[string]any) Node {
	if data == nil {
		data = map[string]any{}
	}
	return Node{Object: ObjectBlock, Type: typ, Key: c.key(), Data: data}
}

func (c *converter) voidBlock(typ string, data map[string]any) Node {
	n := c.block(typ, data)
	n.IsVoid = true
	return n
}

// blocks converts the block children of parent.
func (c *converter) blocks(parent ast.Node) []Node {
	var out []Node
	for ch := parent.FirstChild(); ch != nil && !c.over; ch = ch.NextSibling() {
		out = append(out, c.convertBlock(ch)...)
	}
	return out
}

// containerBlocks converts parent's block children for a container block, which is never left
// empty: an empty container holds one empty paragraph.
func (c *converter) containerBlocks(parent ast.Node) []Node {
	nodes := c.blocks(parent)
	if len(nodes) == 0 {
		nodes = []Node{c.emptyParagraph()}
	}
	return nodes
}

func (c *converter) emptyParagraph() Node {
	p := c.block("paragraph", nil)
	p.Nodes = []Node{textNode("")}
	return p
}

func textNode(s string) Node {
	return Node{Object: ObjectText, Leaves: []Leaf{{Text: s, Marks: []Mark{}}}}
}

// convertBlock converts one goldmark block into zero or more document blocks.
func (c *converter) convertBlock(n ast.Node) []Node {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxDepth {
		switch n.(type) {
		case *ast.Blockquote, *ast.List, *ast.ListItem, *tagBlock, *detailsBlock:
			return c.blocks(n)
		}
	}
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return []Node{c.paragraph(n)}
	case *ast.Heading:
		return []Node{c.heading(n)}
	case *ast.ThematicBreak:
		return []Node{c.voidBlock("divider", nil)}
	case *ast.Blockquote:
		b := c.block("blockquote", nil)
		b.Nodes = c.containerBlocks(n)
		return []Node{b}
	case *ast.List:
		return []Node{c.list(n)}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		return []Node{c.code(n, nil)}
	case *ast.HTMLBlock:
		return c.htmlBlock(n)
	case *extast.Table:
		return []Node{c.table(n)}
	case *tagBlock:
		out := c.tag(n)
		if n.Void && n.FirstChild() != nil {
			// The caption written on a void tag's line ({% file src="x" %}caption{% endfile %})
			// follows the block as a paragraph, as it does when written on lines of its own.
			out = append(out, c.paragraph(n))
		}
		return out
	case *endMarker:
		return nil
	case *detailsBlock:
		return []Node{c.expandable(n)}
	case *summaryBlock: // only as a detailsBlock's summary, handled there
		return nil
	case *extast.FootnoteList: // each note is an annotation's body, where it is referred to
		return nil
	case *mathBlock:
		return []Node{c.voidBlock("math", map[string]any{"formula": strings.TrimSuffix(c.linesText(n), "\n")})}
	}
	// Anything else: keep its inline content, its text, or its children.
	if first := n.FirstChild(); first != nil && first.Type() == ast.TypeInline {
		p := c.block("paragraph", nil)
		p.Nodes = c.inlines(n, nil)
		return []Node{p}
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		p := c.block("paragraph", nil)
		p.Nodes = []Node{textNode(strings.TrimSuffix(c.linesText(n), "\n"))}
		return []Node{p}
	}
	return c.blocks(n)
}

// linesText joins the raw source lines of a block.
func (c *converter) linesText(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(c.src))
	}
	return b.String()
}

// paragraph converts a paragraph, or a paragraph of images only into an images block.
func (c *converter) paragraph(n ast.Node) Node {
	if imgs := onlyImages(n, c.src); imgs != nil {
		b := c.block("images", nil)
		for _, img := range imgs {
			b.Nodes = append(b.Nodes, c.imageBlock(img))
		}
		return b
	}
	p := c.block("paragraph", nil)
	p.Nodes = c.inlines(n, nil)
	return p
}

// onlyImages returns the images of a paragraph holding nothing but images and white space.
func onlyImages(n ast.Node, src []byte) []*ast.Image {
	var imgs []*ast.Image
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Image:
			imgs = append(imgs, ch)
		case *ast.Text:
			if len(bytes.TrimSpace(ch.Segment.Value(src))) != 0 {
				return nil
			}
		default:
			return nil
		}
	}
	return imgs
}

func (c *converter) imageBlock(img *ast.Image) Node {
	data := map[string]any{"ref": c.ref(destination(img.Destination))}
	if alt := plainText(img, c.src); alt != "" {
		data["alt"] = alt
	}
	b := c.voidBlock("image", data)
	b.Fragments = []Fragment{}
	if title := unescape(img.Title); title != "" {
		key := c.key()
		p := c.block("paragraph", nil)
		p.Nodes = []Node{textNode(title)}
		b.Fragments = []Fragment{{Key: key, Fragment: "caption", Nodes: []Node{p}}}
	}
	return b
}

func (c *converter) heading(h *ast.Heading) Node {
	level := min(max(h.Level, 1), 3)
	data := map[string]any{}
	if v, ok := h.AttributeString("id"); ok {
		if id, ok := v.([]byte); ok && validAnchor(string(id)) {
			data["id"] = string(id)
		}
	}
	b := c.block("heading-"+strconv.Itoa(level), data)
	// GitBook writes a custom anchor as a trailing <a href="#x" id="x"></a>.
	stop := ast.Node(nil)
	if id, open := trailingAnchor(h, c.src); open != nil {
		data["id"] = id
		stop = open
	}
	ib := &inlineBuilder{c: c}
	ib.walkRange(h.FirstChild(), stop, nil)
	if stop != nil {
		ib.trimTrailingSpace()
	}
	b.Nodes = ib.result()
	return b
}

// validAnchor reports whether id suits a heading's data.id (^[-a-z0-9.+_]+$).
func validAnchor(id string) bool {
	if id == "" {
		return false
	}
	for i := 0; i < len(id); i++ {
		ch := id[i]
		if !(ch == '-' || ch == '.' || ch == '+' || ch == '_' || ('a' <= ch && ch <= 'z') || ('0' <= ch && ch <= '9')) {
			return false
		}
	}
	return true
}

// trailingAnchor finds a heading's last two inlines being raw HTML <a … id="x"></a> and returns
// the id and the opening tag's node.
func trailingAnchor(h *ast.Heading, src []byte) (string, ast.Node) {
	last, ok := h.LastChild().(*ast.RawHTML)
	if !ok || !strings.EqualFold(rawHTML(last, src), "</a>") {
		return "", nil
	}
	open, ok := last.PreviousSibling().(*ast.RawHTML)
	if !ok {
		return "", nil
	}
	s := rawHTML(open, src)
	if len(s) < 4 || !strings.EqualFold(s[:3], "<a ") || s[len(s)-1] != '>' {
		return "", nil
	}
	attrs, ok := parseAttributes(s[3 : len(s)-1])
	if !ok || !validAnchor(attrs["id"]) {
		return "", nil
	}
	return attrs["id"], open
}

func rawHTML(n *ast.RawHTML, src []byte) string {
	var b strings.Builder
	for i := range n.Segments.Len() {
		seg := n.Segments.At(i)
		b.Write(seg.Value(src))
	}
	return b.String()
}

func (c *converter) list(l *ast.List) Node {
	tasks := false
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		if _, ok := taskBox(item); ok {
			tasks = true
		}
	}
	var b Node
	switch {
	case tasks:
		b = c.block("list-tasks", nil)
	case l.IsOrdered():
		data := map[string]any{}
		if l.Start != 1 {
			data["start"] = l.Start
		}
		b = c.block("list-ordered", data)
	default:
		b = c.block("list-unordered", nil)
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		data := map[string]any{}
		if tasks {
			box, _ := taskBox(item)
			data["checked"] = box != nil && box.IsChecked
		}
		li := c.block("list-item", data)
		c.depth++
		li.Nodes = c.containerBlocks(item)
		c.depth--
		b.Nodes = append(b.Nodes, li)
	}
	return b
}

// taskBox returns the task checkbox a list item starts with.
func taskBox(item ast.Node) (*extast.TaskCheckBox, bool) {
	first := item.FirstChild()
	if first == nil {
		return nil, false
	}
	box, ok := first.FirstChild().(*extast.TaskCheckBox)
	return box, ok
}

// code converts a fenced or indented code block; attrs are those of an enclosing {% code %} tag.
func (c *converter) code(n ast.Node, attrs map[string]string) Node {
	data := map[string]any{"syntax": "text"}
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		if lang := f.Language(c.src); len(lang) > 0 {
			data["syntax"] = unescape(lang)
		}
	}
	if v := attrs["title"]; v != "" {
		data["title"] = v
	}
	for attr, field := range map[string]string{"linenumbers": "lineNumbers", "fullwidth": "fullWidth", "expandable": "expandable"} {
		if v, ok := attrs[attr]; ok {
			data[field] = v == "true"
		}
	}
	if v := attrs["overflow"]; v == "wrap" || v == "scroll" {
		data["overflow"] = v
	}
	b := c.block("code", data)
	body := strings.TrimSuffix(c.linesText(n), "\n")
	for line := range strings.SplitSeq(body, "\n") {
		cl := c.block("code-line", nil)
		cl.Nodes = []Node{textNode(line)}
		b.Nodes = append(b.Nodes, cl)
	}
	return b
}

// htmlBlock converts a raw HTML block (see html.go); a block of nothing but closing tags or
// comments gives nothing.
func (c *converter) htmlBlock(n *ast.HTMLBlock) []Node {
	raw := c.linesText(n)
	if n.HasClosure() {
		raw += string(n.ClosureLine.Value(c.src))
	}
	nodes, err := parseHTML(raw)
	if err != nil { // nested past the parser's bound: kept whole, as HTML
		return []Node{c.voidBlock("html", map[string]any{"html": raw})}
	}
	return c.htmlBlocks(nodes)
}

// parseImgTag reads an <img …> start tag at the start of s (with a non-empty src) and returns its
// attributes and what follows it.
func parseImgTag(s string) (map[string]string, string, bool) {
	if len(s) < 5 || !strings.EqualFold(s[:4], "<img") || !isSpaceByte(s[4]) {
		return nil, "", false
	}
	end := startTagEnd(s, 4, len(s))
	if end < 0 {
		return nil, "", false
	}
	attrs, ok := parseAttributes(strings.TrimSuffix(strings.TrimSpace(s[4:end]), "/"))
	if !ok || attrs["src"] == "" {
		return nil, "", false
	}
	return attrs, s[end+1:], true
}

// startTagEnd is the index of the '>' that ends a start tag read from s[from:], the first one
// outside a quoted attribute value, looking no further than limit; -1 when there is none.
func startTagEnd[T ~string | ~[]byte](s T, from, limit int) int {
	quote := byte(0)
	for i := from; i < min(len(s), limit); i++ {
		switch ch := s[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '"' || ch == '\'':
			quote = ch
		case ch == '>':
			return i
		}
	}
	return -1
}

// table converts a GFM table into GitBook's table block: one text column per header cell, one
// record per row, and each cell's content as a fragment named by the cell's value.
func (c *converter) table(t *extast.Table) Node {
	b := c.voidBlock("table", nil)
	columns := []any{}
	definition := map[string]any{}
	records := map[string]any{}
	var fragments []Fragment
	row := 0
	for r := t.FirstChild(); r != nil && !c.over; r = r.NextSibling() {
		if _, header := r.(*extast.TableHeader); header {
			i := 0
			for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
				id := c.key()
				align := "left"
				if i < len(t.Alignments) {
					switch t.Alignments[i] {
					case extast.AlignCenter:
						align = "center"
					case extast.AlignRight:
						align = "right"
					}
				}
				columns = append(columns, id)
				definition[id] = map[string]any{"id": id, "title": plainText(cell, c.src), "type": "text", "textAlignment": align}
				i++
			}
			continue
		}
		recordID := c.key()
		values := map[string]any{}
		i := 0
		for cell := r.FirstChild(); cell != nil && i < len(columns) && !c.over; cell = cell.NextSibling() {
			name := c.key()
			p := c.block("paragraph", nil)
			p.Nodes = c.inlines(cell, nil)
			fragments = append(fragments, Fragment{Key: name, Fragment: name, Nodes: []Node{p}})
			values[columns[i].(string)] = name
			i++
		}
		records[recordID] = map[string]any{"orderIndex": orderIndex(row), "values": values}
		row++
	}
	b.Data = map[string]any{
		"view":       map[string]any{"type": "grid", "columns": columns, "hideHeader": false},
		"records":    records,
		"definition": definition,
	}
	if fragments == nil {
		fragments = []Fragment{}
	}
	b.Fragments = fragments
	return b
}

// orderIndex returns a sort key for the i-th record that orders as a string like the
// fractional-index keys GitBook uses: "a0"…"az", then "b0z"…, with digits 0-9A-Za-z.
func orderIndex(i int) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	head, width, span := byte('a'), 1, len(digits)
	for i >= span && head < 'z' {
		i -= span
		head++
		width++
		span *= len(digits)
	}
	out := make([]byte, width)
	for j := width - 1; j >= 0; j-- {
		out[j] = digits[i%len(digits)]
		i /= len(digits)
	}
	return string(head) + string(out)
}

// tag converts a GitBook {% … %} block.
func (c *converter) tag(t *tagBlock) []Node {
	switch t.Name {
	case "hint":
		style := t.Attrs["style"]
		switch style {
		case "info", "warning", "danger", "success":
		default:
			style = "info"
		}
		b := c.block("hint", map[string]any{"style": style})
		b.Nodes = c.containerBlocks(t)
		return []Node{b}
	case "tabs":
		return []Node{c.tabs(t)}
	case "stepper":
		return []Node{c.items(c.block("stepper", nil), t, "step", "stepper-step", func(attrs map[string]string) map[string]any {
			data := map[string]any{}
			if icon := attrs["icon"]; icon != "" {
				data["icon"] = icon
			}
			return data
		})}
	case "columns":
		data := map[string]any{}
		if v, ok := t.Attrs["fullwidth"]; ok {
			data["fullWidth"] = v == "true"
		}
		return []Node{c.items(c.block("columns", data), t, "column", "column", func(attrs map[string]string) map[string]any {
			data := map[string]any{}
			if w, ok := lengthData(attrs["width"]); ok {
				data["width"] = w
			}
			switch v := attrs["valign"]; v {
			case "top", "middle", "bottom":
				data["verticalAlignment"] = v
			}
			return data
		})}
	case "updates":
		data := map[string]any{}
		if f := t.Attrs["format"]; f != "" {
			data["format"] = f
		}
		return []Node{c.items(c.block("updates", data), t, "update", "update", func(attrs map[string]string) map[string]any {
			data := map[string]any{}
			if d := attrs["date"]; d != "" {
				data["date"] = d
			}
			return data
		})}
	case "if":
		b := c.block("if", map[string]any{"expression": t.Attrs["expression"]})
		b.Nodes = c.containerBlocks(t)
		return []Node{b}
	case "openapi", "openapi-operation", "openapi-schemas", "openapi-webhook":
		if b, ok := c.openAPI(t); ok {
			return []Node{b}
		}
		return c.blocks(t)
	case "swagger":
		// The older form names a specification, as {% openapi src %} does; the legacy one writes
		// the operation out.
		if t.Attrs["src"] != "" {
			if b, ok := c.openAPI(&tagBlock{Name: "openapi", Attrs: t.Attrs}); ok {
				return []Node{b}
			}
		}
		return []Node{c.swaggerInline(t)}
	case "prompt":
		return []Node{c.prompt(t)}
	case "tab", "step", "column", "update", "swagger-description", "swagger-parameter", "swagger-response":
		// only open inside their container; defensive
		return c.blocks(t)
	case "code":
		var out []Node
		done := false
		for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch ch.(type) {
			case *ast.FencedCodeBlock, *ast.CodeBlock:
				if !done {
					out = append(out, c.code(ch, t.Attrs))
					done = true
					continue
				}
			}
			out = append(out, c.convertBlock(ch)...)
		}
		return out
	case "content-ref":
		if target := t.Attrs["url"]; target != "" {
			// The body GitBook writes is a link to the same target: the block carries it.
			return []Node{c.voidBlock("content-ref", map[string]any{"ref": c.ref(target)})}
		}
		return c.blocks(t)
	case "include":
		return []Node{c.include(t)}
	case "embed":
		if u := t.Attrs["url"]; u != "" {
			return []Node{c.voidBlock("embed", map[string]any{"url": u})}
		}
	case "file":
		if src := t.Attrs["src"]; src != "" {
			if id, ok := c.resolve(src); ok {
				return []Node{c.voidBlock("file", map[string]any{"ref": map[string]any{"kind": "file", "file": id}})}
			}
			// An unknown file stays reachable as a link.
			p := c.block("paragraph", nil)
			link := Node{Object: ObjectInline, Type: "link", Key: c.key(), Data: map[string]any{"ref": urlRef(src)}}
			link.Nodes = []Node{textNode(src)}
			p.Nodes = []Node{link}
			return []Node{p}
		}
	}
	// A tag missing what it needs: keep its attributes as text.
	p := c.block("paragraph", nil)
	p.Nodes = []Node{textNode(tagText(t))}
	return []Node{p}
}

// tagText writes a tag back as {% name key="value" … %} (attributes sorted).
func tagText(t *tagBlock) string {
	var b strings.Builder
	b.WriteString("{% " + t.Name)
	for _, k := range slices.Sorted(maps.Keys(t.Attrs)) {
		b.WriteString(" " + k + "=" + strconv.Quote(t.Attrs[k]))
	}
	b.WriteString(" %}")
	return b.String()
}

// tabs converts {% tabs %}: each {% tab %} becomes a tabs-item.
func (c *converter) tabs(t *tagBlock) Node {
	return c.items(c.block("tabs", nil), t, "tab", "tabs-item", func(attrs map[string]string) map[string]any {
		return map[string]any{"title": attrs["title"]}
	})
}

// items fills b, a block that holds only items (tabs, a stepper, columns, updates), from the
// children of t: each child tag named child becomes an item of type itemType with itemData of its
// attributes. Blocks between items join the item before them (or an item with no attributes when
// none came yet), and b is never left empty.
func (c *converter) items(b Node, t *tagBlock, child, itemType string, itemData func(map[string]string) map[string]any) Node {
	item := func(tag *tagBlock) Node {
		n := c.block(itemType, itemData(tag.Attrs))
		c.depth++
		n.Nodes = c.containerBlocks(tag)
		c.depth--
		return n
	}
	for ch := t.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if tag, ok := ch.(*tagBlock); ok && tag.Name == child {
			b.Nodes = append(b.Nodes, item(tag))
			continue
		}
		if len(b.Nodes) == 0 {
			b.Nodes = append(b.Nodes, c.block(itemType, itemData(map[string]string{})))
		}
		last := &b.Nodes[len(b.Nodes)-1]
		last.Nodes = append(last.Nodes, c.convertBlock(ch)...)
	}
	switch {
	case len(b.Nodes) == 0: // never empty
		b.Nodes = []Node{item(&tagBlock{Attrs: map[string]string{}})}
	case len(b.Nodes[0].Nodes) == 0:
		// An item opened for stray blocks that gave nothing (an end marker) goes away.
		b.Nodes = b.Nodes[1:]
		if len(b.Nodes) == 0 {
			b.Nodes = []Node{item(&tagBlock{Attrs: map[string]string{}})}
		}
	}
	return b
}

// lengthData reads a GitBook length ("40%", "120px", "300") as the contract's Length: a number of
// pixels, or {"value","unit"}. ok=false when it is no length.
func lengthData(s string) (any, bool) {
	s = strings.TrimSpace(s)
	num := strings.TrimRight(s, "abcdefghijklmnopqrstuvwxyz%")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || v < 0 {
		return nil, false
	}
	switch unit := s[len(num):]; unit {
	case "", "px":
		return v, true
	case "%":
		return map[string]any{"unit": "%", "value": math.Round(v*100) / 100}, true
	}
	return nil, false
}

// openAPI converts GitBook's OpenAPI tags into the contract's OpenAPI blocks: {% openapi src %}
// (a specification by URL or file: "swagger"), and {% openapi-operation %}, {% openapi-schemas %}
// and {% openapi-webhook %}, which name one of the organization's specifications by its slug. The
// body GitBook writes (a link to the specification) is not repeated. ok=false when an attribute
// the block needs is missing.
func (c *converter) openAPI(t *tagBlock) (Node, bool) {
	a := t.Attrs
	spec := map[string]any{"kind": "openapi", "spec": a["spec"]}
	switch t.Name {
	case "openapi":
		if a["src"] == "" || a["path"] == "" || a["method"] == "" {
			return Node{}, false
		}
		return c.voidBlock("swagger", map[string]any{"ref": c.ref(strings.Trim(a["src"], "<>")), "path": a["path"], "method": a["method"]}), true
	case "openapi-operation":
		if a["spec"] == "" || a["path"] == "" || a["method"] == "" {
			return Node{}, false
		}
		return c.voidBlock("openapi-operation", map[string]any{"ref": spec, "path": a["path"], "method": a["method"]}), true
	case "openapi-schemas":
		if a["spec"] == "" {
			return Node{}, false
		}
		schemas := []any{}
		for name := range strings.SplitSeq(a["schemas"], ",") {
			if name = strings.TrimSpace(name); name != "" {
				schemas = append(schemas, name)
			}
		}
		return c.voidBlock("openapi-schemas", map[string]any{"ref": spec, "schemas": schemas, "grouped": a["grouped"] != "false"}), true
	case "openapi-webhook":
		if a["spec"] == "" || a["name"] == "" {
			return Node{}, false
		}
		// The contract's webhook pointer names a method; GitBook writes one, and a webhook is
		// a POST unless it says otherwise.
		method := a["method"]
		if method == "" {
			method = "post"
		}
		return c.voidBlock("openapi-webhook", map[string]any{"ref": spec, "name": a["name"], "method": method}), true
	}
	return Node{}, false
}

// expandable converts <details> into an expandable block with title and body fragments.
func (c *converter) expandable(d *detailsBlock) Node {
	b := c.voidBlock("expandable", nil)
	titleKey := c.key()
	title := c.block("paragraph", nil)
	if d.Summary != nil {
		title.Nodes = c.inlines(d.Summary, nil)
	} else {
		title.Nodes = []Node{textNode("")}
	}
	bodyKey := c.key()
	body := c.containerBlocks(d)
	b.Fragments = []Fragment{
		{Key: titleKey, Fragment: "expandable-title", Type: "expandable-title", Nodes: []Node{title}},
		{Key: bodyKey, Fragment: "expandable-body", Type: "expandable-body", Nodes: body},
	}
	return b
}

// ref is a content reference to target: the revision's file when the resolver knows it, else a URL.
func (c *converter) ref(target string) map[string]any { return c.refFrom(c.base, target) }

// refFrom is ref with relative targets starting from folder base (fromBase).
func (c *converter) refFrom(base, target string) map[string]any {
	if id, ok := c.resolve(target); ok {
		return map[string]any{"kind": "file", "file": id}
	}
	return urlRef(fromBase(base, target))
}

func urlRef(u string) map[string]any { return map[string]any{"kind": "url", "url": u} }

// resolve asks the FileResolver about a relative target (see FileResolver).
func (c *converter) resolve(target string) (string, bool) {
	if c.files == nil || target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "//") {
		return "", false
	}
	if u, err := url.Parse(target); err != nil || u.Scheme != "" {
		return "", false
	}
	candidates := []string{target}
	if dec, err := url.PathUnescape(target); err == nil && dec != target {
		candidates = append(candidates, dec)
	}
	for _, cand := range slices.Clone(candidates) {
		if trimmed := trimLeadingDirs(cand); trimmed != cand && trimmed != "" {
			candidates = append(candidates, trimmed)
		}
	}
	for _, cand := range candidates {
		if id, ok := c.files(cand); ok && id != "" {
			return id, true
		}
	}
	return "", false
}

// trimLeadingDirs drops leading "./", "../" and "/" from a path.
func trimLeadingDirs(p string) string {
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "../"):
			p = p[3:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		default:
			return p
		}
	}
}

// destination returns a link or image destination with escapes and character references resolved.
func destination(d []byte) string { return unescape(d) }

// unescape resolves backslash escapes and character references as a renderer would.
func unescape(v []byte) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		ch := v[i]
		if ch == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]) {
			b.WriteByte(v[i+1])
			i++
			continue
		}
		if ch == '&' {
			if end := bytes.IndexByte(v[i:min(len(v), i+40)], ';'); end > 0 {
				ref := v[i : i+end+1]
				if res := util.ResolveNumericReferences(util.ResolveEntityNames(ref)); !bytes.Equal(res, ref) {
					b.Write(res)
					i += end
					continue
				}
			}
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// plainText is the text content of an inline tree (an image's alt, a table header cell).
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch ch := ch.(type) {
			case *ast.Text:
				if ch.IsRaw() {
					b.Write(ch.Segment.Value(src))
				} else {
					b.WriteString(unescape(ch.Segment.Value(src)))
				}
				if ch.HardLineBreak() || ch.SoftLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(ch.Value)
			case *ast.AutoLink:
				b.Write(ch.Label(src))
			case *ast.RawHTML:
				b.WriteString(rawHTML(ch, src))
			case *mathInline:
				b.WriteString(ch.Formula)
			case *emojiInline:
				b.WriteString(ch.Emoji)
			case *expressionInline: // no expression node in plain text: the element as written
				b.Write(ch.Segment.Value(src))
			default:
				walk(ch)
			}
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// ---------------------------------------------------------------------------------------------
// Inlines

// emitsExpression reports whether the expression element n becomes an expression node. It does
// wherever inline content goes, except in a link's text (the contract's links hold only text and
// images), an image's alt text and a table's header cells (plain text both): there the element
// stays text, as written.
func emitsExpression(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p := p.(type) {
		case *ast.Link, *ast.Image:
			return false
		case *extast.TableCell:
			_, header := p.Parent().(*extast.TableHeader)
			return !header
		}
		if p.Type() == ast.TypeBlock {
			return true
		}
	}
	return true
}

// inlines converts the inline children of n; the result always holds at least one text node.
func (c *converter) inlines(n ast.Node, marks []Mark) []Node {
	ib := &inlineBuilder{c: c}
	ib.walkChildren(n, marks)
	return ib.result()
}

// inlineBuilder collects inline nodes, merging adjacent text into one text node and adjacent
// leaves with the same marks into one leaf.
type inlineBuilder struct {
	c   *converter
	out []Node
	// buf holds the text of the last leaf while open (that leaf's Text is set on flush), so that
	// long runs of text build in linear time.
	buf  strings.Builder
	open bool
}

// flush stores the buffered text into the last leaf.
func (b *inlineBuilder) flush() {
	if !b.open {
		return
	}
	t := &b.out[len(b.out)-1]
	t.Leaves[len(t.Leaves)-1].Text = b.buf.String()
	b.buf.Reset()
	b.open = false
}

func (b *inlineBuilder) result() []Node {
	b.flush()
	if len(b.out) == 0 {
		return []Node{textNode("")}
	}
	return b.out
}

// inline appends an inline node.
func (b *inlineBuilder) inline(n Node) {
	b.flush()
	b.out = append(b.out, n)
}

func (b *inlineBuilder) text(s string, marks []Mark) {
	if s == "" {
		return
	}
	if marks == nil {
		marks = []Mark{}
	}
	if k := len(b.out); k > 0 && b.out[k-1].Object == ObjectText {
		t := &b.out[k-1]
		if b.open && sameMarks(t.Leaves[len(t.Leaves)-1].Marks, marks) {
			b.buf.WriteString(s)
			return
		}
		b.flush()
		t.Leaves = append(t.Leaves, Leaf{Marks: marks})
	} else {
		b.out = append(b.out, Node{Object: ObjectText, Leaves: []Leaf{{Marks: marks}}})
	}
	b.buf.WriteString(s)
	b.open = true
}

// trimTrailingSpace drops white space at the end of the collected text.
func (b *inlineBuilder) trimTrailingSpace() {
	b.flush()
	for k := len(b.out); k > 0 && b.out[k-1].Object == ObjectText; k = len(b.out) {
		t := &b.out[k-1]
		l := &t.Leaves[len(t.Leaves)-1]
		l.Text = strings.TrimRight(l.Text, " \t\n")
		if l.Text != "" {
			return
		}
		t.Leaves = t.Leaves[:len(t.Leaves)-1]
		if len(t.Leaves) == 0 {
			b.out = b.out[:k-1]
		}
	}
}

func sameMarks(a, b []Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || (a[i].Type == "color" && !maps.Equal(colorOf(a[i]), colorOf(b[i]))) {
			return false
		}
	}
	return true
}

// colorOf is a color mark's text and background.
func colorOf(m Mark) map[string]string {
	out := map[string]string{}
	for k, v := range m.Data {
		out[k], _ = v.(string)
	}
	return out
}

// withMark returns marks plus typ (once), without changing marks' backing array.
func withMark(marks []Mark, typ string) []Mark {
	for _, m := range marks {
		if m.Type == typ {
			return marks
		}
	}
	out := make([]Mark, len(marks), len(marks)+1)
	copy(out, marks)
	return append(out, Mark{Type: typ, Data: map[string]any{}})
}

func (b *inlineBuilder) walkChildren(n ast.Node, marks []Mark) {
	b.walkRange(n.FirstChild(), nil, marks)
}

// walkRange walks the inline siblings from first up to stop (nil: to the last); an inline HTML
// element takes its content up to its end tag (htmlElement).
func (b *inlineBuilder) walkRange(first, stop ast.Node, marks []Mark) {
	for ch := first; ch != nil && ch != stop; ch = ch.NextSibling() {
		if raw, ok := ch.(*ast.RawHTML); ok {
			if end := b.htmlElement(raw, marks); end != nil {
				ch = end
				continue
			}
		}
		b.walk(ch, marks)
	}
}

func (b *inlineBuilder) walk(n ast.Node, marks []Mark) {
	src := b.c.src
	switch n := n.(type) {
	case *ast.Text:
		if n.IsRaw() {
			b.text(string(n.Segment.Value(src)), marks)
		} else {
			b.text(unescape(n.Segment.Value(src)), marks)
		}
		switch {
		case n.HardLineBreak():
			b.text("\n", marks)
		case n.SoftLineBreak():
			b.text(" ", marks)
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			b.text(string(n.Value), marks)
		} else {
			b.text(unescape(n.Value), marks)
		}
	case *ast.CodeSpan:
		var s strings.Builder
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			switch ch := ch.(type) {
			case *ast.Text:
				v := ch.Segment.Value(src)
				if bytes.HasSuffix(v, []byte("\n")) {
					v = append(v[:len(v)-1:len(v)-1], ' ')
				}
				s.Write(v)
			case *ast.String:
				s.Write(ch.Value)
			}
		}
		b.text(s.String(), withMark(marks, "code"))
	case *ast.Emphasis:
		typ := "italic"
		if n.Level >= 2 {
			typ = "bold"
		}
		b.walkChildren(n, withMark(marks, typ))
	case *extast.Strikethrough:
		b.walkChildren(n, withMark(marks, "strikethrough"))
	case *ast.Link:
		if string(n.Title) == "mention" { // GitBook writes a mention as [title](target "mention")
			b.inline(Node{Object: ObjectInline, Type: "mention", Key: b.c.key(), IsVoid: true,
				Data: map[string]any{"ref": b.c.ref(destination(n.Destination))}})
			return
		}
		link := Node{Object: ObjectInline, Type: "link", Key: b.c.key(),
			Data: map[string]any{"ref": b.c.ref(destination(n.Destination))}}
		link.Nodes = b.c.inlines(n, marks)
		b.inline(link)
	case *ast.AutoLink:
		link := Node{Object: ObjectInline, Type: "link", Key: b.c.key(),
			Data: map[string]any{"ref": urlRef(string(n.URL(src)))}}
		inner := &inlineBuilder{c: b.c}
		inner.text(string(n.Label(src)), marks)
		link.Nodes = inner.result()
		b.inline(link)
	case *ast.Image:
		data := map[string]any{"ref": b.c.ref(destination(n.Destination))}
		if alt := plainText(n, src); alt != "" {
			data["alt"] = alt
		}
		b.inline(Node{Object: ObjectInline, Type: "inline-image", Key: b.c.key(), IsVoid: true, Data: data})
	case *ast.RawHTML:
		raw := rawHTML(n, src)
		switch strings.ToLower(strings.ReplaceAll(raw, " ", "")) {
		case "<br>", "<br/>":
			b.text("\n", marks)
		default:
			if attrs, rest, ok := parseImgTag(raw); ok && rest == "" {
				data := map[string]any{"ref": b.c.ref(attrs["src"])}
				if alt := attrs["alt"]; alt != "" {
					data["alt"] = alt
				}
				if size := attrs["data-size"]; size == "line" || size == "original" {
					data["size"] = size
				}
				b.inline(Node{Object: ObjectInline, Type: "inline-image", Key: b.c.key(), IsVoid: true, Data: data})
				return
			}
			// Any other tag alone (an end tag, a tag whose end never comes, a comment) is markup,
			// not text: the text around it stays.
		}
	case *extast.TaskCheckBox:
		// data.checked of the list item
	case *mathInline:
		b.inline(Node{Object: ObjectInline, Type: "inline-math", Key: b.c.key(), IsVoid: true,
			Data: map[string]any{"formula": n.Formula}})
	case *emojiInline:
		b.inline(Node{Object: ObjectInline, Type: "emoji", Key: b.c.key(), IsVoid: true,
			Data: map[string]any{"code": n.Code}})
	case *extast.FootnoteLink:
		b.annotation(n.Index)
	case *extast.FootnoteBacklink: // the renderer's way back from a note: not content
	case *expressionInline:
		if !emitsExpression(n) {
			b.text(string(n.Segment.Value(src)), marks)
			return
		}
		b.inline(Node{Object: ObjectInline, Type: "expression", Key: b.c.key(), IsVoid: true,
			Data: map[string]any{"expression": n.Expression}})
	default:
		if n.HasChildren() {
			b.walkChildren(n, marks)
		} else if t := n.Text(src); len(t) > 0 { //nolint:staticcheck // fallback for unknown inlines
			b.text(string(t), marks)
		}
	}
}
