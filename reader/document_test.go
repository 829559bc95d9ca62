package reader

import (
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/model"
)

func strptr(s string) *string { return &s }

// TestRenderDocumentIsSafe: text is escaped everywhere, and only the graph's resolved URLs and
// http(s)/mailto URLs become links; everything else is plain text.
func TestRenderDocumentIsSafe(t *testing.T) {
	doc := `{"object":"document","nodes":[
	  {"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
	    {"object":"text","leaves":[{"object":"leaf","text":"<script>alert(1)</script> & \"q\"","marks":[{"type":"bold"}]}]},
	    {"object":"inline","type":"link","key":"2","data":{"ref":{"kind":"url","url":"javascript:alert(1)"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"js","marks":[]}]}]},
	    {"object":"inline","type":"link","key":"3","data":{"ref":{"kind":"url","url":"page.md"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"page","marks":[]}]}]},
	    {"object":"inline","type":"link","key":"4","data":{"ref":{"kind":"url","url":"gone.md"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"gone","marks":[]}]}]},
	    {"object":"inline","type":"link","key":"5","data":{"ref":{"kind":"url","url":"https://e.example/a?b=\"c\""}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"ext","marks":[]}]}]}
	  ]},
	  {"object":"block","type":"heading-1","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Über <b>","marks":[]}]}]},
	  {"object":"block","type":"heading-1","key":"7","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Über <b>","marks":[]}]}]},
	  {"object":"block","type":"code","key":"8","data":{"syntax":"no-such-language","title":"<t>"},"nodes":[
	    {"object":"block","type":"code-line","key":"9","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"if a < b { }","marks":[]}]}]}]},
	  {"object":"block","type":"some-future-block","key":"a","data":{},"nodes":[
	    {"object":"block","type":"paragraph","key":"b","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"kept","marks":[]}]}]}]},
	  {"object":"block","type":"images","key":"c","data":{},"nodes":[
	    {"object":"block","type":"image","key":"d","data":{"alt":"x\"y","ref":{"kind":"file","file":"nope"}},"fragments":[]}]}
	]}`
	html, outline := renderDocument([]byte(doc), []*model.PublishedLink{
		{Node: "3", Target: "page.md", URL: strptr("https://s.example/sites/x/page")},
		{Node: "4", Target: "gone.md"},
	}, nil)
	out := string(html)
	for _, want := range []string{
		`<strong>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;q&#34;</strong>`,
		`<span class="broken-link">js</span>`,
		`<a href="https://s.example/sites/x/page">page</a>`,
		`<span class="broken-link">gone</span>`,
		`<a href="https://e.example/a?b=&#34;c&#34;">ext</a>`,
		`<h2 id="uber-b">Über &lt;b&gt;`, `<h2 id="uber-b-2">`,
		`<figcaption>&lt;t&gt;</figcaption>`, `<span class="line">if a &lt; b { }</span>`,
		`<p>kept</p>`, `<span class="broken-image">x&#34;y</span>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s\n%s", want, out)
		}
	}
	if strings.Contains(out, "<script>") || strings.Contains(out, "javascript:") {
		t.Errorf("unsafe output:\n%s", out)
	}
	if len(outline) != 2 || outline[1].ID != "uber-b-2" || outline[0].Text != "Über <b>" {
		t.Errorf("outline = %+v", outline)
	}
}

func TestIconsAndEmoji(t *testing.T) {
	if got := string(iconSVG("book-open")); !strings.Contains(got, "<svg") {
		t.Errorf("book-open: %q", got)
	}
	if got := iconSVG("no-such-thing"); got != "" {
		t.Errorf("unknown icon: %q", got)
	}
	if got := emojiText("1f680"); got != "🚀" {
		t.Errorf("emoji = %q", got)
	}
	if got := emojiText("📘"); got != "📘" {
		t.Errorf("emoji as itself = %q", got)
	}
}
