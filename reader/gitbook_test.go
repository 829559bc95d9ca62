package reader

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/document"
)

// gitbookFixtures are GitBook's markdown constructs (its Git Sync format), each with what its
// document must hold and what the reader must write for it (headings by their id: their level
// is the reader's outline rule, not the construct's).
var gitbookFixtures = []struct {
	name     string
	markdown string
	doc      []string // in the document's JSON
	html     []string // in the reader's HTML
}{
	{"cards", `<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th><th data-hidden data-card-cover-dark data-type="files"></th></tr></thead><tbody><tr><td><strong>Quick start</strong></td><td><a href="https://e.example/start">start</a></td><td><a href="https://e.example/c.png">c.png</a></td><td><a href="https://e.example/d.png">d.png</a></td></tr></tbody></table>`,
		[]string{`"type":"cards"`, `"targetDefinition":"3"`, `"coverDefinition":"4"`, `"coverDefinitionDark":"5"`, `"columns":["2"]`, `"3":{"kind":"url","url":"https://e.example/start"}`},
		[]string{`<a class="card card-cover" href="https://e.example/start">`, `<img src="https://e.example/c.png"`, `<source srcset="https://e.example/d.png" media="(prefers-color-scheme: dark)">`, `<strong>Quick start</strong>`}},
	{"cards with a select column", `<table data-card-wrap="false" data-view="cards"><thead><tr><th><select><option value="p1" label="PRO" color="blue"></option><option value="p2" label="FREE" color="blue"></option></select></th><th></th></tr></thead><tbody><tr><td><span data-option="p1">PRO</span></td><td><h4>Plans</h4></td></tr></tbody></table>`,
		[]string{`"type":"select"`, `"multiple":false`, `{"color":"blue","label":"PRO","value":"p1"}`, `"2":["p1"]`, `"type":"heading-3"`},
		[]string{`<span class="option">PRO</span>`, ` id="plans">Plans`}},
	{"table with a select column", `<table><thead><tr><th>Company</th><th>Status<select><option value="s1" label="In progress" color="blue"></option></select></th></tr></thead><tbody><tr><td><strong>Ace</strong></td><td><span data-option="s1">In progress</span></td></tr><tr><td>Other</td><td></td></tr></tbody></table>`,
		[]string{`"title":"Status","type":"select"`, `"values":{"2":"5","3":["s1"]}`},
		[]string{`<th scope="col">Status</th>`, `<td><span class="option">In progress</span> </td>`}},
	{"stepper", "{% stepper %}\n{% step %}\n### Install\n\nRun it.\n{% endstep %}\n\n{% step %}\nDone.\n{% endstep %}\n{% endstepper %}",
		[]string{`"type":"stepper"`, `"type":"stepper-step"`},
		[]string{`<ol class="stepper"><li class="step"><h`, ` id="install">Install`, `<li class="step"><p>Done.</p>`}},
	{"buttons", `<a href="https://e.example/go" class="button primary" data-icon="rocket">Go</a> <a href="https://e.example/b" class="button secondary">Back</a>`,
		[]string{`"type":"button"`, `"icon":"rocket","kind":"primary","label":"Go"`, `"kind":"secondary","label":"Back"`},
		[]string{`<a class="button button-primary" href="https://e.example/go"><span class="icon"`, `<a class="button button-secondary" href="https://e.example/b">Back</a>`}},
	{"icons", `Star <i class="fa-star">:star:</i> and <i class="fa-solid fa-no-drawing">:x:</i>`,
		[]string{`"type":"icon","key":"2","isVoid":true,"data":{"icon":"star"}`, `"icon":"no-drawing"`},
		[]string{`<span class="icon" role="img" aria-label="star"><svg`, `<span class="icon icon-unknown" role="img" aria-label="no-drawing">`}},
	{"kbd", "Press <kbd>Ctrl</kbd> + <kbd>K</kbd>", []string{`{"object":"leaf","text":"Ctrl","marks":[{"object":"mark","type":"keyboard","data":{}}]}`}, []string{`<kbd>Ctrl</kbd> + <kbd>K</kbd>`}},
	{"mark colours", `<mark style="color:red;">stop</mark> <mark style="background-color:yellow;">note</mark>`,
		[]string{`"type":"color","data":{"background":"default","text":"red"}`, `"type":"color","data":{"background":"yellow","text":"default"}`},
		[]string{`<mark class="text-red">stop</mark>`, `<mark class="bg-yellow">note</mark>`}},
	{"aligned heading and paragraph", "<h3 align=\"center\">Welcome <a href=\"#hello\" id=\"hello\"></a></h3>\n\n<p align=\"right\">Signed</p>",
		[]string{`"type":"heading-3","key":"1","data":{"align":"center","id":"hello"}`, `"type":"paragraph","key":"2","data":{"align":"end"}`},
		[]string{` id="hello" class="align-center">Welcome`, `<p class="align-end">Signed</p>`}},
	{"heading anchor", "## Get started <a href=\"#start\" id=\"start\"></a>", []string{`"data":{"id":"start"}`}, []string{` id="start">Get started <a class="anchor"`}},
	{"figure with picture", `<figure><picture><source srcset="https://e.example/dark.png" media="(prefers-color-scheme: dark)"><img src="https://e.example/light.png" alt="A chart" width="300"></picture><figcaption><p>The <strong>chart</strong></p></figcaption></figure>`,
		[]string{`"alt":"A chart"`, `"refDark":{"kind":"url","url":"https://e.example/dark.png"}`, `"width":300`, `"fragment":"caption"`},
		[]string{`<picture><source srcset="https://e.example/dark.png" media="(prefers-color-scheme: dark)"><img src="https://e.example/light.png" alt="A chart" loading="lazy" style="height:auto;width:300px"></picture>`, `<figcaption>The <strong>chart</strong></figcaption>`}},
	{"inline picture", `Open the menu <picture><source srcset="https://e.example/d.svg" media="(prefers-color-scheme: dark)"><img src="https://e.example/l.svg" alt="menu"></picture> now.`,
		[]string{`"type":"inline-image"`, `"refDark":{"kind":"url","url":"https://e.example/d.svg"}`},
		[]string{`<picture><source srcset="https://e.example/d.svg" media="(prefers-color-scheme: dark)"><img class="inline" src="https://e.example/l.svg" alt="menu"></picture>`}},
	{"pre code", `<pre class="language-go"><code class="lang-go">fmt.Println(1 &lt; 2)
</code></pre>`, []string{`"type":"code","key":"1","data":{"syntax":"go"}`, `"text":"fmt.Println(1 < 2)"`}, []string{`<code data-lang="go">`}},
	{"html table with blocks in cells", `<table><thead><tr><th width="200">Name</th><th>Notes</th></tr></thead><tbody><tr><td><code>id</code></td><td><p>First.</p><ul><li>one</li></ul></td></tr></tbody></table>`,
		[]string{`"title":"Name"`, `"type":"list-unordered"`, `"marks":[{"object":"mark","type":"code","data":{}}]`},
		[]string{`<th scope="col">Name</th>`, `<td><p>First.</p>`, `<li><p>one</p>`}},
	{"p, a and br html", `<p>Visit <a href="https://e.example">the site</a><br>today</p>`,
		[]string{`"type":"link"`}, []string{`<p>Visit <a href="https://e.example">the site</a><br>today</p>`}},
	{"columns", "{% columns %}\n{% column width=\"66.6%\" %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}",
		[]string{`"type":"columns","key":"1","isVoid":false`, `"type":"column","key":"2","data":{"width":{"unit":"%","value":66.6}}`},
		[]string{`<div class="columns"><div class="column" style="flex-basis:66.6%"><p>Left</p>`, `<div class="column"><p>Right</p>`}},
	{"code with title, line numbers and wrap", "{% code title=\"a.sh\" overflow=\"wrap\" lineNumbers=\"true\" %}\n```bash\necho hi\n```\n{% endcode %}",
		[]string{`"lineNumbers":true,"overflow":"wrap","syntax":"bash","title":"a.sh"`}, []string{`<figcaption>a.sh</figcaption>`, `<pre class="chroma numbered wrap"`}},
	{"mentions", `See <a href="https://e.example/p" data-mention>the page</a> and [other](https://e.example/o "mention").`,
		[]string{`"type":"mention","key":"2","isVoid":true,"data":{"ref":{"kind":"url","url":"https://e.example/p"}}`, `"type":"mention","key":"3"`},
		[]string{`<a class="mention" href="https://e.example/p">`}},
	{"openapi", "{% openapi src=\"https://e.example/spec.yaml\" path=\"/pets\" method=\"get\" %}\n[https://e.example/spec.yaml](https://e.example/spec.yaml)\n{% endopenapi %}\n\n{% openapi-operation spec=\"petstore\" path=\"/pets/{id}\" method=\"delete\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-operation %}\n\n{% openapi-schemas spec=\"petstore\" schemas=\"Pet,Error\" grouped=\"false\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-schemas %}\n\n{% openapi-webhook spec=\"petstore\" name=\"petAdopted\" method=\"post\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-webhook %}",
		[]string{`"type":"swagger","key":"1","isVoid":true,"data":{"method":"get","path":"/pets","ref":{"kind":"url","url":"https://e.example/spec.yaml"}}`, `"type":"openapi-operation","key":"2","isVoid":true,"data":{"method":"delete","path":"/pets/{id}","ref":{"kind":"openapi","spec":"petstore"}}`, `"data":{"grouped":false,"ref":{"kind":"openapi","spec":"petstore"},"schemas":["Pet","Error"]}`, `"type":"openapi-webhook","key":"4","isVoid":true,"data":{"method":"post","name":"petAdopted","ref":{"kind":"openapi","spec":"petstore"}}`},
		[]string{`<code>GET /pets</code>`, `<code>DELETE /pets/{id}</code>`, `OpenAPI specification petstore`, `Schemas: Pet, Error`, `<code>Webhook: petAdopted</code>`}},
	{"legacy swagger", "{% swagger method=\"get\" path=\"/pets\" baseUrl=\"https://api.e.example\" summary=\"List pets\" %}\n{% swagger-description %}\nLists **all** pets.\n{% endswagger-description %}\n\n{% swagger-parameter in=\"query\" name=\"limit\" type=\"integer\" required=\"true\" %}\nHow many.\n{% endswagger-parameter %}\n\n{% swagger-response status=\"200: OK\" description=\"Pets\" %}\n```json\n[]\n```\n{% endswagger-response %}\n{% endswagger %}",
		[]string{`"type":"swagger-inline","key":"1","data":{"baseUrl":"https://api.e.example","method":"get","path":"/pets","summary":"List pets"}`, `"type":"tabs-item","key":"8","data":{"title":"200: OK"}`},
		[]string{`<section class="openapi openapi-inline"><p class="openapi-title"><code>GET /pets</code> List pets</p><p>Lists <strong>all</strong> pets.</p>`,
			`<li><p><code>limit</code> (query, integer, required)</p>`, `<p>How many.</p>`, `data-title="200: OK"`, `<p>Pets</p>`, `<code data-lang="json">`}},
	{"prompt", "{% prompt description=\"Summarize a release\" icon=\"rectangle-terminal\" defaultExpanded=\"full\" %}\n```markdown\nSummarize this.\n```\n{% endprompt %}",
		[]string{`"type":"prompt","key":"1","data":{"defaultExpanded":"full","description":"Summarize a release","icon":"rectangle-terminal"}`, `"syntax":"markdown"`},
		[]string{`<details class="prompt" open><summary><span class="icon`, `Summarize a release</summary><figure class="code">`}},
	{"updates", "{% updates format=\"full\" %}\n{% update date=\"2026-01-15\" %}\n## Dark mode\n\nShipped.\n{% endupdate %}\n{% endupdates %}",
		[]string{`"type":"updates","key":"1","data":{"format":"full"}`, `"type":"update","key":"2","data":{"date":"2026-01-15"}`},
		[]string{`<section class="update"><p class="update-date"><time datetime="2026-01-15">2026-01-15</time></p><h`, ` id="dark-mode">Dark mode`}},
	{"conditional content", "{% if visitor.claims.unsigned.beta %}\nBeta **only**.\n{% endif %}",
		[]string{`"type":"if","key":"1","data":{"expression":"visitor.claims.unsigned.beta"}`}, []string{`<p>Beta <strong>only</strong>.</p>`}},
	{"drawing and mermaid", "```mermaid\ngraph TD; A-->B\n```", []string{`"syntax":"mermaid"`}, []string{"<figure class=\"code diagram\" data-diagram=\"mermaid\"><pre class=\"chroma\" tabindex=\"0\"><code data-lang=\"mermaid\">graph TD; A--&gt;B</code></pre></figure>"}},
	{"html the format does not define", "<div class=\"note\"><script>alert(1)</script><iframe src=\"https://e.example\"></iframe><b>kept</b></div>",
		[]string{`"type":"html"`}, []string{`<div class="html">`, `<b>kept</b>`}},
	{"annotations", "A footnote[^1] and a **bold**[^long].\n\n[^1]: The note.\n\n[^long]: First part.\n\n    Second part with `code`.",
		[]string{`"type":"annotation","key":"2","isVoid":false,"data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"footnote","marks":[]}]}],"fragments":[{"object":"fragment","key":"3","fragment":"annotation-body","type":"annotation-body"`,
			`"text":"bold","marks":[{"object":"mark","type":"bold","data":{}}]`},
		[]string{`<p>A <span class="annotation">footnote<sup class="annotation-ref"><a href="#fn-1" id="fnref-1"`, `<li id="fn-1"><p>The note.</p>`, "<li id=\"fn-2\"><p>First part.</p>\n<p>Second part with <code>code</code>.</p>"}},
	{"emoji", "Home :house: and <i class=\"fa-house\">:house:</i> at 12:30:45.",
		[]string{`"type":"emoji","key":"2","isVoid":true,"data":{"code":"1f3e0"}`, `"type":"icon"`, `"text":" at 12:30:45."`},
		[]string{`Home <span class="emoji">🏠</span> and <span class="icon`}},
	{"file and embed with captions on their lines", "{% file src=\"https://e.example/report.pdf\" %}The **report**{% endfile %}\n\n{% embed url=\"https://e.example/v\" %}A video{% endembed %}",
		[]string{`"type":"link"`, `"type":"embed","key":"4","isVoid":true,"data":{"url":"https://e.example/v"}`, `"text":"A video"`},
		[]string{`<a href="https://e.example/report.pdf">`, `<p>The <strong>report</strong></p>`, `<p>A video</p>`}},
	{"unknown inline html", "a <span style=\"x\">b</span> <u>c</u> <sup>2</sup> <sub>i</sub>",
		[]string{`"type":"superscript"`, `"type":"subscript"`}, []string{`a b c <sup>2</sup> <sub>i</sub>`}},
}

