package document

import (
	"slices"
	"strings"
	"unicode"

	slugs "github.com/bindery/bindery/domain/text"
	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/unicode/norm"
)

// Section is the part of a page's markdown under one heading, as plain text: what search indexes
// and shows. The part before the first heading has no anchor and no title.
type Section struct {
	Anchor string // the heading's anchor (Anchors), unique in the page
	Title  string // the heading's text
	Text   string // the section's body as plain text, one line a block
}

// Sections splits markdown into sections at its headings. The markdown is parsed as the document
// is (GitBook blocks, fenced code, tables and HTML are read, not guessed), so a heading's custom
// anchor ({#id}, or GitBook's trailing <a id>) is its section's anchor, as in the reader. Code and
// formulas are kept as text; links and images keep their text; HTML tags and GitBook's block tags
// fall away. The first section holds the text before the first heading (left out when empty).
func Sections(markdownText string) []Section {
	return SectionsWith(markdownText, nil)
}

// SectionsWith is Sections with the reusable content the page includes read in place (includes
// may be nil: none resolve).
func SectionsWith(markdownText string, includes IncludeResolver) []Section {
	src := []byte(strings.ReplaceAll(markdownText, "\r\n", "\n"))
	x := &textReader{src: src, anchors: Anchors{}, includes: includes}
	x.blocks(markdown.Parser().Parse(text.NewReader(src)))
	x.flush()
	return x.out
}

// SearchText is the text search indexes for markdown: each section's title and text, a line each.
func SearchText(markdownText string) string {
	return SearchTextWith(markdownText, nil)
}

// SearchTextWith is SearchText with included reusable content read in place.
func SearchTextWith(markdownText string, includes IncludeResolver) string {
	var b strings.Builder
	for _, s := range SectionsWith(markdownText, includes) {
		if s.Title != "" {
			b.WriteString(s.Title)
			b.WriteByte('\n')
		}
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// Anchors gives a page's headings their anchors in document order: a heading's own id, else its
// title's Anchor, made unique in the page by the rule page slugs follow (text.Unique: -2, -3…).
// The reader's headings and search's sections take theirs from it, so links to #anchors, the
// outline and search results agree.
type Anchors map[string]bool

// Next is the anchor of the page's next heading, with id its own (or "") and title its text.
func (a Anchors) Next(id, title string) string {
	if id == "" {
		id = Anchor(title)
	}
	id = slugs.Unique(id, func(s string) bool { return a[s] })
	a[id] = true
	return id
}

// Anchor is the anchor of a heading without an id of its own: lowercase ASCII letters and digits
// of its title joined by single hyphens, accents dropped (é → e), everything else a separator;
// "section" when nothing is left.
func Anchor(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFKD.String(strings.ToLower(title)) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		case unicode.Is(unicode.Mn, r):
			// combining accents fall away
		default:
			dash = true
		}
	}
	if b.Len() == 0 {
		return "section"
	}
	return b.String()
}

// textReader collects the sections of one goldmark AST.
type textReader struct {
	src     []byte
	anchors Anchors
	cur     Section
	lines   []string
	out     []Section
	// includes finds reusable content; including lists the ids being read, outermost first.
	includes  IncludeResolver
	including []string
}

// include reads an included reusable content in place (as the reader shows it), unless it does
// not resolve, includes itself or nests too deep.
func (x *textReader) include(t *tagBlock) {
	if x.includes == nil || len(x.including) >= maxIncludeDepth {
		return
	}
	inc, ok := x.includes(t.Attrs["src"])
	if !ok || slices.Contains(x.including, inc.ID) {
		return
	}
	src := x.src
	x.src = []byte(strings.ReplaceAll(inc.Markdown, "\r\n", "\n"))
	x.including = append(x.including, inc.ID)
	x.blocks(markdown.Parser().Parse(text.NewReader(x.src)))
	x.including = x.including[:len(x.including)-1]
	x.src = src
}

// flush ends the current section.
func (x *textReader) flush() {
	x.cur.Text = strings.Join(x.lines, "\n")
	if x.cur.Anchor != "" || x.cur.Text != "" {
		x.out = append(x.out, x.cur)
	}
	x.lines = nil
}

