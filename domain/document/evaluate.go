package document

// This file evaluates GitBook's inline expressions (evaluated content): in a document tree, where
// each expression node the evaluator answers becomes a text node, and in markdown, where each
// <code class="expression">…</code> element the evaluator answers becomes its value as text. The
// language itself lives with the evaluator (domain/expr); this file only finds the expressions and
// puts the values in their place.

import (
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Evaluator evaluates one expression; ok=false leaves it as written (e.g. non-deterministic under
// deterministic-only).
type Evaluator func(expression string) (value string, ok bool, err error)

// evaluation is one expression's outcome.
type evaluation struct {
	value string
	ok    bool
	err   string // non-empty when the evaluation failed
}

// evaluations asks an evaluator about each expression once (so that every now() of a document
// reads the same instant) and turns a panic into an error.
type evaluations struct {
	eval Evaluator
	seen map[string]evaluation
}

func (e *evaluations) get(expression string) evaluation {
	if r, ok := e.seen[expression]; ok {
		return r
	}
	r := e.run(expression)
	if e.seen == nil {
		e.seen = map[string]evaluation{}
	}
	e.seen[expression] = r
	return r
}

func (e *evaluations) run(expression string) (r evaluation) {
	defer func() {
		if p := recover(); p != nil {
			r = evaluation{err: fmt.Sprintf("evaluation failed: %v", p)}
		}
	}()
	if e.eval == nil {
		return evaluation{}
	}
	value, ok, err := e.eval(expression)
	switch {
	case err != nil:
		msg := err.Error()
		if msg == "" {
			msg = "evaluation failed"
		}
		return evaluation{err: msg}
	case ok:
		return evaluation{value: value, ok: true}
	}
	return evaluation{}
}

// Evaluate returns a copy of doc where every expression node the evaluator answers is replaced by a
// text node with the value; an expression that fails keeps its node and gets data.error = the
// message (never panics).
//
// Expression nodes are looked for everywhere: in blocks, inlines and fragments. The value's text
// node has no marks, and it joins the text around it into one text node, as FromMarkdown writes
// text. An expression the evaluator leaves (ok=false, no error) keeps its node unchanged. Each
// distinct expression is evaluated once per call. doc is not modified.
func Evaluate(doc Document, eval Evaluator) Document {
	ev := &evaluations{eval: eval}
	return Document{Object: doc.Object, Data: cloneData(doc.Data), Nodes: ev.nodes(doc.Nodes)}
}

// nodes returns a copy of nodes with the expressions evaluated.
func (e *evaluations) nodes(nodes []Node) []Node {
	if nodes == nil {
		return nil
	}
	out := make([]Node, 0, len(nodes))
	replaced := false
	for _, n := range nodes {
		if n.Object == ObjectInline && n.Type == "expression" {
			expression, _ := n.Data["expression"].(string)
			switch r := e.get(expression); {
			case r.err != "":
				n = copyNode(n)
				if n.Data == nil {
					n.Data = map[string]any{}
				}
				n.Data["expression"] = expression
				n.Data["error"] = r.err
				out = append(out, n)
			case r.ok:
				out = append(out, textNode(r.value))
				replaced = true
			default:
				out = append(out, copyNode(n))
			}
			continue
		}
		c := copyNode(n)
		c.Nodes = e.nodes(n.Nodes)
		for i, f := range c.Fragments {
			c.Fragments[i].Nodes = e.nodes(f.Nodes)
		}
		out = append(out, c)
	}
	if replaced {
		out = joinText(out)
	}
	return out
}

// mapFragments returns copies of fragments whose nodes are fn's of theirs; nil stays nil.
func mapFragments(fragments []Fragment, fn func([]Node) []Node) []Fragment {
	if fragments == nil {
		return nil
	}
	out := make([]Fragment, len(fragments))
	for i, f := range fragments {
		f.Nodes = fn(f.Nodes)
		out[i] = f
	}
	return out
}

// copyNode copies a node's own fields (data deeply; leaves, marks and fragments as new slices), not
// its children: the caller sets Nodes and the fragments' Nodes.
func copyNode(n Node) Node {
	c := n
	c.Data = cloneData(n.Data)
	if n.Fragments != nil {
		c.Fragments = make([]Fragment, len(n.Fragments))
		copy(c.Fragments, n.Fragments)
	}
	if n.Leaves != nil {
		c.Leaves = make([]Leaf, len(n.Leaves))
		for i, l := range n.Leaves {
			c.Leaves[i] = Leaf{Text: l.Text, Marks: cloneMarks(l.Marks)}
		}
	}
	return c
}

func cloneMarks(marks []Mark) []Mark {
	if marks == nil {
		return nil
	}
	out := make([]Mark, len(marks))
	for i, m := range marks {
		out[i] = Mark{Type: m.Type, Data: cloneData(m.Data)}
	}
	return out
}

func cloneData(d map[string]any) map[string]any {
	if d == nil {
		return nil
	}
	out := maps.Clone(d)
	for k, v := range out {
		out[k] = cloneValue(v)
	}
	return out
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return cloneData(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = cloneValue(x)
		}
		return out
	}
	return v
}

// joinText restores the text invariants of a list of inlines after values took the place of
// expressions: adjacent text nodes form one, adjacent leaves with the same marks form one, empty
// leaves go (a text node keeps one), empty text nodes next to inline nodes go, and the list keeps
// at least one node.
func joinText(nodes []Node) []Node {
	var out []Node
	for _, n := range nodes {
		if n.Object != ObjectText {
			out = append(out, n)
			continue
		}
		if k := len(out); k > 0 && out[k-1].Object == ObjectText {
			out[k-1].Leaves = append(out[k-1].Leaves, n.Leaves...)
			continue
		}
		out = append(out, n)
	}
	kept := out[:0]
	for _, n := range out {
		if n.Object == ObjectText {
			n.Leaves = joinLeaves(n.Leaves)
			if len(out) > 1 && isEmptyText(n) {
				continue
			}
		}
		kept = append(kept, n)
	}
	if len(kept) == 0 {
		return []Node{textNode("")}
	}
	return kept
}

func joinLeaves(leaves []Leaf) []Leaf {
	var out []Leaf
	var run strings.Builder // the text of the last leaf of out, built in linear time
	flush := func() {
		if len(out) > 0 {
			out[len(out)-1].Text = run.String()
		}
		run.Reset()
	}
	for _, l := range leaves {
		if l.Text == "" {
			continue
		}
		if k := len(out); k > 0 && equalMarks(out[k-1].Marks, l.Marks) {
			run.WriteString(l.Text)
			continue
		}
		flush()
		out = append(out, l)
		run.WriteString(l.Text)
	}
	flush()
	if len(out) == 0 {
		return []Leaf{{Text: "", Marks: []Mark{}}}
	}
	return out
}

func isEmptyText(n Node) bool {
	for _, l := range n.Leaves {
		if l.Text != "" {
			return false
		}
	}
	return true
}

// equalMarks compares marks with their data (a color mark's color, say).
func equalMarks(a, b []Mark) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Type != b[i].Type || len(a[i].Data) != len(b[i].Data) {
			return false
		}
		if len(a[i].Data) > 0 && !reflect.DeepEqual(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

// EvaluateMarkdown does the same on the markdown source: each expression element whose evaluation
// succeeds is replaced (by its source byte range from the goldmark AST, not by regex) with the
// value, escaped for markdown; failures are left as written. Returns the new markdown and the
// errors (expression → message).
//
// The elements evaluated are exactly those FromMarkdown turns into expression nodes (not those in
// code, link text, image alt text or table header cells). The rest of the markdown, line endings
// included, is kept byte for byte. The errors map is never nil.
func EvaluateMarkdown(markdownText string, eval Evaluator) (string, map[string]string) {
	errs := map[string]string{}
	src, crs := normalizeNewlines(markdownText)
	root := markdown.Parser().Parse(text.NewReader(src))
	type element struct {
		start, stop int // in src
		expression  string
		lineStart   bool
	}
	var elements []element
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if e, ok := n.(*expressionInline); ok && entering && emitsExpression(e) {
			elements = append(elements, element{e.Segment.Start, e.Segment.Stop, e.Expression, startsLine(e, src)})
		}
		return ast.WalkContinue, nil
	})
	if len(elements) == 0 {
		return markdownText, errs
	}
	sort.Slice(elements, func(i, j int) bool { return elements[i].start < elements[j].start })
	ev := &evaluations{eval: eval}
	var b strings.Builder
	last := 0 // in markdownText
	for _, el := range elements {
		r := ev.get(el.expression)
		if r.err != "" {
			errs[el.expression] = r.err
		}
		if !r.ok {
			continue
		}
		start, stop := originalOffset(el.start, crs), originalOffset(el.stop, crs)
		if start < last {
			continue // never: elements do not overlap
		}
		b.WriteString(markdownText[last:start])
		b.WriteString(escapeMarkdown(r.value, el.lineStart))
		last = stop
	}
	b.WriteString(markdownText[last:])
	return b.String(), errs
}

