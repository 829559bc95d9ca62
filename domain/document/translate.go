package document

import (
	"html"
	"reflect"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// This file finds the text of a markdown page that a translator may change, and writes
// translated text back in place. Everything that is not text (the block structure, code, inline
// code, URLs and link targets, file references, images, expressions, math, raw HTML, GitBook
// tags and their attributes, front matter) is never offered and stays byte for byte.

// TextRun is one stretch of a page's text as a reader sees it (escapes resolved, a soft line
// break read as a space, outer white space trimmed), with where it stands in the markdown.
type TextRun struct {
	Text        string
	start, stop int // in the normalized source (CRLF read as LF)
	lineStart   bool
	html        bool // text of an HTML block: written back HTML-escaped
}

// TextRuns returns the translatable text of markdown, in document order. A run is the text
// between two pieces of inline syntax (a run of plain text, the text inside emphasis, a link's
// text, a table cell); it spans soft line breaks where the next line starts with nothing but
// indentation. Runs holding only white space are left out.
func TextRuns(markdownText string) []TextRun {
	src, _ := normalizeNewlines(markdownText)
	root := markdown.Parser().Parse(text.NewReader(src))
	skipBefore := frontMatterEnd(src)
	var runs []TextRun
	var cur []*ast.Text
	flush := func() {
		if len(cur) > 0 {
			if r, ok := newRun(cur, src); ok && r.start >= skipBefore {
				runs = append(runs, r)
			}
		}
		cur = nil
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			flush()
			runs = append(runs, htmlBlockRuns(n, src, skipBefore)...)
			return ast.WalkSkipChildren, nil
		case *ast.CodeSpan, *ast.Image, *ast.AutoLink, *ast.RawHTML, *ast.CodeBlock, *ast.FencedCodeBlock, *mathBlock, *mathInline, *expressionInline:
			flush()
			return ast.WalkSkipChildren, nil
		case *tagBlock:
			// A content-ref's and an OpenAPI block's bodies are GitBook's copy of their target.
			switch n.Name {
			case "content-ref", "openapi", "openapi-operation", "openapi-schemas", "openapi-webhook":
				flush()
				return ast.WalkSkipChildren, nil
			}
		case *ast.Text:
			if n.IsRaw() || isIconText(n, src) {
				flush()
				return ast.WalkContinue, nil
			}
			if len(cur) > 0 && !joins(cur[len(cur)-1], n, src) {
				flush()
			}
			cur = append(cur, n)
			return ast.WalkContinue, nil
		}
		flush()
		return ast.WalkContinue, nil
	})
	flush()
	return runs
}

// htmlBlockRuns are the text runs of an HTML block (cards, tables, figures): its text between
// tags, outside code, scripts and icons. A block whose lines are not one stretch of the source
// (inside a quote or a list) offers none.
func htmlBlockRuns(n *ast.HTMLBlock, src []byte, skipBefore int) []TextRun {
	lines := n.Lines()
	if lines.Len() == 0 {
		return nil
	}
	start, stop := lines.At(0).Start, lines.At(lines.Len()-1).Stop
	for i := 1; i < lines.Len(); i++ {
		if lines.At(i).Start != lines.At(i-1).Stop {
			return nil
		}
	}
	if n.HasClosure() {
		if n.ClosureLine.Start != stop {
			return nil
		}
		stop = n.ClosureLine.Stop
	}
	var runs []TextRun
	htmlTextSpans(src[start:stop], func(text string, from, to int, _ bool) {
		if start+from >= skipBefore && text != "" {
			runs = append(runs, TextRun{Text: text, start: start + from, stop: start + to, html: true})
		}
	})
	return runs
}

// joins reports whether text node b continues the run that a ends: b follows a directly, or
// after a soft line break with nothing but indentation before it.
func joins(a, b *ast.Text, src []byte) bool {
	if a.NextSibling() != b || a.HardLineBreak() {
		return false
	}
	if a.Segment.Stop == b.Segment.Start {
		return true
	}
	if !a.SoftLineBreak() || a.Segment.Stop > b.Segment.Start {
		return false
	}
	gap := string(src[a.Segment.Stop:b.Segment.Start])
	return strings.Count(gap, "\n") == 1 && strings.TrimLeft(gap, " \t\n") == ""
}

// newRun makes a run of consecutive text nodes; ok is false when it holds no text.
func newRun(nodes []*ast.Text, src []byte) (TextRun, bool) {
	var b strings.Builder
	for i, n := range nodes {
		b.WriteString(unescape(n.Segment.Value(src)))
		if i < len(nodes)-1 && n.SoftLineBreak() {
			b.WriteByte(' ')
		}
	}
	start, stop := nodes[0].Segment.Start, nodes[len(nodes)-1].Segment.Stop
	for start < stop && isSpaceByte(src[start]) {
		start++
	}
	for stop > start && isSpaceByte(src[stop-1]) {
		stop--
	}
	txt := strings.TrimSpace(b.String())
	if txt == "" || start == stop {
		return TextRun{}, false
	}
	return TextRun{Text: txt, start: start, stop: stop, lineStart: startsLineAt(nodes[0], start, src), html: inHTMLElement(nodes[0], src)}, true
}