// line adds a line of text to the current section, its white space collapsed.
func (x *textReader) line(s string) {
	if s = strings.Join(strings.Fields(s), " "); s != "" {
		x.lines = append(x.lines, s)
	}
}

// blocks reads the block children of parent.
func (x *textReader) blocks(parent ast.Node) {
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			x.heading(n)
		case *ast.FencedCodeBlock, *ast.CodeBlock, *mathBlock:
			x.rawLines(n)
		case *ast.HTMLBlock:
			raw := x.linesText(n)
			if n.HasClosure() {
				raw += string(n.ClosureLine.Value(x.src))
			}
			var line []string
			htmlTextSpans([]byte(raw), func(text string, _, _ int, newBlock bool) {
				if newBlock {
					x.line(strings.Join(line, " "))
					line = nil
				}
				line = append(line, text)
			})
			x.line(strings.Join(line, " "))
		case *extast.Table:
			for row := n.FirstChild(); row != nil; row = row.NextSibling() {
				var cells []string
				for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
					cells = append(cells, x.inlineText(cell))
				}
				x.line(strings.Join(cells, " "))
			}
		case *tagBlock:
			switch {
			case n.Void && n.Name == "include":
				x.include(n)
			case n.Void && n.FirstChild() != nil: // a caption on the tag's line
				x.line(x.inlineText(n))
			case n.Void:
			case n.Name == "if":
				// Conditional content is for some visitors only: search, which answers every
				// visitor alike, leaves it out.
			case n.Name == "content-ref" || strings.HasPrefix(n.Name, "openapi"):
				// their bodies are GitBook's copy of their target
			default:
				x.blocks(n)
			}
		case *endMarker, *ast.ThematicBreak:
		default:
			if first := n.FirstChild(); first != nil && first.Type() == ast.TypeInline {
				x.line(x.inlineText(n)) // paragraphs, a tight list's text, a summary
			} else if n.Type() == ast.TypeBlock && n.FirstChild() == nil && n.Lines().Len() > 0 {
				x.rawLines(n)
			} else {
				x.blocks(n) // blockquotes, lists, details
			}
		}
	}
}

// heading starts a section at a heading, with the anchor the document gives it.
func (x *textReader) heading(h *ast.Heading) {
	x.flush()
	id := ""
	if v, ok := h.AttributeString("id"); ok {
		if b, ok := v.([]byte); ok && validAnchor(string(b)) {
			id = string(b)
		}
	}
	var stop ast.Node
	if anchor, open := trailingAnchor(h, x.src); open != nil {
		id, stop = anchor, open
	}
	var b strings.Builder
	for ch := h.FirstChild(); ch != nil && ch != stop; ch = ch.NextSibling() {
		x.inline(&b, ch)
	}
	title := strings.Join(strings.Fields(b.String()), " ")
	x.cur = Section{Anchor: x.anchors.Next(id, title), Title: title}
}

// linesText joins a block's source lines.
func (x *textReader) linesText(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(x.src))
	}
	return b.String()
}

// rawLines adds a block's source lines.
func (x *textReader) rawLines(n ast.Node) {
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		x.line(string(seg.Value(x.src)))
	}
}

// inlineText is the text of a block's inline children.
func (x *textReader) inlineText(n ast.Node) string {
	var b strings.Builder
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		x.inline(&b, ch)
	}
	return b.String()
}

// inline writes an inline node's text: what a reader sees of it, without markup.
func (x *textReader) inline(b *strings.Builder, n ast.Node) {
	switch n := n.(type) {
	case *ast.Text:
		if isIconText(n, x.src) {
			return
		}
		if n.IsRaw() {
			b.Write(n.Segment.Value(x.src))
		} else {
			b.WriteString(unescape(n.Segment.Value(x.src)))
		}
		if n.HardLineBreak() || n.SoftLineBreak() {
			b.WriteByte(' ')
		}
	case *ast.String:
		b.Write(n.Value)
	case *ast.AutoLink:
		b.Write(n.Label(x.src))
	case *ast.RawHTML:
		b.WriteByte(' ') // a tag separates words
	case *mathInline:
		b.WriteString(n.Formula)
	case *expressionInline:
		b.WriteString(n.Expression)
	case *emojiInline:
		b.WriteString(n.Emoji)
	default:
		for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
			x.inline(b, ch)
		}
	}
}
