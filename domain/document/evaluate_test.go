package document

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// expr writes an expression element as GitBook does.
func expr(s string) string { return `<code class="expression">` + s + `</code>` }

func TestExpressionParsing(t *testing.T) {
	para := func(nodes string) string {
		return `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[` + nodes + `]}]}`
	}
	text := func(s string) string {
		b, _ := json.Marshal(s)
		return `{"object":"text","leaves":[{"object":"leaf","text":` + string(b) + `,"marks":[]}]}`
	}
	code := func(s string) string {
		b, _ := json.Marshal(s)
		return `{"object":"text","leaves":[{"object":"leaf","text":` + string(b) + `,"marks":[{"object":"mark","type":"code","data":{}}]}]}`
	}
	node := func(key, expression string) string {
		b, _ := json.Marshal(expression)
		return `{"object":"inline","type":"expression","key":"` + key + `","isVoid":true,"data":{"expression":` + string(b) + `}}`
	}
	tests := []struct {
		name     string
		markdown string
		want     string
	}{
		{"in text", "Version " + expr("space.vars.version") + " is out.",
			para(text("Version ") + "," + node("2", "space.vars.version") + "," + text(" is out."))},
		{"alone", expr("page.vars.x"), para(node("2", "page.vars.x"))},
		{"two in a row", expr("a") + expr("b"), para(node("2", "a") + "," + node("3", "b"))},
		{"character references resolved", expr("a &lt; b &amp;&amp; c == &quot;x&quot;"),
			para(node("2", `a < b && c == "x"`))},
		{"markdown syntax is expression text", expr("a*b*c + `d` + [e]"), para(node("2", "a*b*c + `d` + [e]"))},
		{"a bare < is text", expr("1 < 2"), para(node("2", "1 < 2"))},
		{"single quotes, upper case tag", `<CODE class='expression'>x</Code>`, para(node("2", "x"))},
		{"unquoted attribute", `<code class=expression>x</code>`, para(node("2", "x"))},
		{"inside emphasis", "**a " + expr("x") + "**",
			para(`{"object":"text","leaves":[{"object":"leaf","text":"a ","marks":[{"object":"mark","type":"bold","data":{}}]}]},` + node("2", "x"))},
		// Anything else is inline HTML: a <code> element gives code-marked text, a lone tag is dropped.
		{"other class is code", `<code class="other">x</code>`, para(code("x"))},
		{"extra attribute is code", `<code class="expression" id="a">x</code>`, para(code("x"))},
		{"no attribute is code", `<code>x</code>`, para(code("x"))},
		{"unclosed: the tag falls away", `<code class="expression">x`, para(text("x"))},
		{"closed on the next line only is code", "<code class=\"expression\">x\ny</code>", para(code("x y"))},
		{"nested tag is code", expr("a <b>c</b>"),
			para(`{"object":"text","leaves":[{"object":"leaf","text":"a ","marks":[{"object":"mark","type":"code","data":{}}]},{"object":"leaf","text":"c","marks":[{"object":"mark","type":"code","data":{}},{"object":"mark","type":"bold","data":{}}]}]}`)},
		{"backslash-escaped", `\` + expr("x"), para(text(`<code class="expression">x`))},
		{"in a code span", "`" + expr("x") + "`",
			para(`{"object":"text","leaves":[{"object":"leaf","text":"` + strings.ReplaceAll(expr("x"), `"`, `\"`) + `","marks":[{"object":"mark","type":"code","data":{}}]}]}`)},
		{"in link text stays text", "[see " + expr("x") + "](u)",
			para(`{"object":"inline","type":"link","key":"2","data":{"ref":{"kind":"url","url":"u"}},"nodes":[` + text("see "+expr("x")) + `]}`)},
		{"empty expression", expr(""), para(node("2", ""))},
		{"in a heading", "## v" + expr("x"),
			`{"object":"document","data":{},"nodes":[{"object":"block","type":"heading-2","key":"1","data":{},"nodes":[` + text("v") + "," + node("2", "x") + `]}]}`},
		{"in a code block", "```\n" + expr("x") + "\n```",
			`{"object":"document","data":{},"nodes":[{"object":"block","type":"code","key":"1","data":{"syntax":"text"},"nodes":[
				{"object":"block","type":"code-line","key":"2","data":{},"nodes":[` + text(expr("x")) + `]}]}]}`},
		{"in a table: body cells, not header titles", "| " + expr("h") + " |\n|---|\n| " + expr("c") + " |",
			`{"object":"document","data":{},"nodes":[{"object":"block","type":"table","key":"1","isVoid":true,
			 "data":{"view":{"type":"grid","columns":["2"],"hideHeader":false},
			  "definition":{"2":{"id":"2","title":"<code class=\"expression\">h</code>","type":"text","textAlignment":"left"}},
			  "records":{"3":{"orderIndex":"a0","values":{"2":"4"}}}},
			 "fragments":[{"object":"fragment","key":"4","fragment":"4","nodes":[{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[` + node("6", "c") + `]}]}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertJSON(t, FromMarkdown(tt.markdown, nil), tt.want)
		})
	}
}

// fakeEval answers from a table: a value, "!msg" for an error, "?" for ok=false.
func fakeEval(answers map[string]string) Evaluator {
	return func(expression string) (string, bool, error) {
		a, known := answers[expression]
		switch {
		case !known:
			return "", false, errors.New("unknown name " + expression)
		case a == "?":
			return "", false, nil
		case strings.HasPrefix(a, "!"):
			return "", false, errors.New(a[1:])
		}
		return a, true, nil
	}
}

func TestEvaluate(t *testing.T) {
	eval := fakeEval(map[string]string{"v": "1.2", "empty": "", "now()": "?", "bad": "!syntax error", "nl": "a\nb"})
	tests := []struct {
		name     string
		markdown string
		want     string // the first block
	}{
		{"value joins the text around", "Version " + expr("v") + " out",
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Version 1.2 out","marks":[]}]}]}`},
		{"value keeps marked text apart", "**Version** " + expr("v"),
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[
				{"object":"leaf","text":"Version","marks":[{"object":"mark","type":"bold","data":{}}]},{"object":"leaf","text":" 1.2","marks":[]}]}]}`},
		{"alone", expr("v"),
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"1.2","marks":[]}]}]}`},
		{"empty value alone leaves an empty text", expr("empty"),
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}`},
		{"empty value between inlines adds no text", "$$x$$" + expr("empty") + "$$y$$",
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
				{"object":"inline","type":"inline-math","key":"2","isVoid":true,"data":{"formula":"x"}},
				{"object":"inline","type":"inline-math","key":"4","isVoid":true,"data":{"formula":"y"}}]}`},
		{"line break in the value", expr("nl"),
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a\nb","marks":[]}]}]}`},
		{"failure keeps the node, with the error", "x " + expr("bad"),
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x ","marks":[]}]},
				{"object":"inline","type":"expression","key":"2","isVoid":true,"data":{"expression":"bad","error":"syntax error"}}]}`},
		{"left by the evaluator: unchanged", "x " + expr("now()"),
			`{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x ","marks":[]}]},
				{"object":"inline","type":"expression","key":"2","isVoid":true,"data":{"expression":"now()"}}]}`},
		{"in a table cell fragment", "| h |\n|---|\n| a " + expr("v") + " |",
			`{"object":"block","type":"table","key":"1","isVoid":true,
			 "data":{"view":{"type":"grid","columns":["2"],"hideHeader":false},
			  "definition":{"2":{"id":"2","title":"h","type":"text","textAlignment":"left"}},
			  "records":{"3":{"orderIndex":"a0","values":{"2":"4"}}}},
			 "fragments":[{"object":"fragment","key":"4","fragment":"4","nodes":[{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[
				{"object":"text","leaves":[{"object":"leaf","text":"a 1.2","marks":[]}]}]}]}]}`},
		{"in a list item", "- " + expr("v"),
			`{"object":"block","type":"list-unordered","key":"1","data":{},"nodes":[{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"1.2","marks":[]}]}]}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := FromMarkdown(tt.markdown, nil)
			before, _ := json.Marshal(doc)
			got := Evaluate(doc, eval)
			after, _ := json.Marshal(doc)
			if string(before) != string(after) {
				t.Errorf("Evaluate modified its input:\n%s\n%s", before, after)
			}
			if len(got.Nodes) == 0 {
				t.Fatal("no blocks")
			}
			b, _ := json.Marshal(got.Nodes[0])
			var gotTree, wantTree any
			_ = json.Unmarshal(b, &gotTree)
			if err := json.Unmarshal([]byte(tt.want), &wantTree); err != nil {
				t.Fatalf("bad want: %v", err)
			}
			if diff := cmp.Diff(wantTree, gotTree); diff != "" {
				t.Errorf("(-want +got):\n%s\ngot: %s", diff, b)
			}
			checkNotEmpty(t, got.Nodes)
		})
	}
}