// syntaxAsText finds GitBook or HTML syntax shown as text in reader HTML: liquid tags, escaped
// tags (&lt;tag), GitBook's attributes and icon tokens outside markup.
var syntaxAsText = regexp.MustCompile(`\{%|%\}|&lt;/?[a-zA-Z]|data-view|data-icon|data-card|data-mention|>[^<]*:[a-z-]+:[^<]*<`)

func renderMarkdown(t *testing.T, md string) (string, string) {
	t.Helper()
	b, err := json.Marshal(document.FromMarkdown(md, nil))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := renderDocument(b, nil, nil)
	return string(b), string(out)
}

// unescapedJSON undoes encoding/json's escaping of <, > and & for substring checks.
func unescapedJSON(s string) string {
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(s)
}

// TestGitBookConstructs: each construct of GitBook's markdown becomes its node, the reader writes
// its element, and no page shows GitBook syntax as text.
func TestGitBookConstructs(t *testing.T) {
	for _, tt := range gitbookFixtures {
		t.Run(tt.name, func(t *testing.T) {
			doc, out := renderMarkdown(t, tt.markdown)
			doc = unescapedJSON(doc)
			for _, want := range tt.doc {
				if !strings.Contains(doc, want) {
					t.Errorf("document lacks %s\n%s", want, doc)
				}
			}
			for _, want := range tt.html {
				if !strings.Contains(out, want) {
					t.Errorf("HTML lacks %s\n%s", want, out)
				}
			}
			if m := syntaxAsText.FindString(out); m != "" {
				t.Errorf("HTML shows syntax %q as text:\n%s", m, out)
			}
			if strings.Contains(out, "<script") || strings.Contains(out, "<iframe") {
				t.Errorf("unsafe HTML kept:\n%s", out)
			}
		})
	}
}