// normalizeNewlines reads CRLF as LF, as FromMarkdown does, and returns the positions (in the
// result) where a CR was dropped, for originalOffset.
func normalizeNewlines(s string) ([]byte, []int) {
	if !strings.Contains(s, "\r\n") {
		return []byte(s), nil
	}
	out := make([]byte, 0, len(s))
	var crs []int
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			crs = append(crs, len(out))
			continue
		}
		out = append(out, s[i])
	}
	return out, crs
}

// originalOffset maps an offset in the normalized text back to the original one.
func originalOffset(p int, crs []int) int {
	return p + sort.SearchInts(crs, p)
}

// startsLine reports whether the element starts a line of its block's content (after any list
// marker or quote marker): there a value could open a block of its own.
func startsLine(e *expressionInline, src []byte) bool {
	block := e.Parent()
	for block != nil && block.Type() != ast.TypeBlock {
		block = block.Parent()
	}
	if block == nil {
		return true
	}
	// The block's lines are in source order: look at the last one starting before the element.
	lines := block.Lines()
	i := sort.Search(lines.Len(), func(i int) bool { return lines.At(i).Start > e.Segment.Start }) - 1
	if i < 0 {
		return false
	}
	seg := lines.At(i)
	start := seg.Start
	for start < seg.Stop && (src[start] == ' ' || src[start] == '\t') {
		start++
	}
	return start == e.Segment.Start
}