func TestEvaluateCopiesAndNeverPanics(t *testing.T) {
	doc := FromMarkdown("a "+expr("boom")+" "+expr("x")+" "+expr("x"), nil)
	calls := 0
	got := Evaluate(doc, func(e string) (string, bool, error) {
		calls++
		if e == "boom" {
			panic("kaboom")
		}
		return "X", true, nil
	})
	if calls != 2 {
		t.Errorf("evaluator called %d times, want once per distinct expression (2)", calls)
	}
	b, _ := json.Marshal(got)
	want := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[` +
		`{"object":"text","leaves":[{"object":"leaf","text":"a ","marks":[]}]},` +
		`{"object":"inline","type":"expression","key":"2","isVoid":true,"data":{"error":"evaluation failed: kaboom","expression":"boom"}},` +
		`{"object":"text","leaves":[{"object":"leaf","text":" X X","marks":[]}]}]}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// Changing the result leaves the original alone.
	got.Nodes[0].Nodes[1].Data["expression"] = "changed"
	if doc.Nodes[0].Nodes[1].Data["expression"] != "boom" {
		t.Error("the result shares data with the input")
	}
	// A nil evaluator leaves everything.
	same := Evaluate(doc, nil)
	b1, _ := json.Marshal(doc)
	b2, _ := json.Marshal(same)
	if string(b1) != string(b2) {
		t.Errorf("nil evaluator changed the document:\n%s\n%s", b1, b2)
	}
	// An empty document stays one.
	empty, _ := json.Marshal(Evaluate(FromMarkdown("", nil), nil))
	if string(empty) != `{"object":"document","data":{},"nodes":[]}` {
		t.Errorf("empty document: %s", empty)
	}
}