// TestGitBookSyntaxNeverShows: documents built from random mixes of every construct, nested in
// each other, with random words, render with every word and no syntax as text.
func TestGitBookSyntaxNeverShows(t *testing.T) {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"}
	inline := []func(w string) string{
		func(w string) string { return "<kbd>" + w + "</kbd>" },
		func(w string) string { return `<mark style="color:blue;">` + w + "</mark>" },
		func(w string) string {
			return `<a href="https://e.example/` + w + `" class="button primary" data-icon="gear">` + w + "</a>"
		},
		func(w string) string { return `<a href="https://e.example/` + w + `">` + w + "</a>" },
		func(w string) string { return `<i class="fa-gear">:gear:</i> ` + w },
		func(w string) string { return "<strong>" + w + "</strong><br>" },
		func(w string) string { return "<span>" + w + "</span>" },
		func(w string) string { return "**" + w + "**" },
		func(w string) string { return `<a href="https://e.example/m" data-mention>` + w + `</a> ` + w },
		func(w string) string { return w + "[^" + w + "] :tada:\n\n[^" + w + "]: " + w + "\n\n" },
	}
	block := []func(inner, w string) string{
		func(inner, w string) string {
			return "{% stepper %}\n{% step %}\n" + inner + "\n\n" + w + "\n{% endstep %}\n{% endstepper %}"
		},
		func(inner, w string) string {
			return "{% hint style=\"info\" %}\n" + w + "\n\n" + inner + "\n{% endhint %}"
		},
		func(inner, w string) string {
			return "{% columns %}\n{% column %}\n" + inner + "\n{% endcolumn %}\n\n{% column %}\n" + w + "\n{% endcolumn %}\n{% endcolumns %}"
		},
		func(inner, w string) string {
			return "{% tabs %}\n{% tab title=\"" + w + "\" %}\n" + inner + "\n{% endtab %}\n{% endtabs %}"
		},
		func(inner, w string) string { return "{% if true %}\n" + inner + "\n\n" + w + "\n{% endif %}" },
		func(inner, w string) string {
			return "{% updates %}\n{% update date=\"2026-01-01\" %}\n### " + w + "\n\n" + inner + "\n{% endupdate %}\n{% endupdates %}"
		},
		func(inner, w string) string {
			return "<details>\n<summary>" + w + "</summary>\n\n" + inner + "\n\n</details>"
		},
		func(inner, w string) string {
			return `<table data-view="cards"><thead><tr><th></th></tr></thead><tbody><tr><td><strong>` + w + `</strong></td></tr></tbody></table>` + "\n\n" + inner
		},
		func(inner, w string) string {
			return `<table><thead><tr><th>` + w + `</th></tr></thead><tbody><tr><td><p>` + w + `</p></td></tr></tbody></table>` + "\n\n" + inner
		},
		func(inner, w string) string { return "<p align=\"center\">" + w + "</p>\n\n" + inner },
		func(inner, w string) string {
			return `<figure><img src="https://e.example/i.png" alt="i"><figcaption><p>` + w + `</p></figcaption></figure>` + "\n\n" + inner
		},
		func(inner, w string) string {
			return "{% code title=\"" + w + "\" %}\n```\ncode\n```\n{% endcode %}\n\n" + inner
		},
		func(inner, w string) string {
			return "{% prompt description=\"" + w + "\" %}\n" + inner + "\n{% endprompt %}"
		},
		func(inner, w string) string {
			return "{% swagger method=\"post\" path=\"/" + w + "\" summary=\"" + w + "\" %}\n{% swagger-description %}\n" + inner +
				"\n{% endswagger-description %}\n\n{% swagger-parameter in=\"path\" name=\"" + w + "\" %}\n\n{% endswagger-parameter %}\n{% endswagger %}"
		},
	}
	rng := rand.New(rand.NewPCG(36, 36))
	for i := range 300 {
		var used []string
		word := func() string {
			w := words[rng.IntN(len(words))]
			used = append(used, w)
			return w
		}
		var para []string
		for range 1 + rng.IntN(4) {
			para = append(para, inline[rng.IntN(len(inline))](word()))
		}
		md := strings.Join(para, " ")
		for range rng.IntN(4) {
			md = block[rng.IntN(len(block))](md, word())
		}
		_, out := renderMarkdown(t, md)
		if m := syntaxAsText.FindString(out); m != "" {
			t.Fatalf("case %d shows %q as text\nmarkdown:\n%s\nHTML:\n%s", i, m, md, out)
		}
		for _, w := range used {
			if !strings.Contains(out, w) {
				t.Fatalf("case %d lost %q\nmarkdown:\n%s\nHTML:\n%s", i, w, md, out)
			}
		}
	}
}

