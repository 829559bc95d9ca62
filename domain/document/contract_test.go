package document

import (
	"encoding/json"
	"strings"
	"testing"
)

// The REST API's document holds the contract's node types only: Bindery's own nodes become the
// contract's nearest ones, their content kept.
func TestContract(t *testing.T) {
	md := "{% columns %}\n{% column %}\nLeft\n{% endcolumn %}\n\n{% column %}\nRight\n{% endcolumn %}\n{% endcolumns %}\n\n" +
		"{% if visitor.claims.plan == \"pro\" %}\nPro text.\n{% endif %}\n\n" +
		"{% updates %}\n{% update date=\"2026-01-15\" %}\nShipped.\n{% endupdate %}\n{% endupdates %}\n\n" +
		"<div><iframe src=\"https://e.example\"></iframe>\n<b>x</b></div>\n\n" +
		"Ask <button type=\"button\" class=\"button primary\" data-action=\"ask\">a question</button> now\n\n" +
		"{% hint %}\n{% columns %}\n{% column %}\nNested\n{% endcolumn %}\n{% endcolumns %}\n{% endhint %}\n"
	doc := FromMarkdown(md, nil)
	full, _ := json.Marshal(doc)
	got, _ := json.Marshal(Contract(doc))
	for _, bindery := range []string{`"type":"columns"`, `"type":"if"`, `"type":"updates"`, `"type":"html"`, `"type":"button"`} {
		if !strings.Contains(string(full), bindery) {
			t.Fatalf("the document lacks %s: %s", bindery, full)
		}
		if strings.Contains(string(got), bindery) {
			t.Errorf("the contract's document holds %s: %s", bindery, got)
		}
	}
	for _, want := range []string{
		`{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Left","marks":[]}]}]}`,
		`"text":"Pro text."`,
		`{"object":"leaf","text":"2026-01-15","marks":[{"object":"mark","type":"bold","data":{}}]}`, `"text":"Shipped."`,
		`"type":"code","key":"b","data":{"syntax":"html"},"nodes":[{"object":"block","type":"code-line","key":"b.0","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"\u003cdiv\u003e\u003ciframe src=\"https://e.example\"\u003e\u003c/iframe\u003e","marks":[]}]}]}`,
		`{"object":"text","leaves":[{"object":"leaf","text":"Ask a question now","marks":[]}]}`,
		`"type":"hint","key":"e","data":{"style":"info"},"nodes":[{"object":"block","type":"paragraph","key":"h"`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the contract's document lacks %s\n%s", want, got)
		}
	}
	// The document itself is unchanged.
	if again, _ := json.Marshal(doc); string(again) != string(full) {
		t.Errorf("Contract changed its input")
	}
}
