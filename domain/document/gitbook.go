package document

// This file holds the goldmark extension that teaches the markdown parser GitBook's block syntax:
//
//   - Liquid-style tags on a line of their own: {% hint style="info" %} … {% endhint %},
//     {% tabs %} {% tab title="A" %} … {% endtab %} {% endtabs %}, {% code title="x" %} … {% endcode %},
//     {% content-ref url="x" %} … {% endcontent-ref %} (containers), and {% embed url="x" %},
//     {% file src="x" %} (void, with an optional {% endembed %} / {% endfile %} after a caption,
//     on the following lines or on the tag's own line);
//   - <details><summary>Title</summary> … </details> (GitBook's expandable block);
//   - $$ … $$ display math on lines of their own, and $$…$$ inline math;
//   - <code class="expression">…</code>, GitBook's inline expression (evaluated content).
//
// Containers are real goldmark container blocks, like a blockquote: their Continue keeps them open
// (parser.Continue|parser.HasChildren) until their end tag, and goldmark parses everything in
// between as ordinary child blocks. Because the outermost open block sees each line first, an end
// tag goes to the innermost open container of its name (nested tabs), looked up once per line on
// the stack of open blocks; an open fenced code or math block inside that container keeps the line
// as its content (an end tag quoted in code is code). A container whose end tag never comes closes
// at the end of the input (or of its enclosing container).

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark-emoji/definition"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// gitbookExtension registers the GitBook block and inline parsers on a goldmark parser.
type gitbookExtension struct{}

func (gitbookExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			// Before the HTML block parser (900) so <details> is ours; '{' and '$' compete with
			// nothing but the paragraph parser.
			util.Prioritized(&containerTagParser{name: "hint"}, 50),
			util.Prioritized(&containerTagParser{name: "tabs"}, 50),
			util.Prioritized(&containerTagParser{name: "tab", parent: "tabs"}, 50),
			util.Prioritized(&containerTagParser{name: "code"}, 50),
			util.Prioritized(&containerTagParser{name: "content-ref"}, 50),
			util.Prioritized(&containerTagParser{name: "stepper"}, 50),
			util.Prioritized(&containerTagParser{name: "step", parent: "stepper"}, 50),
			util.Prioritized(&containerTagParser{name: "columns"}, 50),
			util.Prioritized(&containerTagParser{name: "column", parent: "columns"}, 50),
			util.Prioritized(&containerTagParser{name: "updates"}, 50),
			util.Prioritized(&containerTagParser{name: "update", parent: "updates"}, 50),
			util.Prioritized(&containerTagParser{name: "if"}, 50),
			util.Prioritized(&containerTagParser{name: "prompt"}, 50),
			// OpenAPI blocks: GitBook writes a link to the specification as their body.
			util.Prioritized(&containerTagParser{name: "openapi"}, 50),
			util.Prioritized(&containerTagParser{name: "openapi-operation"}, 50),
			util.Prioritized(&containerTagParser{name: "openapi-schemas"}, 50),
			util.Prioritized(&containerTagParser{name: "openapi-webhook"}, 50),
			// GitBook's legacy API block, written out in the page: its description, parameters
			// and responses are its children.
			util.Prioritized(&containerTagParser{name: "swagger"}, 50),
			util.Prioritized(&containerTagParser{name: "swagger-description", parent: "swagger"}, 50),
			util.Prioritized(&containerTagParser{name: "swagger-parameter", parent: "swagger"}, 50),
			util.Prioritized(&containerTagParser{name: "swagger-response", parent: "swagger"}, 50),
			util.Prioritized(&voidTagParser{name: "embed", endName: "endembed"}, 50),
			util.Prioritized(&voidTagParser{name: "file", endName: "endfile"}, 50),
			util.Prioritized(&voidTagParser{name: "include"}, 50),
			util.Prioritized(&endMarkerParser{names: []string{"endembed", "endfile"}}, 50),
			util.Prioritized(&detailsParser{}, 50),
			util.Prioritized(&mathBlockParser{}, 50),
		),
		parser.WithInlineParsers(
			util.Prioritized(&inlineMathParser{}, 50),
			// Before the autolink (300) and raw HTML (400) parsers, which also start at '<'.
			util.Prioritized(&expressionParser{}, 50),
			util.Prioritized(&emojiParser{}, 50),
		),
	)
}

