package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// includeFixture resolves includes from a map of IncludeKey → markdown, each's id its key.
func includeFixture(files map[string]string) IncludeResolver {
	return func(src string) (Include, bool) {
		md, ok := files[IncludeKey(src)]
		return Include{ID: IncludeKey(src), Markdown: md}, ok
	}
}

// An include becomes the contract's reusable-content block holding the included document; one
// that does not resolve, includes itself or nests past the bound stays a content-ref; search
// reads the included text in place.
func TestIncludes(t *testing.T) {
	files := map[string]string{
		"footer.md": "Made with **care**.\n\n{% include \"nested.md\" %}\n",
		"nested.md": "Nested text.\n",
		"loop.md":   "Loop text.\n\n{% include \"../.gitbook/includes/loop.md\" %}\n",
		"a.md":      "A\n\n{% include \"b.md\" %}\n", "b.md": "B\n\n{% include \"c.md\" %}\n",
		"c.md": "C\n\n{% include \"d.md\" %}\n", "d.md": "D\n\n{% include \"e.md\" %}\n", "e.md": "E\n",
	}
	md := "Top.\n\n{% include \"../../.gitbook/includes/footer.md\" %}\n\n{% include \"../.gitbook/includes/missing.md\" %}\n\n{% include \"loop.md\" %}\n\n{% include \"a.md\" %}\n"
	doc, err := ConvertWith(md, nil, includeFixture(files))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(doc)
	got := unescapedJSONDoc(string(b))
	for _, want := range []string{
		`{"object":"block","type":"reusable-content","key":"2","isVoid":true,"data":{"ref":{"kind":"reusable-content","reusableContent":"footer.md"}},"fragments":[{"object":"fragment","key":"3","fragment":"reusable-content","type":"reusable-content","nodes":[{"object":"block","type":"paragraph","key":"4"`,
		`"text":"care","marks":[{"object":"mark","type":"bold","data":{}}]`, `"text":"Nested text."`,
		`"type":"content-ref","key":"8","isVoid":true,"data":{"ref":{"kind":"url","url":"../.gitbook/includes/missing.md"}}`,
		`"text":"Loop text."`, `"type":"content-ref","key":"c","isVoid":true,"data":{"ref":{"kind":"url","url":"../.gitbook/includes/loop.md"}}`,
		`"text":"D"`, `"url":"e.md"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("document lacks %s\n%s", want, got)
		}
	}
	if strings.Contains(got, `"text":"E"`) {
		t.Errorf("includes nest past %d: %s", maxIncludeDepth, got)
	}
	// The REST API's document names the reusable content, without the included document.
	c, _ := json.Marshal(Contract(doc))
	if strings.Contains(string(c), `"fragment":"reusable-content"`) || !strings.Contains(string(c), `"type":"reusable-content"`) {
		t.Errorf("contract document: %s", c)
	}
	// Without a resolver the tag is a content-ref, as before.
	plain, _ := json.Marshal(FromMarkdown(md, nil))
	if strings.Contains(string(plain), "reusable-content") {
		t.Errorf("resolved without a resolver: %s", plain)
	}
	text := SearchTextIncluding(md, map[string]string{"footer.md": files["footer.md"], "nested.md": files["nested.md"]})
	if !strings.Contains(text, "Made with care.") || !strings.Contains(text, "Nested text.") {
		t.Errorf("search text lacks the included text:\n%s", text)
	}
}

func unescapedJSONDoc(s string) string {
	return strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(s)
}
