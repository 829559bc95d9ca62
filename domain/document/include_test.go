package document

import (
	"encoding/json"
	"path"
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

// A relative reference inside reusable content starts from the include file's folder, not from
// the including page's: the document holds it as a path from the root, the same on every page
// that includes it; URLs, anchors, paths from the root and files resolved by name stay as they are.
func TestIncludeReferences(t *testing.T) {
	includes := func(src string) (Include, bool) {
		switch IncludeKey(src) {
		case "footer.md":
			return Include{ID: "footer", Path: ".gitbook/includes/footer.md", Markdown: "[Install](../../getting-started/install.md#linux) " +
				"[Site](https://e.example) [Top](#top) [Root](/guides/a.md) ![Logo](../assets/logo.png)\n\n{% include \"deep/part.md\" %}\n"}, true
		case "part.md":
			return Include{ID: "part", Path: ".gitbook/includes/deep/part.md", Markdown: "[Up](../../../guides/b.md?x=1)\n"}, true
		}
		return Include{}, false
	}
	files := func(name string) (string, bool) { return "logo-id", path.Base(name) == "logo.png" }
	for _, page := range []string{"{% include \"../.gitbook/includes/footer.md\" %}\n", "Intro [own](install.md)\n\n{% include \"../../.gitbook/includes/footer.md\" %}\n"} {
		doc, err := ConvertWith(page, files, includes)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(doc)
		got := unescapedJSONDoc(string(b))
		for _, want := range []string{`"url":"/getting-started/install.md#linux"`, `"url":"https://e.example"`, `"url":"#top"`,
			`"url":"/guides/a.md"`, `"file":"logo-id"`, `"url":"/guides/b.md?x=1"`} {
			if !strings.Contains(got, want) {
				t.Errorf("document lacks %s\n%s", want, got)
			}
		}
		var targets []string
		for _, ref := range IncludedReferences(page, includes) {
			targets = append(targets, ref.Target)
		}
		// Without a file resolver, a file is a path from the root too (the link index finds it).
		want := []string{"/getting-started/install.md#linux", "https://e.example", "#top", "/guides/a.md", "/.gitbook/assets/logo.png", "/guides/b.md?x=1"}
		if strings.Join(targets, " ") != strings.Join(want, " ") {
			t.Errorf("IncludedReferences = %q, want %q", targets, want)
		}
	}
	if refs := IncludedReferences("[own](install.md)\n", includes); len(refs) != 0 {
		t.Errorf("IncludedReferences without includes = %v", refs)
	}
}

func TestFromBase(t *testing.T) {
	tests := []struct{ base, target, want string }{
		{".gitbook/includes", "../../a/b.md", "/a/b.md"},
		{".gitbook/includes", "x.md#h", "/.gitbook/includes/x.md#h"},
		{".gitbook/includes", "https://e.example/a", "https://e.example/a"},
		{".gitbook/includes", "mailto:a@e.example", "mailto:a@e.example"},
		{".gitbook/includes", "#anchor", "#anchor"},
		{".gitbook/includes", "/root.md", "/root.md"},
		{"", "../a.md", "../a.md"},
		// Outside the root (a root .gitbook.yaml moved into docs/, or a synced folder): back in
		// through the root's folders.
		{"../.gitbook/includes", "../../docs/guide/boats.md#wind", "/guide/boats.md#wind"},
		{"../../.gitbook/includes", "../../site/docs/a.md", "/a.md"},
		{".gitbook/includes", "../../../docs/a.md", "/a.md"},
		{"../.gitbook/includes", "../../a.md", "/a.md"},
	}
	for _, tt := range tests {
		if got := fromBase(tt.base, tt.target); got != tt.want {
			t.Errorf("fromBase(%q, %q) = %q, want %q", tt.base, tt.target, got, tt.want)
		}
	}
}

func TestIncludedKeys(t *testing.T) {
	md := "{% include \"../.gitbook/includes/a.md\" %}\n\n```\n{% include \"code.md\" %}\n```\n\n{% hint style=\"info\" %}\n{% include \".gitbook/includes/b.md\" %}\n{% endhint %}\n\n{% include \"../../.gitbook/includes/a.md\" %}\n"
	if got := strings.Join(IncludedKeys(md), " "); got != "a.md b.md" {
		t.Errorf("IncludedKeys = %q, want a.md b.md", got)
	}
	if got := IncludedKeys("No tags.\n"); got != nil {
		t.Errorf("IncludedKeys of plain text = %q", got)
	}
}