// ---------------------------------------------------------------------------------------------
// AST nodes

var (
	kindTag       = ast.NewNodeKind("GitBookTag")
	kindEndMarker = ast.NewNodeKind("GitBookEndMarker")
	kindDetails   = ast.NewNodeKind("GitBookDetails")
	kindSummary   = ast.NewNodeKind("GitBookSummary")
	kindMathBlock = ast.NewNodeKind("GitBookMathBlock")
	kindMath      = ast.NewNodeKind("GitBookInlineMath")
	kindExpr      = ast.NewNodeKind("GitBookExpression")
)

// tagBlock is a GitBook {% name attr="value" %} tag. Container tags hold the blocks up to their end
// tag as children; void tags have none.
type tagBlock struct {
	ast.BaseBlock
	Name  string
	Attrs map[string]string
	Void  bool
	// From and To are where a container's lines start (its tag line's start) and end (after its
	// end tag's line) in the source; To is -1 while its end tag has not come.
	From, To int
}

func (n *tagBlock) Kind() ast.NodeKind { return kindTag }

func (n *tagBlock) Dump(source []byte, level int) {
	kv := map[string]string{"Name": n.Name}
	for k, v := range n.Attrs {
		kv["@"+k] = v
	}
	ast.DumpHelper(n, source, level, kv, nil)
}

// endMarker is a stray end tag that only ends an optional caption ({% endembed %}, {% endfile %}).
// It produces no output.
type endMarker struct {
	ast.BaseBlock
	Name string
}

func (n *endMarker) Kind() ast.NodeKind { return kindEndMarker }

func (n *endMarker) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

// detailsBlock is <details> … </details>. Its summary, when given as <summary>…</summary> on its own
// line (or on the <details> line), is its first child, a summaryBlock.
type detailsBlock struct {
	ast.BaseBlock
	Summary *summaryBlock
}

func (n *detailsBlock) Kind() ast.NodeKind { return kindDetails }

func (n *detailsBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// summaryBlock holds the inline text of a <summary> element; goldmark parses its lines as inlines.
type summaryBlock struct {
	ast.BaseBlock
}

func (n *summaryBlock) Kind() ast.NodeKind { return kindSummary }

func (n *summaryBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// mathBlock is $$ … $$ display math; its lines are the formula, kept raw.
type mathBlock struct {
	ast.BaseBlock
}

func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }
func (n *mathBlock) IsRaw() bool        { return true }

func (n *mathBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// mathInline is $$…$$ inside text.
type mathInline struct {
	ast.BaseInline
	Formula string
}

func (n *mathInline) Kind() ast.NodeKind { return kindMath }

func (n *mathInline) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Formula": n.Formula}, nil)
}

// expressionInline is <code class="expression">…</code> inside text: Expression is the element's
// text with character references resolved; Segment is the whole element in the source.
type expressionInline struct {
	ast.BaseInline
	Expression string
	Segment    text.Segment
}

func (n *expressionInline) Kind() ast.NodeKind { return kindExpr }

func (n *expressionInline) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Expression": n.Expression}, nil)
}

// ---------------------------------------------------------------------------------------------
// Tag syntax

// liquidTag is one parsed {% name key="value" … %}.
type liquidTag struct {
	name  string
	attrs map[string]string
}

// lineRest returns the part of the reader's current line from the block offset on, without its
// line ending, or ok=false when the line is blank or indented as code.
func lineRest(reader text.Reader, pc parser.Context) (string, bool) {
	line, _ := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || pos >= len(line) {
		return "", false
	}
	return strings.TrimRight(string(line[pos:]), " \t\r\n"), true
}

// currentLine returns the reader's current line, trimmed of surrounding white space.
func currentLine(reader text.Reader) string {
	line, _ := reader.PeekLine()
	return strings.TrimSpace(string(line))
}