// TestGitBookNodesAreSafe: the new nodes' links go through the same checks as links (no
// javascript: URL becomes an href or a source), their text is escaped, and kept HTML is
// sanitized.
func TestGitBookNodesAreSafe(t *testing.T) {
	js := `{"kind":"url","url":"javascript:alert(1)"}`
	doc := `{"object":"document","nodes":[
	  {"object":"block","type":"paragraph","key":"1","data":{"align":"\"><script>"},"nodes":[
	    {"object":"inline","type":"button","key":"2","isVoid":true,"data":{"label":"<script>b</script>","kind":"primary","icon":"\"><script>","ref":` + js + `}},
	    {"object":"inline","type":"mention","key":"3","isVoid":true,"data":{"ref":` + js + `}},
	    {"object":"inline","type":"icon","key":"4","isVoid":true,"data":{"icon":"\"><script>"}},
	    {"object":"inline","type":"inline-image","key":"5","isVoid":true,"data":{"ref":{"kind":"url","url":"https://e.example/a.png"},"refDark":` + js + `}},
	    {"object":"text","leaves":[{"object":"leaf","text":"<i>x</i>","marks":[{"object":"mark","type":"color","data":{"text":"\"><script>","background":"red"}}]}]}
	  ]},
	  {"object":"block","type":"table","key":"6","isVoid":true,"data":{
	    "view":{"type":"cards","columns":["7","8"],"cardSize":"medium","targetDefinition":"9","coverDefinition":"a"},
	    "definition":{"7":{"id":"7","title":"","type":"text"},"8":{"id":"8","title":"","type":"select","options":[{"value":"o","label":"<script>","color":""}]},"9":{"id":"9","title":"","type":"content-ref"},"a":{"id":"a","title":"","type":"files"}},
	    "records":{"b":{"orderIndex":"a0","values":{"7":"c","8":["o"],"9":` + js + `,"a":` + js + `}}}},
	    "fragments":[{"object":"fragment","key":"c","fragment":"c","nodes":[{"object":"block","type":"paragraph","key":"d","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"card <script>","marks":[]}]}]}]}]},
	  {"object":"block","type":"images","key":"e","data":{},"nodes":[{"object":"block","type":"image","key":"f","isVoid":true,"data":{"ref":{"kind":"url","url":"https://e.example/a.png"},"refDark":` + js + `,"width":"\"><script>"},"fragments":[]}]},
	  {"object":"block","type":"updates","key":"g","data":{},"nodes":[{"object":"block","type":"update","key":"h","data":{"date":"\"><script>"},"nodes":[]}]},
	  {"object":"block","type":"columns","key":"i","data":{},"nodes":[{"object":"block","type":"column","key":"j","data":{"width":{"unit":"%\"><script>","value":50}},"nodes":[]}]},
	  {"object":"block","type":"openapi-operation","key":"k","isVoid":true,"data":{"method":"<script>","path":"<script>","ref":{"kind":"openapi","spec":"<script>"}}},
	  {"object":"block","type":"html","key":"l","isVoid":true,"data":{"html":"<a href=\"javascript:alert(1)\" onclick=\"x()\">a</a><script>alert(1)</script><img src=x onerror=alert(1)><style>*{}</style>"}}
	]}`
	out, _ := renderDocument([]byte(doc), nil, nil)
	for _, bad := range []string{`="javascript:`, "<script", "onclick", "onerror", "<style", `"><script`} {
		if strings.Contains(string(out), bad) {
			t.Errorf("output holds %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"&lt;script&gt;b&lt;/script&gt;", `<span class="option">&lt;script&gt;</span>`, "card &lt;script&gt;", `<div class="html">`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestMathLoadsTheLibrary: a document with math (a block or inline) asks for the math library,
// and its TeX is in the HTML as code, readable without it.
func TestMathLoadsTheLibrary(t *testing.T) {
	tests := []struct {
		markdown string
		math     bool
		html     string
	}{
		{"$$\n\\frac{a}{b}\n$$", true, `<div class="math" role="math"><code>\frac{a}{b}</code></div>`},
		{"Euler: $$e^{i\\pi} + 1 = 0$$.", true, `<code class="math" role="math">e^{i\pi} + 1 = 0</code>`},
		{"No math, $5 and $6.", false, ""},
	}
	for _, tt := range tests {
		b, err := json.Marshal(document.FromMarkdown(tt.markdown, nil))
		if err != nil {
			t.Fatal(err)
		}
		out := render(b, nil, nil)
		if out.Math != tt.math || !strings.Contains(string(out.HTML), tt.html) {
			t.Errorf("render(%q): Math = %v, want %v; HTML:\n%s", tt.markdown, out.Math, tt.math, out.HTML)
		}
	}
}