// startsLineAt reports whether pos starts a line of n's block content (after indentation).
func startsLineAt(n ast.Node, pos int, src []byte) bool {
	block := n.Parent()
	for block != nil && block.Type() != ast.TypeBlock {
		block = block.Parent()
	}
	if block == nil {
		return true
	}
	lines := block.Lines()
	i := sort.Search(lines.Len(), func(i int) bool { return lines.At(i).Start > pos }) - 1
	if i < 0 {
		return true
	}
	seg := lines.At(i)
	start := seg.Start
	for start < seg.Stop && (src[start] == ' ' || src[start] == '\t') {
		start++
	}
	return start == pos
}

// frontMatterEnd is the offset where a leading YAML front matter block (--- … ---) ends, or 0.
func frontMatterEnd(src []byte) int {
	s := string(src)
	if !strings.HasPrefix(s, "---\n") {
		return 0
	}
	rest := s[4:]
	for off := 0; off <= len(rest); {
		nl := strings.IndexByte(rest[off:], '\n')
		line := rest[off:]
		if nl >= 0 {
			line = rest[off : off+nl]
		}
		if strings.TrimRight(line, " \t") == "---" {
			end := 4 + off + len(line)
			if nl >= 0 {
				end++
			}
			return end
		}
		if nl < 0 {
			return 0
		}
		off += nl + 1
	}
	return 0
}

// ReplaceTextRuns writes texts[i] in place of runs[i] (runs as TextRuns returned them for the
// same markdown), escaped so that markdown reads each back as plain text. An empty text keeps the
// run as it was. Everything else, line endings included, is kept byte for byte.
func ReplaceTextRuns(markdownText string, runs []TextRun, texts []string) string {
	_, crs := normalizeNewlines(markdownText)
	var b strings.Builder
	last := 0
	for i, r := range runs {
		if i >= len(texts) {
			break
		}
		t := strings.TrimSpace(strings.Join(strings.Fields(texts[i]), " "))
		if t == "" {
			continue
		}
		start, stop := originalOffset(r.start, crs), originalOffset(r.stop, crs)
		if start < last {
			continue // never: runs do not overlap
		}
		b.WriteString(markdownText[last:start])
		if r.html {
			b.WriteString(html.EscapeString(t))
		} else {
			b.WriteString(escapeMarkdown(t, r.lineStart))
		}
		last = stop
	}
	b.WriteString(markdownText[last:])
	return b.String()
}

// SameShape reports whether two markdown texts give documents of the same shape: the same
// nodes, types, keys, marks, data and fragments, whatever their text (see Shape).
func SameShape(a, b string) bool {
	return reflect.DeepEqual(Shape(FromMarkdown(a, nil)), Shape(FromMarkdown(b, nil)))
}

// Shape is the document with its text taken out: every leaf's text, a table column's title (its
// header cell's text), a button's label and kept HTML are emptied; everything else is kept.
func Shape(doc Document) Document {
	doc.Nodes = shapeNodes(doc.Nodes)
	return doc
}

func shapeNodes(nodes []Node) []Node {
	out := make([]Node, len(nodes))
	for i, n := range nodes {
		n.Nodes = shapeNodes(n.Nodes)
		if n.Leaves != nil {
			leaves := make([]Leaf, len(n.Leaves))
			for j, l := range n.Leaves {
				leaves[j] = Leaf{Marks: l.Marks}
			}
			n.Leaves = leaves
		}
		n.Fragments = mapFragments(n.Fragments, shapeNodes)
		switch n.Type {
		case "table":
			n.Data = untitledColumns(n.Data)
		case "button": // a button's label is its text
			n.Data = cloneData(n.Data)
			n.Data["label"] = ""
		case "html": // kept HTML holds its text (translated in place) with its markup
			n.Data = cloneData(n.Data)
			n.Data["html"] = ""
		}
		out[i] = n
	}
	return out
}

// untitledColumns copies a table's data with its column titles emptied.
func untitledColumns(data map[string]any) map[string]any {
	def, ok := data["definition"].(map[string]any)
	if !ok {
		return data
	}
	out := cloneData(data)
	cols := map[string]any{}
	for id, c := range def {
		if col, ok := c.(map[string]any); ok {
			col = cloneData(col)
			col["title"] = ""
			cols[id] = col
			continue
		}
		cols[id] = c
	}
	out["definition"] = cols
	return out
}