// parseLiquidTag reads a whole line holding exactly one tag: {% name attr="v" attr='v' attr=v flag %}.
func parseLiquidTag(s string) (liquidTag, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{%") || !strings.HasSuffix(s, "%}") || len(s) < 4 {
		return liquidTag{}, false
	}
	body := strings.TrimSpace(s[2 : len(s)-2])
	// Liquid's whitespace-control dashes: {%- name -%}.
	body = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(body, "-"), "-"))
	i := 0
	for i < len(body) && isNameByte(body[i]) {
		i++
	}
	if i == 0 {
		return liquidTag{}, false
	}
	tag := liquidTag{name: strings.ToLower(body[:i])}
	attrs, ok := parseAttributes(body[i:])
	if !ok {
		return liquidTag{}, false
	}
	tag.attrs = attrs
	return tag, true
}

// parseIfTag reads GitBook's conditional block tag, {% if expression %}: its one "attribute" is
// the expression as written (an expr-lang condition, not key="value" pairs).
func parseIfTag(s string) (liquidTag, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{%") || !strings.HasSuffix(s, "%}") || len(s) < 4 {
		return liquidTag{}, false
	}
	body := strings.TrimSpace(s[2 : len(s)-2])
	body = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(body, "-"), "-"))
	rest, ok := strings.CutPrefix(body, "if")
	expression := strings.TrimSpace(rest)
	if !ok || expression == "" || !isSpaceByte(rest[0]) {
		return liquidTag{}, false
	}
	return liquidTag{name: "if", attrs: map[string]string{"expression": expression}}, true
}

// parseIncludeTag reads GitBook's reusable content tag, {% include "path" %}: its one argument,
// the included file's path, is kept as the attribute src.
func parseIncludeTag(s string) (liquidTag, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{%") || !strings.HasSuffix(s, "%}") || len(s) < 4 {
		return liquidTag{}, false
	}
	body := strings.TrimSpace(s[2 : len(s)-2])
	body = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(body, "-"), "-"))
	rest, ok := strings.CutPrefix(body, "include")
	rest = strings.TrimSpace(rest)
	if !ok || len(rest) < 3 || (rest[0] != '"' && rest[0] != '\'') || rest[len(rest)-1] != rest[0] {
		return liquidTag{}, false
	}
	path := rest[1 : len(rest)-1]
	if strings.ContainsAny(path, "\"'") {
		return liquidTag{}, false
	}
	return liquidTag{name: "include", attrs: map[string]string{"src": path}}, true
}