// escapeMarkdown writes value so that markdown reads it back as that text, inline, wherever an
// expression element can stand (a paragraph, a heading, a list item, a table cell, a summary):
//
//   - characters that open or close inline syntax (\ ` * _ [ ] < > | ~ $ { #) get a backslash, and
//     & does when it could start a character reference;
//   - a line break becomes <br> (which FromMarkdown reads as a line break), and a CR &#13;;
//   - leading and trailing spaces and tabs become character references, so that they are not
//     trimmed or taken for indentation or a hard line break;
//   - at the start of a line of the block's content, a first - + or = gets a backslash (a list
//     item, a setext underline), and so does a . or ) after leading digits when a space or the
//     end follows (an ordered list).
func escapeMarkdown(value string, lineStart bool) string {
	var b strings.Builder
	lead := len(value) - len(strings.TrimLeft(value, " \t"))
	trail := len(value) - len(strings.TrimRight(value, " \t"))
	if lead == len(value) {
		trail = 0
	}
	digits := lineStart // only digits so far, at the start of a line
	for i := 0; i < len(value); {
		ch := value[i]
		if ch >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(value[i:])
			b.WriteString(value[i : i+size])
			i += size
			digits = false
			continue
		}
		if (i < lead || i >= len(value)-trail) && (ch == ' ' || ch == '\t') {
			if ch == ' ' {
				b.WriteString("&#32;")
			} else {
				b.WriteString("&#9;")
			}
			i++
			continue
		}
		switch {
		case ch == '\n':
			b.WriteString("<br>")
		case ch == '\r':
			b.WriteString("&#13;")
		case strings.IndexByte("\\`*_[]<>|~${#", ch) >= 0:
			b.WriteByte('\\')
			b.WriteByte(ch)
		case ch == '&' && i+1 < len(value) && (value[i+1] == '#' || isASCIILetter(value[i+1])):
			b.WriteString(`\&`)
		case lineStart && i == lead && (ch == '-' || ch == '+' || ch == '='):
			b.WriteByte('\\')
			b.WriteByte(ch)
		case digits && i > lead && (ch == '.' || ch == ')') && (i+1 == len(value) || value[i+1] == ' ' || value[i+1] == '\t'):
			b.WriteByte('\\')
			b.WriteByte(ch)
		default:
			b.WriteByte(ch)
		}
		if ch < '0' || ch > '9' {
			digits = false
		}
		i++
	}
	return b.String()
}

func isASCIILetter(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

// KeepConditional returns markdown without the conditional blocks ({% if expression %} …
// {% endif %}) whose expression does not hold (holds says, for a visitor): their lines are taken
// out whole, tag lines included. A block whose end tag never comes is taken out to the end.
// Everything else is kept byte for byte, CRLF line endings included.
func KeepConditional(markdownText string, holds func(expression string) bool) string {
	if !strings.Contains(markdownText, "{%") {
		return markdownText
	}
	src, crs := normalizeNewlines(markdownText)
	root := markdown.Parser().Parse(text.NewReader(src))
	var cut [][2]int
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*tagBlock)
		if !entering || !ok || t.Name != "if" {
			return ast.WalkContinue, nil
		}
		if holds(t.Attrs["expression"]) {
			return ast.WalkContinue, nil
		}
		to := t.To
		if to < 0 {
			to = len(src)
		}
		cut = append(cut, [2]int{t.From, to})
		return ast.WalkSkipChildren, nil
	})
	if len(cut) == 0 {
		return markdownText
	}
	var b strings.Builder
	last := 0
	for _, c := range cut {
		from, to := originalOffset(c[0], crs), originalOffset(c[1], crs)
		if from < last {
			continue
		}
		b.WriteString(markdownText[last:from])
		last = to
	}
	b.WriteString(markdownText[min(last, len(markdownText)):])
	return b.String()
}