func TestEvaluateMarkdown(t *testing.T) {
	eval := fakeEval(map[string]string{"v": "1.2", "now()": "?", "bad": "!syntax error", "star": "*a*", "x": "X"})
	tests := []struct {
		name     string
		markdown string
		want     string
		errs     map[string]string
	}{
		{"replaced", "Version " + expr("v") + ".", "Version 1.2.", nil},
		{"escaped", "a " + expr("star") + " b", `a \*a\* b`, nil},
		{"failure left as written", "a " + expr("bad") + " " + expr("v"), "a " + expr("bad") + " 1.2", map[string]string{"bad": "syntax error"}},
		{"left by the evaluator", "a " + expr("now()"), "a " + expr("now()"), nil},
		{"unknown expressions reported once", expr("nope") + expr("nope"), expr("nope") + expr("nope"), map[string]string{"nope": "unknown name nope"}},
		{"code span literal", "`" + expr("v") + "` " + expr("v"), "`" + expr("v") + "` 1.2", nil},
		{"code block literal", "```\n" + expr("v") + "\n```\n\n" + expr("v"), "```\n" + expr("v") + "\n```\n\n1.2", nil},
		{"indented code literal", "    " + expr("v") + "\n\n" + expr("v"), "    " + expr("v") + "\n\n1.2", nil},
		{"link text literal", "[" + expr("v") + "](u) " + expr("v"), "[" + expr("v") + "](u) 1.2", nil},
		{"image alt literal", "![" + expr("v") + "](u.png)", "![" + expr("v") + "](u.png)", nil},
		{"raw HTML block literal", "<div>\n" + expr("v") + "\n</div>", "<div>\n" + expr("v") + "\n</div>", nil},
		{"CRLF kept", "a\r\nb " + expr("v") + "\r\n\r\n" + expr("x") + "\r\n", "a\r\nb 1.2\r\n\r\nX\r\n", nil},
		{"in containers", "> " + expr("v") + "\n\n{% hint %}\n- " + expr("x") + "\n{% endhint %}", "> 1.2\n\n{% hint %}\n- X\n{% endhint %}", nil},
		{"in a summary and a heading", "## T " + expr("v") + "\n\n<details>\n<summary>" + expr("x") + "</summary>\n\nbody\n\n</details>",
			"## T 1.2\n\n<details>\n<summary>X</summary>\n\nbody\n\n</details>", nil},
		{"inside emphasis keeps it", "**" + expr("v") + "**", "**1.2**", nil},
		{"nothing to do", "plain *text*", "plain *text*", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := EvaluateMarkdown(tt.markdown, eval)
			if got != tt.want {
				t.Errorf("markdown:\ngot  %q\nwant %q", got, tt.want)
			}
			if tt.errs == nil {
				tt.errs = map[string]string{}
			}
			if diff := cmp.Diff(tt.errs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEvaluateMarkdownEscaping checks that a value put into markdown reads back as that text,
// wherever the expression stands: converting the evaluated markdown gives the same document as
// evaluating the converted markdown.
func TestEvaluateMarkdownEscaping(t *testing.T) {
	values := []string{
		"plain", "1.2.3", "*bold*", "_it_", "**x**", "`code`", "[a](b)", "![i](x.png)", "<b>html</b>", "<br>",
		"a\\b", "# heading", "## x ##", "- item", "-", "+ item", "* item", "1. one", "1.", "12) twelve", "> quote",
		"---", "===", "***", "___", "| a | b |", "~~s~~", "~s~", "$$x^2$$", "&amp; &#42; & x", "{% hint %}", "{#id}",
		"  padded  ", "\ttab", "two\nlines", "line\n\nparagraph", "   ", "a  \nb", "\\", "`", "<", "&", "x\\",
		"!", "[", "]:", "[x]: http://y", "<details>", "$$", "```", "~~~", "    code", "é😀 ünïcode", "a\r\nb",
	}
	contexts := []struct{ name, before, after string }{
		{"paragraph", "a ", " z"},
		{"line start", "", " z"},
		{"alone", "", ""},
		{"second line", "first\n", ""},
		{"heading", "## ", ""},
		{"heading end", "## a ", ""},
		{"list item", "- ", ""},
		{"ordered list item", "1. ", ""},
		{"quote", "> ", ""},
		{"hint", "{% hint %}\n", "\n{% endhint %}"},
		{"summary", "<details>\n<summary>", "</summary>\n\nx\n\n</details>"},
		{"table cell", "| h |\n|---|\n| ", " |"},
		{"table cell start", "| h |\n|---|\n|", "|"},
	}
	for _, c := range contexts {
		for _, v := range values {
			md := c.before + expr("e") + c.after
			eval := func(string) (string, bool, error) { return v, true, nil }
			out, _ := EvaluateMarkdown(md, eval)
			got := withoutKeys(FromMarkdown(out, nil))
			want := withoutKeys(Evaluate(FromMarkdown(md, nil), eval))
			if got != want {
				t.Errorf("%s, %q: evaluated markdown %q gives\n%s\nwant\n%s", c.name, v, out, got, want)
			}
		}
	}
}

// withoutKeys is the document's JSON without the keys of nodes and fragments (an expression node
// takes a key that its value does not).
func withoutKeys(doc Document) string {
	b, _ := json.Marshal(doc)
	var tree any
	_ = json.Unmarshal(b, &tree)
	var strip func(v any)
	strip = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "key")
			strip(v["nodes"])
			strip(v["fragments"])
		case []any:
			for _, x := range v {
				strip(x)
			}
		}
	}
	strip(tree)
	b, _ = json.Marshal(tree)
	return string(b)
}

// FuzzEvaluateMarkdown checks that any markdown and any value evaluate without panicking, that
// text outside the evaluated elements is kept, and that a value reads back as itself in a
// paragraph.
func FuzzEvaluateMarkdown(f *testing.F) {
	f.Add("a "+expr("x")+" b", "*v*")
	f.Add("| "+expr("x")+" |\n|---|\n| "+expr("y")+" |", "a|b")
	f.Add("- "+expr("x")+"\n  "+expr("y"), "1. x")
	f.Add("`"+expr("x")+"` "+expr("x"), "\n\n")
	f.Fuzz(func(t *testing.T, md, value string) {
		eval := func(string) (string, bool, error) { return value, true, nil }
		out, errs := EvaluateMarkdown(md, eval)
		if len(errs) != 0 {
			t.Fatalf("errors: %v", errs)
		}
		if !strings.Contains(md, "expression") && out != md {
			t.Fatalf("markdown without expressions changed: %q → %q", md, out)
		}
		if _, err := json.Marshal(FromMarkdown(out, nil)); err != nil {
			t.Fatal(err)
		}
		doc := Evaluate(FromMarkdown(md, nil), eval)
		if _, err := json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		checkKeys(t, doc.Nodes, map[string]bool{})
		checkNotEmpty(t, doc.Nodes)
	})
}

// TestEvaluateManyExpressions evaluates a page full of expressions: in linear time (a quadratic
// join of the text would take seconds here), with every value in place.
func TestEvaluateManyExpressions(t *testing.T) {
	var b strings.Builder
	for range 20000 {
		b.WriteString("v" + expr("a") + " and " + expr("b") + "\n")
	}
	eval := fakeEval(map[string]string{"a": "1", "b": "2"})
	doc := Evaluate(FromMarkdown(b.String(), nil), eval)
	if len(doc.Nodes) != 1 || len(doc.Nodes[0].Nodes) != 1 {
		t.Fatalf("want one paragraph holding one text node, got %d blocks", len(doc.Nodes))
	}
	leaves := doc.Nodes[0].Nodes[0].Leaves
	if len(leaves) != 1 || leaves[0].Text != strings.TrimSuffix(strings.Repeat("v1 and 2 ", 20000), " ") {
		t.Errorf("unexpected text: %d leaves", len(leaves))
	}
	md, errs := EvaluateMarkdown(b.String(), eval)
	if len(errs) != 0 || md != strings.Repeat("v1 and 2\n", 20000) {
		t.Errorf("markdown: %d errors, %.40q…", len(errs), md)
	}
}

// Conditional blocks whose condition does not hold leave the markdown whole, tag lines included;
// the rest stays byte for byte.
func TestKeepConditional(t *testing.T) {
	pro := func(expression string) bool { return expression == `visitor.claims.plan == "pro"` }
	tests := []struct{ name, in, want string }{
		{"holds", "a\n\n{% if visitor.claims.plan == \"pro\" %}\nPro.\n{% endif %}\n\nb\n", "a\n\n{% if visitor.claims.plan == \"pro\" %}\nPro.\n{% endif %}\n\nb\n"},
		{"does not hold", "a\n\n{% if visitor.claims.beta %}\nBeta.\n\n- list\n{% endif %}\n\nb\n", "a\n\n\nb\n"},
		{"nested in a hint", "{% hint %}\nx\n{% if beta %}\nBeta.\n{% endif %}\ny\n{% endhint %}\n", "{% hint %}\nx\ny\n{% endhint %}\n"},
		{"in a quote", "> a\n> {% if beta %}\n> Beta.\n> {% endif %}\n> b\n", "> a\n> b\n"},
		{"CRLF", "a\r\n{% if beta %}\r\nBeta.\r\n{% endif %}\r\nb\r\n", "a\r\nb\r\n"},
		{"never ends", "a\n\n{% if beta %}\nBeta.\n", "a\n\n"},
		{"quoted in code", "```\n{% if beta %}\n```\n", "```\n{% if beta %}\n```\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KeepConditional(tt.in, pro); got != tt.want {
				t.Errorf("KeepConditional(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