func isNameByte(c byte) bool {
	return c == '-' || c == '_' || c == ':' || c == '.' ||
		('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// parseAttributes reads `key="value" key='value' key=value flag` pairs (as in a liquid tag or an
// HTML start tag). Keys are lower-cased; a bare key has the value "true"; character references in
// values are resolved. ok=false when something else is in the way.
func parseAttributes(s string) (map[string]string, bool) {
	attrs := map[string]string{}
	i := 0
	for {
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i >= len(s) {
			return attrs, true
		}
		start := i
		for i < len(s) && isNameByte(s[i]) {
			i++
		}
		if i == start {
			return nil, false
		}
		key := strings.ToLower(s[start:i])
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i >= len(s) || s[i] != '=' {
			attrs[key] = "true"
			continue
		}
		i++
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i >= len(s) {
			return nil, false
		}
		var value string
		switch q := s[i]; q {
		case '"', '\'':
			end := strings.IndexByte(s[i+1:], q)
			if end < 0 {
				return nil, false
			}
			value = s[i+1 : i+1+end]
			i += end + 2
		default:
			start := i
			for i < len(s) && !isSpaceByte(s[i]) {
				i++
			}
			value = s[start:i]
		}
		attrs[key] = string(util.ResolveEntityNames(util.ResolveNumericReferences([]byte(value))))
	}
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// endTagName returns the container an end-tag line ends: "hint" for {% endhint %}, "details" for
// </details>.
func endTagName(line []byte) (string, bool) {
	line = bytes.TrimSpace(line)
	if bytes.EqualFold(line, []byte("</details>")) {
		return "details", true
	}
	if !bytes.HasPrefix(line, []byte("{%")) || !bytes.HasSuffix(line, []byte("%}")) {
		return "", false
	}
	tag, ok := parseLiquidTag(string(line))
	if !ok || len(tag.attrs) != 0 || !strings.HasPrefix(tag.name, "end") {
		return "", false
	}
	return strings.TrimPrefix(tag.name, "end"), true
}

var endTagKey = parser.NewContextKey()

// endTagInfo caches, for one reader position, which open block the line there closes.
type endTagInfo struct {
	line, start, padding int
	owner                ast.Node
}

// endTagOwner returns the open container the reader's current line closes, or nil. The innermost
// open container of the end tag's name takes it, unless a fenced code or math block is open inside
// that one (an end tag quoted in code is code). The answer is computed once per line and reader
// position, so a stack of open containers costs linear time per line.
func endTagOwner(reader text.Reader, pc parser.Context) ast.Node {
	line, seg := reader.PeekLine()
	lineNum, _ := reader.Position()
	if v, ok := pc.Get(endTagKey).(*endTagInfo); ok && v.line == lineNum && v.start == seg.Start && v.padding == seg.Padding {
		return v.owner
	}
	info := &endTagInfo{line: lineNum, start: seg.Start, padding: seg.Padding}
	pc.Set(endTagKey, info)
	name, ok := endTagName(line)
	if !ok {
		return nil
	}
	blocks := pc.OpenedBlocks()
	for i := len(blocks) - 1; i >= 0; i-- {
		switch b := blocks[i].Node.(type) {
		case *ast.FencedCodeBlock, *mathBlock:
			return nil
		case *tagBlock:
			if !b.Void && b.Name == name {
				info.owner = b
				return b
			}
		case *detailsBlock:
			if name == "details" {
				info.owner = b
				return b
			}
		}
	}
	return nil
}

// maxOpenBlocks bounds how deep GitBook containers open: every line visits each open block, so
// unbounded nesting would make parsing quadratic. A tag past the bound stays text.
const maxOpenBlocks = 64

func tooDeep(pc parser.Context) bool { return len(pc.OpenedBlocks()) >= maxOpenBlocks }

// ---------------------------------------------------------------------------------------------
// Block parsers

// containerTagParser parses {% name … %} … {% endname %}. When parent is set, the tag opens only
// directly inside an open container of that name ({% tab %} inside {% tabs %}).
type containerTagParser struct {
	name   string
	parent string
}

func (p *containerTagParser) Trigger() []byte { return []byte{'{'} }

func (p *containerTagParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	rest, ok := lineRest(reader, pc)
	if !ok || tooDeep(pc) {
		return nil, parser.NoChildren
	}
	tag, ok := parseLiquidTag(rest)
	if p.name == "if" {
		tag, ok = parseIfTag(rest)
	}
	if !ok || tag.name != p.name {
		return nil, parser.NoChildren
	}
	if p.parent != "" {
		if t, ok := parent.(*tagBlock); !ok || t.Name != p.parent {
			return nil, parser.NoChildren
		}
	}
	_, seg := reader.PeekLine()
	from := bytes.LastIndexByte(reader.Source()[:seg.Start], '\n') + 1
	reader.AdvanceToEOL()
	return &tagBlock{Name: tag.name, Attrs: tag.attrs, From: from, To: -1}, parser.HasChildren
}

func (p *containerTagParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	if endTagOwner(reader, pc) == node {
		_, seg := reader.PeekLine()
		node.(*tagBlock).To = seg.Stop
		reader.AdvanceToEOL()
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

func (p *containerTagParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (p *containerTagParser) CanInterruptParagraph() bool                                { return true }
func (p *containerTagParser) CanAcceptIndentedLine() bool                                { return false }

// voidTagParser parses a one-line {% name … %} tag with no content.
type voidTagParser struct {
	name string
	// endName is the end tag that may close a caption written on the tag's line
	// ({% file src="x" %}caption{% endfile %}); empty when the tag takes none.
	endName string
}

func (p *voidTagParser) Trigger() []byte { return []byte{'{'} }

func (p *voidTagParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	rest, ok := lineRest(reader, pc)
	if !ok {
		return nil, parser.NoChildren
	}
	tag, ok := parseLiquidTag(rest)
	if p.name == "include" {
		tag, ok = parseIncludeTag(rest)
	}
	if !ok && p.endName != "" {
		return p.openCaptioned(rest, reader, pc)
	}
	if !ok || tag.name != p.name {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &tagBlock{Name: tag.name, Attrs: tag.attrs, Void: true}, parser.NoChildren
}

// openCaptioned opens the one-line form of a captioned void tag, {% file src="x" %}caption{% endfile %}:
// the caption becomes the tag block's lines, which goldmark parses as inlines, as it does a
// paragraph's.
func (p *voidTagParser) openCaptioned(rest string, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	tag, from, to, ok := splitCaptionedTag(rest, p.name, p.endName)
	_, seg := reader.PeekLine()
	if !ok || seg.Padding != 0 {
		return nil, parser.NoChildren
	}
	n := &tagBlock{Name: tag.name, Attrs: tag.attrs, Void: true}
	if from < to {
		start := seg.Start + pc.BlockOffset()
		n.Lines().Append(text.NewSegment(start+from, start+to))
	}
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

// splitCaptionedTag reads {% name … %}caption{% endName %} on one line: the tag, and where its
// caption starts and ends in s (white space around it left out).
func splitCaptionedTag(s, name, endName string) (tag liquidTag, from, to int, ok bool) {
	end := strings.LastIndex(s, "{%")
	if end < 0 {
		return liquidTag{}, 0, 0, false
	}
	closing, ok := parseLiquidTag(s[end:])
	if !ok || closing.name != endName || len(closing.attrs) != 0 {
		return liquidTag{}, 0, 0, false
	}
	// The opening tag ends at the first "%}" that leaves a whole tag (an attribute may quote "%}").
	for i := strings.Index(s, "%}"); i >= 0 && i+2 <= end; {
		if t, ok := parseLiquidTag(s[:i+2]); ok && t.name == name {
			from, to = i+2, end
			for from < to && isSpaceByte(s[from]) {
				from++
			}
			for to > from && isSpaceByte(s[to-1]) {
				to--
			}
			return t, from, to, true
		}
		next := strings.Index(s[i+2:], "%}")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	return liquidTag{}, 0, 0, false
}

func (p *voidTagParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	return parser.Close
}

func (p *voidTagParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (p *voidTagParser) CanInterruptParagraph() bool                                { return true }
func (p *voidTagParser) CanAcceptIndentedLine() bool                                { return false }

// endMarkerParser parses the optional end tags of void tags (GitBook writes an embed's or a file's
// caption between {% embed %} and {% endembed %}); the caption stays ordinary content.
type endMarkerParser struct {
	names []string
}

func (p *endMarkerParser) Trigger() []byte { return []byte{'{'} }

func (p *endMarkerParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	rest, ok := lineRest(reader, pc)
	if !ok {
		return nil, parser.NoChildren
	}
	tag, ok := parseLiquidTag(rest)
	if !ok || len(tag.attrs) != 0 {
		return nil, parser.NoChildren
	}
	for _, name := range p.names {
		if tag.name == name {
			reader.AdvanceToEOL()
			return &endMarker{Name: name}, parser.NoChildren
		}
	}
	return nil, parser.NoChildren
}

func (p *endMarkerParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	return parser.Close
}

func (p *endMarkerParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (p *endMarkerParser) CanInterruptParagraph() bool                                { return true }
func (p *endMarkerParser) CanAcceptIndentedLine() bool                                { return false }

// detailsParser parses <details> … </details>, each on a line of its own, with an optional
// <summary>…</summary> line (or the summary right after <details> on its line).
type detailsParser struct{}

func (p *detailsParser) Trigger() []byte { return []byte{'<'} }

func (p *detailsParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	rest, ok := lineRest(reader, pc)
	if !ok || tooDeep(pc) {
		return nil, parser.NoChildren
	}
	lower := strings.ToLower(rest)
	if !strings.HasPrefix(lower, "<details") || len(lower) < len("<details>") {
		return nil, parser.NoChildren
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 || (end != len("<details") && !isSpaceByte(rest[len("<details")])) {
		return nil, parser.NoChildren
	}
	if _, ok := parseAttributes(rest[len("<details"):end]); !ok {
		return nil, parser.NoChildren
	}
	node := &detailsBlock{}
	after := strings.TrimSpace(rest[end+1:])
	if after != "" {
		_, seg := reader.PeekLine()
		start := seg.Start + pc.BlockOffset() - seg.Padding + strings.Index(rest[end+1:], after) + end + 1
		if !p.takeSummary(node, after, start) {
			return nil, parser.NoChildren
		}
	}
	reader.AdvanceToEOL()
	return node, parser.HasChildren
}

// takeSummary makes s (at source offset start) the node's summary when it is one
// <summary>…</summary> element.
func (p *detailsParser) takeSummary(node *detailsBlock, s string, start int) bool {
	const open, closing = "<summary>", "</summary>"
	lower := strings.ToLower(s)
	if !strings.HasPrefix(lower, open) || !strings.HasSuffix(lower, closing) || len(s) < len(open)+len(closing) {
		return false
	}
	inner := s[len(open) : len(s)-len(closing)]
	if strings.Contains(strings.ToLower(inner), "<summary") {
		return false
	}
	summary := &summaryBlock{}
	seg := text.NewSegment(start+len(open), start+len(open)+len(inner))
	summary.Lines().Append(seg)
	node.Summary = summary
	node.AppendChild(node, summary)
	return true
}

func (p *detailsParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	d := node.(*detailsBlock)
	if endTagOwner(reader, pc) == node {
		reader.AdvanceToEOL()
		return parser.Close
	}
	// The summary comes first: before any other child and with no child block open.
	if d.Summary == nil && !node.HasChildren() {
		raw, seg := reader.PeekLine()
		lead := len(raw) - len(bytes.TrimLeft(raw, " \t"))
		if p.takeSummary(d, currentLine(reader), seg.Start-seg.Padding+lead) {
			reader.AdvanceToEOL()
			return parser.Continue | parser.NoChildren
		}
	}
	return parser.Continue | parser.HasChildren
}

func (p *detailsParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (p *detailsParser) CanInterruptParagraph() bool                                { return true }
func (p *detailsParser) CanAcceptIndentedLine() bool                                { return false }

// mathBlockParser parses display math: a line holding only $$, the formula lines, and a closing $$.
type mathBlockParser struct{}

func (p *mathBlockParser) Trigger() []byte { return []byte{'$'} }

func (p *mathBlockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	rest, ok := lineRest(reader, pc)
	if !ok || rest != "$$" {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &mathBlock{}, parser.NoChildren
}

func (p *mathBlockParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	if currentLine(reader) == "$$" {
		reader.AdvanceToEOL()
		return parser.Close
	}
	_, seg := reader.PeekLine()
	node.Lines().Append(seg)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (p *mathBlockParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (p *mathBlockParser) CanInterruptParagraph() bool                                { return true }
func (p *mathBlockParser) CanAcceptIndentedLine() bool                                { return false }

// inlineMathParser parses $$formula$$ within a line of text.
type inlineMathParser struct{}

func (p *inlineMathParser) Trigger() []byte { return []byte{'$'} }

func (p *inlineMathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if len(line) < 5 || line[0] != '$' || line[1] != '$' {
		return nil
	}
	end := bytes.Index(line[2:], []byte("$$"))
	if end <= 0 {
		return nil
	}
	formula := strings.TrimSpace(string(line[2 : 2+end]))
	if formula == "" {
		return nil
	}
	block.Advance(2 + end + 2)
	return &mathInline{Formula: formula}
}

// expressionParser parses GitBook's inline expression, <code class="expression">…</code>, within
// one line of text: a <code> start tag whose only attribute is class="expression" (any quoting, any
// letter case for the tag name), the expression, and </code>. The expression is HTML text: it holds
// no tag, and character references in it are resolved (GitBook writes a < b as a &lt; b). Anything
// else starting with '<' is left to the autolink and raw HTML parsers; inside a code span the
// element is never seen, since the code span parser takes the whole span first.
type expressionParser struct{}

func (p *expressionParser) Trigger() []byte { return []byte{'<'} }

func (p *expressionParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if seg.Padding != 0 {
		return nil
	}
	expression, n, ok := parseExpressionElement(line)
	if !ok {
		return nil
	}
	block.Advance(n)
	return &expressionInline{Expression: expression, Segment: text.NewSegment(seg.Start, seg.Start+n)}
}

// parseExpressionElement reads <code class="expression">…</code> at the start of s and returns the
// expression (character references resolved) and the element's length in bytes.
func parseExpressionElement(s []byte) (string, int, bool) {
	const open, closing = "<code", "</code>"
	if len(s) < len(open)+len(closing)+1 || !bytes.EqualFold(s[:len(open)], []byte(open)) || !isSpaceByte(s[len(open)]) {
		return "", 0, false
	}
	// The start tag ends at the first '>' outside a quoted attribute value. With its one attribute it
	// is short: looking no further than maxStartTag keeps a line of unclosed tags linear.
	const maxStartTag = 100
	end := startTagEnd(s, len(open), maxStartTag)
	if end < 0 {
		return "", 0, false
	}
	attrs, ok := parseAttributes(string(s[len(open):end]))
	if !ok || len(attrs) != 1 || attrs["class"] != "expression" {
		return "", 0, false
	}
	body := s[end+1:]
	// The expression runs to the first </code>, and holds no other tag.
	stop := -1
	for i := 0; i < len(body); i++ {
		if body[i] != '<' || i+1 >= len(body) {
			continue
		}
		if len(body)-i >= len(closing) && bytes.EqualFold(body[i:i+len(closing)], []byte(closing)) {
			stop = i
			break
		}
		if ch := body[i+1]; ch == '/' || ch == '!' || ch == '?' || ('a' <= ch && ch <= 'z') || ('A' <= ch && ch <= 'Z') {
			return "", 0, false
		}
	}
	if stop < 0 {
		return "", 0, false
	}
	expression := util.ResolveNumericReferences(util.ResolveEntityNames(body[:stop]))
	return string(expression), end + 1 + stop + len(closing), true
}

// ---------------------------------------------------------------------------------------------
// Emoji

var kindEmoji = ast.NewNodeKind("GitBookEmoji")

// emojiInline is an emoji shortcode (:house:), the way GitBook writes an emoji in markdown. Code is
// its code points in lower-case hex joined by "-" (the contract's emoji code), Emoji the emoji.
type emojiInline struct {
	ast.BaseInline
	Code, Emoji string
	Segment     text.Segment
}

func (n *emojiInline) Kind() ast.NodeKind { return kindEmoji }

func (n *emojiInline) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Code": n.Code}, nil)
}

// emojis are GitHub's shortcodes, which GitBook's are.
var emojis = definition.Github()

// emojiParser reads :shortcode: when the shortcode names an emoji; anything else (a time, an
// icon's :name: token inside <i>…</i>) stays text.
type emojiParser struct{}

func (p *emojiParser) Trigger() []byte { return []byte{':'} }

func (p *emojiParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	// The longest shortcode is well under 64 bytes: looking no further keeps a line of colons linear.
	end := 1
	for end < len(line) && end < 64 && isShortcodeByte(line[end]) {
		end++
	}
	if end == 1 || end >= len(line) || line[end] != ':' || insideIcon(parent, block.Source()) {
		return nil
	}
	em, ok := emojis.Get(string(line[1:end]))
	if !ok || len(em.Unicode) == 0 {
		return nil
	}
	codes := make([]string, len(em.Unicode))
	for i, r := range em.Unicode {
		codes[i] = strconv.FormatInt(int64(r), 16)
	}
	block.Advance(end + 1)
	return &emojiInline{Code: strings.Join(codes, "-"), Emoji: string(em.Unicode), Segment: text.NewSegment(seg.Start, seg.Start+end+1)}
}

func isShortcodeByte(c byte) bool {
	return c == '_' || c == '-' || c == '+' || ('a' <= c && c <= 'z') || ('0' <= c && c <= '9')
}

// insideIcon reports whether the text being read follows an <i> start tag: GitBook's icon
// element, <i class="fa-rocket">:rocket:</i>, whose token names the icon, not an emoji.
func insideIcon(parent ast.Node, src []byte) bool {
	raw, ok := parent.LastChild().(*ast.RawHTML)
	if !ok {
		return false
	}
	var b strings.Builder
	for i := range raw.Segments.Len() {
		seg := raw.Segments.At(i)
		b.Write(seg.Value(src))
	}
	s := strings.ToLower(b.String())
	return strings.HasPrefix(s, "<i ") || s == "<i>"
}
