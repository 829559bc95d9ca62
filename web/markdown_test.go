package web_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/bindery/bindery/domain/document"
)

// TestAppMarkdownReadsBackAsTheDocument closes the editor's save path: the app writes a page as
// markdown (web/src/document/markdown.ts), and the server must read that markdown back into the
// document the editor had. The fixture holds the app's markdown for every example of
// docs/document-format.md it can write (the Vitest test keeps it current).
func TestAppMarkdownReadsBackAsTheDocument(t *testing.T) {
	raw, err := os.ReadFile("src/document/testdata/markdown-roundtrip.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name     string
		Markdown string
		Doc      any
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	files := map[string]string{".gitbook/assets/report.pdf": "file-report", ".gitbook/assets/cat.png": "file-cat"}
	resolve := func(target string) (string, bool) { id, ok := files[target]; return id, ok }
	for _, c := range cases {
		b, err := json.Marshal(document.FromMarkdown(c.Markdown, resolve))
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.Doc) {
			want, _ := json.Marshal(c.Doc)
			t.Errorf("%s: the app's markdown\n%s\nreads back as\n%s\nwant\n%s", c.Name, c.Markdown, b, want)
		}
	}
}
