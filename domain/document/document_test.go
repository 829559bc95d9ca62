package document

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testFiles is the revision's files for the tests: path → file id.
var testFiles = map[string]string{
	".gitbook/assets/report.pdf": "file-report",
	".gitbook/assets/cat.png":    "file-cat",
}

func testResolver(target string) (string, bool) {
	id, ok := testFiles[target]
	return id, ok
}

// assertJSON compares the document's JSON with want as JSON trees.
func assertJSON(t *testing.T, doc Document, want string) {
	t.Helper()
	got, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var gotTree, wantTree any
	if err := json.Unmarshal(got, &gotTree); err != nil {
		t.Fatalf("unmarshal got: %v", err)
	}
	if err := json.Unmarshal([]byte(want), &wantTree); err != nil {
		t.Fatalf("bad want JSON: %v", err)
	}
	if diff := cmp.Diff(wantTree, gotTree); diff != "" {
		t.Errorf("document mismatch (-want +got):\n%s\ngot: %s", diff, got)
	}
}

func TestFromMarkdown(t *testing.T) {
	tests := []struct {
		name     string
		markdown string
		want     string
	}{
		{
			name:     "empty",
			markdown: "",
			want:     `{"object":"document","data":{},"nodes":[]}`,
		},
		{
			name:     "blank lines only",
			markdown: "\n  \n\n",
			want:     `{"object":"document","data":{},"nodes":[]}`,
		},
		{
			name:     "paragraph",
			markdown: "Hello world.",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Hello world.","marks":[]}]}]}
			]}`,
		},
		{
			name:     "marks",
			markdown: "Plain **bold** *italic* ~~struck~~ `code` ***both*** **bold `code`**",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"Plain ","marks":[]},{"object":"leaf","text":"bold","marks":[{"object":"mark","type":"bold","data":{}}]},{"object":"leaf","text":" ","marks":[]},{"object":"leaf","text":"italic","marks":[{"object":"mark","type":"italic","data":{}}]},{"object":"leaf","text":" ","marks":[]},{"object":"leaf","text":"struck","marks":[{"object":"mark","type":"strikethrough","data":{}}]},{"object":"leaf","text":" ","marks":[]},{"object":"leaf","text":"code","marks":[{"object":"mark","type":"code","data":{}}]},{"object":"leaf","text":" ","marks":[]},{"object":"leaf","text":"both","marks":[{"object":"mark","type":"italic","data":{}},{"object":"mark","type":"bold","data":{}}]},{"object":"leaf","text":" ","marks":[]},{"object":"leaf","text":"bold ","marks":[{"object":"mark","type":"bold","data":{}}]},{"object":"leaf","text":"code","marks":[{"object":"mark","type":"bold","data":{}},{"object":"mark","type":"code","data":{}}]}]}
				]}
			]}`,
		},
		{
			name:     "line breaks",
			markdown: "one\ntwo  \nthree\\\nfour",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"one two\nthree\nfour","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "escapes and entities",
			markdown: "\\*not italic\\* &amp; &copy; &#35;",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"*not italic* & © #","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "headings",
			markdown: "# One\n\n## Two\n\n### Three\n\n#### Four\n\n###### Six",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"heading-1","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"One","marks":[]}]}]},
				{"object":"block","type":"heading-2","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Two","marks":[]}]}]},
				{"object":"block","type":"heading-3","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Three","marks":[]}]}]},
				{"object":"block","type":"heading-3","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Four","marks":[]}]}]},
				{"object":"block","type":"heading-3","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Six","marks":[]}]}]}
			]}`,
		},
		{
			name:     "heading anchors",
			markdown: "## Custom {#custom-id}\n\n## GitBook anchor <a href=\"#gb-anchor\" id=\"gb-anchor\"></a>\n\n## Invalid {#Not_Valid}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"heading-2","key":"1","data":{"id":"custom-id"},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"Custom","marks":[]}]}
				]},
				{"object":"block","type":"heading-2","key":"2","data":{"id":"gb-anchor"},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"GitBook anchor","marks":[]}]}
				]},
				{"object":"block","type":"heading-2","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Invalid","marks":[]}]}]}
			]}`,
		},
		{
			name:     "empty heading",
			markdown: "#",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"heading-1","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}
			]}`,
		},
		{
			name:     "links",
			markdown: "[site](https://example.com) and [**bold link**](https://b.example \"title\") and <https://auto.example> and www.linkify.example",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"inline","type":"link","key":"2","data":{"ref":{"kind":"url","url":"https://example.com"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"site","marks":[]}]}
					]},
					{"object":"text","leaves":[{"object":"leaf","text":" and ","marks":[]}]},
					{"object":"inline","type":"link","key":"3","data":{"ref":{"kind":"url","url":"https://b.example"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"bold link","marks":[{"object":"mark","type":"bold","data":{}}]}]}
					]},
					{"object":"text","leaves":[{"object":"leaf","text":" and ","marks":[]}]},
					{"object":"inline","type":"link","key":"4","data":{"ref":{"kind":"url","url":"https://auto.example"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"https://auto.example","marks":[]}]}
					]},
					{"object":"text","leaves":[{"object":"leaf","text":" and ","marks":[]}]},
					{"object":"inline","type":"link","key":"5","data":{"ref":{"kind":"url","url":"http://www.linkify.example"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"www.linkify.example","marks":[]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "link in marks",
			markdown: "**see [docs](/docs)**",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"see ","marks":[{"object":"mark","type":"bold","data":{}}]}]},
					{"object":"inline","type":"link","key":"2","data":{"ref":{"kind":"url","url":"/docs"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"docs","marks":[{"object":"mark","type":"bold","data":{}}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "unordered list",
			markdown: "- one\n- two\n  - nested",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-unordered","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"one","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"two","marks":[]}]}]},
						{"object":"block","type":"list-unordered","key":"6","data":{},"nodes":[
							{"object":"block","type":"list-item","key":"7","data":{},"nodes":[
								{"object":"block","type":"paragraph","key":"8","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"nested","marks":[]}]}]}
							]}
						]}
					]}
				]}
			]}`,
		},
		{
			name:     "ordered list",
			markdown: "1. one\n2. two",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-ordered","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"one","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"two","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "ordered list start",
			markdown: "3. three\n4. four",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-ordered","key":"1","data":{"start":3},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"three","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"four","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "task list",
			markdown: "- [x] done\n- [ ] todo",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-tasks","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{"checked":true},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"done","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"4","data":{"checked":false},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"todo","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "mixed task list",
			markdown: "- [x] done\n- plain",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-tasks","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{"checked":true},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"done","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"4","data":{"checked":false},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"plain","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "loose list",
			markdown: "- one\n\n  more\n\n- two",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-unordered","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"one","marks":[]}]}]},
						{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"more","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"5","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"two","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "empty list item",
			markdown: "-\n- b",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-unordered","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}
					]},
					{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"b","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "blockquote",
			markdown: "> quoted **text**\n>\n> - item",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"blockquote","key":"1","data":{},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"quoted ","marks":[]},{"object":"leaf","text":"text","marks":[{"object":"mark","type":"bold","data":{}}]}]}
					]},
					{"object":"block","type":"list-unordered","key":"3","data":{},"nodes":[
						{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
							{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"item","marks":[]}]}]}
						]}
					]}
				]}
			]}`,
		},
		{
			name:     "divider",
			markdown: "above\n\n---\n\nbelow",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"above","marks":[]}]}]},
				{"object":"block","type":"divider","key":"2","isVoid":true,"data":{}},
				{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"below","marks":[]}]}]}
			]}`,
		},
		{
			name:     "fenced code",
			markdown: "```go\nfunc main() {\n\n\tprintln(1)\n}\n```",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"code","key":"1","data":{"syntax":"go"},"nodes":[
					{"object":"block","type":"code-line","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"func main() {","marks":[]}]}]},
					{"object":"block","type":"code-line","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]},
					{"object":"block","type":"code-line","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"\tprintln(1)","marks":[]}]}]},
					{"object":"block","type":"code-line","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"}","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "fenced code without syntax",
			markdown: "```\nplain\n```",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"code","key":"1","data":{"syntax":"text"},"nodes":[
					{"object":"block","type":"code-line","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"plain","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "indented code",
			markdown: "    indented\n    code",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"code","key":"1","data":{"syntax":"text"},"nodes":[
					{"object":"block","type":"code-line","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"indented","marks":[]}]}]},
					{"object":"block","type":"code-line","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"code","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "empty fenced code",
			markdown: "```sh\n```",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"code","key":"1","data":{"syntax":"sh"},"nodes":[
					{"object":"block","type":"code-line","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "image alone",
			markdown: "![A cat](https://example.com/cat.png)",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"images","key":"1","isVoid":false,"data":{},"nodes":[
					{"object":"block","type":"image","key":"2","isVoid":true,"data":{"alt":"A cat","ref":{"kind":"url","url":"https://example.com/cat.png"}},"fragments":[]}
				]}
			]}`,
		},
		{
			name:     "images with caption",
			markdown: "![one](https://e.example/1.png \"First\")\n![](https://e.example/2.png)",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"images","key":"1","isVoid":false,"data":{},"nodes":[
					{"object":"block","type":"image","key":"2","isVoid":true,"data":{"alt":"one","ref":{"kind":"url","url":"https://e.example/1.png"}},"fragments":[
						{"object":"fragment","key":"3","fragment":"caption","nodes":[
							{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"First","marks":[]}]}]}
						]}
					]},
					{"object":"block","type":"image","key":"5","isVoid":true,"data":{"ref":{"kind":"url","url":"https://e.example/2.png"}},"fragments":[]}
				]}
			]}`,
		},
		{
			name:     "inline image",
			markdown: "Icon ![i](https://e.example/i.png) here",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"Icon ","marks":[]}]},
					{"object":"inline","type":"inline-image","key":"2","isVoid":true,"data":{"alt":"i","ref":{"kind":"url","url":"https://e.example/i.png"}}},
					{"object":"text","leaves":[{"object":"leaf","text":" here","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "table",
			markdown: "| Name | **Role** | Score |\n|:-----|:----:|------:|\n| Ann | *lead* | 3 |\n| Bob | | 4 |",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"table","key":"1","isVoid":true,"data":{"definition":{"2":{"id":"2","textAlignment":"left","title":"Name","type":"text"},"3":{"id":"3","textAlignment":"center","title":"Role","type":"text"},"4":{"id":"4","textAlignment":"right","title":"Score","type":"text"}},"records":{"5":{"orderIndex":"a0","values":{"2":"6","3":"8","4":"a"}},"c":{"orderIndex":"a1","values":{"2":"d","3":"f","4":"h"}}},"view":{"columns":["2","3","4"],"hideHeader":false,"type":"grid"}},"fragments":[
					{"object":"fragment","key":"6","fragment":"6","nodes":[
						{"object":"block","type":"paragraph","key":"7","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Ann","marks":[]}]}]}
					]},
					{"object":"fragment","key":"8","fragment":"8","nodes":[
						{"object":"block","type":"paragraph","key":"9","data":{},"nodes":[
							{"object":"text","leaves":[{"object":"leaf","text":"lead","marks":[{"object":"mark","type":"italic","data":{}}]}]}
						]}
					]},
					{"object":"fragment","key":"a","fragment":"a","nodes":[
						{"object":"block","type":"paragraph","key":"b","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"3","marks":[]}]}]}
					]},
					{"object":"fragment","key":"d","fragment":"d","nodes":[
						{"object":"block","type":"paragraph","key":"e","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Bob","marks":[]}]}]}
					]},
					{"object":"fragment","key":"f","fragment":"f","nodes":[
						{"object":"block","type":"paragraph","key":"g","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}
					]},
					{"object":"fragment","key":"h","fragment":"h","nodes":[
						{"object":"block","type":"paragraph","key":"i","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"4","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "math",
			markdown: "$$\nx^2 + y^2\n$$\n\nInline $$e=mc^2$$ math.",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"math","key":"1","isVoid":true,"data":{"formula":"x^2 + y^2"}},
				{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"Inline ","marks":[]}]},
					{"object":"inline","type":"inline-math","key":"3","isVoid":true,"data":{"formula":"e=mc^2"}},
					{"object":"text","leaves":[{"object":"leaf","text":" math.","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "hint styles",
			markdown: "{% hint style=\"info\" %}\nI\n{% endhint %}\n\n{% hint style=\"warning\" %}\nW\n{% endhint %}\n\n{% hint style=\"danger\" %}\nD\n{% endhint %}\n\n{% hint style=\"success\" %}\nS\n{% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"I","marks":[]}]}]}
				]},
				{"object":"block","type":"hint","key":"3","data":{"style":"warning"},"nodes":[
					{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"W","marks":[]}]}]}
				]},
				{"object":"block","type":"hint","key":"5","data":{"style":"danger"},"nodes":[
					{"object":"block","type":"paragraph","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"D","marks":[]}]}]}
				]},
				{"object":"block","type":"hint","key":"7","data":{"style":"success"},"nodes":[
					{"object":"block","type":"paragraph","key":"8","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"S","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "hint default style",
			markdown: "{% hint %}\nDefault\n{% endhint %}\n\n{% hint style=\"nope\" %}\nUnknown\n{% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Default","marks":[]}]}]}
				]},
				{"object":"block","type":"hint","key":"3","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Unknown","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "hint with list and code",
			markdown: "{% hint style=\"warning\" %}\nCareful:\n\n- one\n- **two**\n\n```bash\nrm -rf /tmp/x\n```\n{% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"warning"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Careful:","marks":[]}]}]},
					{"object":"block","type":"list-unordered","key":"3","data":{},"nodes":[
						{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
							{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"one","marks":[]}]}]}
						]},
						{"object":"block","type":"list-item","key":"6","data":{},"nodes":[
							{"object":"block","type":"paragraph","key":"7","data":{},"nodes":[
								{"object":"text","leaves":[{"object":"leaf","text":"two","marks":[{"object":"mark","type":"bold","data":{}}]}]}
							]}
						]}
					]},
					{"object":"block","type":"code","key":"8","data":{"syntax":"bash"},"nodes":[
						{"object":"block","type":"code-line","key":"9","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"rm -rf /tmp/x","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "empty hint",
			markdown: "{% hint style=\"info\" %}\n{% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "tabs",
			markdown: "{% tabs %}\n{% tab title=\"First\" %}\nFirst para.\n\nSecond para.\n{% endtab %}\n\n{% tab title=\"Second\" %}\nOther para.\n\nLast para.\n{% endtab %}\n{% endtabs %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"tabs","key":"1","data":{},"nodes":[
					{"object":"block","type":"tabs-item","key":"2","data":{"title":"First"},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"First para.","marks":[]}]}]},
						{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Second para.","marks":[]}]}]}
					]},
					{"object":"block","type":"tabs-item","key":"5","data":{"title":"Second"},"nodes":[
						{"object":"block","type":"paragraph","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Other para.","marks":[]}]}]},
						{"object":"block","type":"paragraph","key":"7","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Last para.","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "nested tabs",
			markdown: "{% tabs %}\n{% tab title=\"Outer\" %}\nBefore\n\n{% tabs %}\n{% tab title=\"Inner\" %}\nInside\n{% endtab %}\n{% endtabs %}\n\nAfter\n{% endtab %}\n{% endtabs %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"tabs","key":"1","data":{},"nodes":[
					{"object":"block","type":"tabs-item","key":"2","data":{"title":"Outer"},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Before","marks":[]}]}]},
						{"object":"block","type":"tabs","key":"4","data":{},"nodes":[
							{"object":"block","type":"tabs-item","key":"5","data":{"title":"Inner"},"nodes":[
								{"object":"block","type":"paragraph","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Inside","marks":[]}]}]}
							]}
						]},
						{"object":"block","type":"paragraph","key":"7","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"After","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "stray blocks in tabs",
			markdown: "{% tabs %}\nLoose\n{% tab title=\"T\" %}\nIn\n{% endtab %}\nTrailing\n{% endtabs %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"tabs","key":"1","data":{},"nodes":[
					{"object":"block","type":"tabs-item","key":"2","data":{"title":""},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Loose","marks":[]}]}]}
					]},
					{"object":"block","type":"tabs-item","key":"4","data":{"title":"T"},"nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"In","marks":[]}]}]},
						{"object":"block","type":"paragraph","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Trailing","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "code tag",
			markdown: "{% code title=\"index.js\" lineNumbers=\"true\" overflow=\"wrap\" %}\n```javascript\nconsole.log(1);\n```\n{% endcode %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"code","key":"1","data":{"lineNumbers":true,"overflow":"wrap","syntax":"javascript","title":"index.js"},"nodes":[
					{"object":"block","type":"code-line","key":"2","data":{},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"console.log(1);","marks":[]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "embed",
			markdown: "{% embed url=\"https://www.youtube.com/watch?v=abc\" %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"embed","key":"1","isVoid":true,"data":{"url":"https://www.youtube.com/watch?v=abc"}}
			]}`,
		},
		{
			name:     "embed with caption",
			markdown: "{% embed url=\"https://example.com\" %}\nA caption\n{% endembed %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"embed","key":"1","isVoid":true,"data":{"url":"https://example.com"}},
				{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"A caption","marks":[]}]}]}
			]}`,
		},
		{
			name:     "embed without url",
			markdown: "{% embed %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"{% embed %}","marks":[]}]}]}
			]}`,
		},
		{
			name:     "file resolved",
			markdown: "{% file src=\".gitbook/assets/report.pdf\" %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"file","key":"1","isVoid":true,"data":{"ref":{"file":"file-report","kind":"file"}}}
			]}`,
		},
		{
			name:     "file with its caption on its line",
			markdown: "{% file src=\".gitbook/assets/report.pdf\" %}The **report**{% endfile %}\nAfter",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"file","key":"1","isVoid":true,"data":{"ref":{"file":"file-report","kind":"file"}}},
				{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[
					{"object":"leaf","text":"The ","marks":[]},
					{"object":"leaf","text":"report","marks":[{"object":"mark","type":"bold","data":{}}]}
				]}]},
				{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"After","marks":[]}]}]}
			]}`,
		},
		{
			name:     "file with an empty caption on its line",
			markdown: "{% file src=\".gitbook/assets/report.pdf\" %} {% endfile %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"file","key":"1","isVoid":true,"data":{"ref":{"file":"file-report","kind":"file"}}}
			]}`,
		},
		{
			name:     "embed with its caption on its line",
			markdown: "{% embed url=\"https://e.example/v\" %}A video{% endembed %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"embed","key":"1","isVoid":true,"data":{"url":"https://e.example/v"}},
				{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"A video","marks":[]}]}]}
			]}`,
		},
		{
			name:     "file unresolved",
			markdown: "{% file src=\"missing.pdf\" %}\nCaption\n{% endfile %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"inline","type":"link","key":"2","data":{"ref":{"kind":"url","url":"missing.pdf"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"missing.pdf","marks":[]}]}
					]}
				]},
				{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Caption","marks":[]}]}]}
			]}`,
		},
		{
			name:     "content-ref",
			markdown: "{% content-ref url=\"other-page.md\" %}\n[other-page.md](other-page.md)\n{% endcontent-ref %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"content-ref","key":"1","isVoid":true,"data":{"ref":{"kind":"url","url":"other-page.md"}}}
			]}`,
		},
		{
			name:     "details",
			markdown: "<details>\n\n<summary>Click **here**</summary>\n\nHidden text.\n\n</details>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"expandable","key":"1","isVoid":true,"data":{},"fragments":[
					{"object":"fragment","key":"2","fragment":"expandable-title","type":"expandable-title","nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[
							{"object":"text","leaves":[{"object":"leaf","text":"Click ","marks":[]},{"object":"leaf","text":"here","marks":[{"object":"mark","type":"bold","data":{}}]}]}
						]}
					]},
					{"object":"fragment","key":"4","fragment":"expandable-body","type":"expandable-body","nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Hidden text.","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "details summary on open line",
			markdown: "<details><summary>Title</summary>\nBody\n</details>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"expandable","key":"1","isVoid":true,"data":{},"fragments":[
					{"object":"fragment","key":"2","fragment":"expandable-title","type":"expandable-title","nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Title","marks":[]}]}]}
					]},
					{"object":"fragment","key":"4","fragment":"expandable-body","type":"expandable-body","nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Body","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "details without summary",
			markdown: "<details>\nBody\n</details>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"expandable","key":"1","isVoid":true,"data":{},"fragments":[
					{"object":"fragment","key":"2","fragment":"expandable-title","type":"expandable-title","nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]}
					]},
					{"object":"fragment","key":"4","fragment":"expandable-body","type":"expandable-body","nodes":[
						{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Body","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "figure",
			markdown: "<figure><img src=\"https://e.example/f.png\" alt=\"Fig\"><figcaption><p>The caption</p></figcaption></figure>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"images","key":"1","isVoid":false,"data":{},"nodes":[
					{"object":"block","type":"image","key":"2","isVoid":true,"data":{"alt":"Fig","ref":{"kind":"url","url":"https://e.example/f.png"}},"fragments":[
						{"object":"fragment","key":"3","fragment":"caption","nodes":[
							{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"The caption","marks":[]}]}]}
						]}
					]}
				]}
			]}`,
		},
		{
			name:     "html img inline",
			markdown: "Press <img src=\"https://e.example/k.png\" alt=\"key\" data-size=\"line\"> now",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"Press ","marks":[]}]},
					{"object":"inline","type":"inline-image","key":"2","isVoid":true,"data":{"alt":"key","ref":{"kind":"url","url":"https://e.example/k.png"},"size":"line"}},
					{"object":"text","leaves":[{"object":"leaf","text":" now","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "html block: a wrapper of known elements falls away",
			markdown: "<div class=\"x\">\n<b>raw</b>\n</div>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"raw","marks":[{"object":"mark","type":"bold","data":{}}]}]}
				]}
			]}`,
		},
		{
			name:     "html block the format does not define is kept as html",
			markdown: "<div class=\"x\"><iframe src=\"https://e.example\"></iframe></div>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"html","key":"1","isVoid":true,"data":{"html":"<div class=\"x\"><iframe src=\"https://e.example\"></iframe></div>"}}
			]}`,
		},
		{
			name:     "raw html inline: tags fall away, their text stays",
			markdown: "a <span>b</span> c<br>d <foo>",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"a b c\nd ","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "unknown tag",
			markdown: "{% playground lang=\"go\" %}\nBody\n{% endplayground %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"{% playground lang=\"go\" %} Body {% endplayground %}","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "tab outside tabs",
			markdown: "{% tab title=\"x\" %}\ntext\n{% endtab %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"{% tab title=\"x\" %} text {% endtab %}","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "same-line tag content",
			markdown: "{% hint style=\"info\" %} inline",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"text","leaves":[{"object":"leaf","text":"{% hint style=\"info\" %} inline","marks":[]}]}
				]}
			]}`,
		},
		{
			name:     "unterminated hint",
			markdown: "{% hint style=\"danger\" %}\nNever closed\n\n- item",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"danger"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Never closed","marks":[]}]}]},
					{"object":"block","type":"list-unordered","key":"3","data":{},"nodes":[
						{"object":"block","type":"list-item","key":"4","data":{},"nodes":[
							{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"item","marks":[]}]}]}
						]}
					]}
				]}
			]}`,
		},
		{
			name:     "unterminated tab closed by endtabs",
			markdown: "{% tabs %}\n{% tab title=\"A\" %}\nA text\n{% endtabs %}\n\nAfter",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"tabs","key":"1","data":{},"nodes":[
					{"object":"block","type":"tabs-item","key":"2","data":{"title":"A"},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"A text","marks":[]}]}]}
					]}
				]},
				{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"After","marks":[]}]}]}
			]}`,
		},
		{
			name:     "unterminated tabs",
			markdown: "{% tabs %}\n{% tab title=\"A\" %}\nA text",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"tabs","key":"1","data":{},"nodes":[
					{"object":"block","type":"tabs-item","key":"2","data":{"title":"A"},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"A text","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "end tag inside code in hint",
			markdown: "{% hint %}\n```liquid\n{% endhint %}\n```\n{% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"code","key":"2","data":{"syntax":"liquid"},"nodes":[
						{"object":"block","type":"code-line","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"{% endhint %}","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "tag in list item",
			markdown: "1. Step\n\n   {% hint style=\"success\" %}\n   Done\n   {% endhint %}\n2. Next",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"list-ordered","key":"1","data":{},"nodes":[
					{"object":"block","type":"list-item","key":"2","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Step","marks":[]}]}]},
						{"object":"block","type":"hint","key":"4","data":{"style":"success"},"nodes":[
							{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Done","marks":[]}]}]}
						]}
					]},
					{"object":"block","type":"list-item","key":"6","data":{},"nodes":[
						{"object":"block","type":"paragraph","key":"7","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Next","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "tag in blockquote",
			markdown: "> {% hint style=\"warning\" %}\n> Quoted hint\n> {% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"blockquote","key":"1","data":{},"nodes":[
					{"object":"block","type":"hint","key":"2","data":{"style":"warning"},"nodes":[
						{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Quoted hint","marks":[]}]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "tag interrupts paragraph",
			markdown: "Text\n{% hint %}\nHint\n{% endhint %}\nMore",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Text","marks":[]}]}]},
				{"object":"block","type":"hint","key":"2","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Hint","marks":[]}]}]}
				]},
				{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"More","marks":[]}]}]}
			]}`,
		},
		{
			name:     "crlf",
			markdown: "{% hint %}\r\nWindows\r\n{% endhint %}\r\n",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Windows","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "hint closes list",
			markdown: "{% hint %}\n- a\n- b\n{% endhint %}\nAfter",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"list-unordered","key":"2","data":{},"nodes":[
						{"object":"block","type":"list-item","key":"3","data":{},"nodes":[
							{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a","marks":[]}]}]}
						]},
						{"object":"block","type":"list-item","key":"5","data":{},"nodes":[
							{"object":"block","type":"paragraph","key":"6","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"b","marks":[]}]}]}
						]}
					]}
				]},
				{"object":"block","type":"paragraph","key":"7","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"After","marks":[]}]}]}
			]}`,
		},
		{
			name:     "nested hints",
			markdown: "{% hint style=\"info\" %}\nOuter\n\n{% hint style=\"danger\" %}\nInner\n{% endhint %}\n\nStill outer\n{% endhint %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"hint","key":"1","data":{"style":"info"},"nodes":[
					{"object":"block","type":"paragraph","key":"2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Outer","marks":[]}]}]},
					{"object":"block","type":"hint","key":"3","data":{"style":"danger"},"nodes":[
						{"object":"block","type":"paragraph","key":"4","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Inner","marks":[]}]}]}
					]},
					{"object":"block","type":"paragraph","key":"5","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Still outer","marks":[]}]}]}
				]}
			]}`,
		},
		{
			name:     "code tag without fence",
			markdown: "{% code title=\"x\" %}\nNot code\n{% endcode %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Not code","marks":[]}]}]}
			]}`,
		},
		{
			name:     "content-ref without url",
			markdown: "{% content-ref %}\n[p](p.md)\n{% endcontent-ref %}",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"paragraph","key":"1","data":{},"nodes":[
					{"object":"inline","type":"link","key":"2","data":{"ref":{"kind":"url","url":"p.md"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"p","marks":[]}]}
					]}
				]}
			]}`,
		},
		{
			name:     "resolved image and link",
			markdown: "![Cat](.gitbook/assets/cat.png)\n\n[report](../.gitbook/assets/report.pdf)",
			want: `{"object":"document","data":{},"nodes":[
				{"object":"block","type":"images","key":"1","isVoid":false,"data":{},"nodes":[
					{"object":"block","type":"image","key":"2","isVoid":true,"data":{"alt":"Cat","ref":{"file":"file-cat","kind":"file"}},"fragments":[]}
				]},
				{"object":"block","type":"paragraph","key":"3","data":{},"nodes":[
					{"object":"inline","type":"link","key":"4","data":{"ref":{"file":"file-report","kind":"file"}},"nodes":[
						{"object":"text","leaves":[{"object":"leaf","text":"report","marks":[]}]}
					]}
				]}
			]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertJSON(t, FromMarkdown(tt.markdown, testResolver), tt.want)
		})
	}
}

func TestEmptyMarkdownJSON(t *testing.T) {
	for _, md := range []string{"", "\n", "   \n\t\n"} {
		got, err := json.Marshal(FromMarkdown(md, nil))
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"object":"document","data":{},"nodes":[]}`; string(got) != want {
			t.Errorf("FromMarkdown(%q) = %s, want %s", md, got, want)
		}
	}
}

func TestZeroValuesMarshal(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"document", Document{}, `{"object":"document","data":{},"nodes":[]}`},
		{"block", Node{Object: ObjectBlock, Type: "paragraph", Key: "k"}, `{"object":"block","type":"paragraph","key":"k","data":{},"nodes":[]}`},
		{"void block", Node{Object: ObjectBlock, Type: "divider", Key: "k", IsVoid: true, Nodes: []Node{{Object: ObjectText}}}, `{"object":"block","type":"divider","key":"k","isVoid":true,"data":{}}`},
		{"fragments", Node{Object: ObjectBlock, Type: "image", Key: "k", IsVoid: true, Fragments: []Fragment{}}, `{"object":"block","type":"image","key":"k","isVoid":true,"data":{},"fragments":[]}`},
		{"text", Node{Object: ObjectText}, `{"object":"text","leaves":[]}`},
		{"leaf", Leaf{Text: "x"}, `{"object":"leaf","text":"x","marks":[]}`},
		{"mark", Mark{Type: "bold"}, `{"object":"mark","type":"bold","data":{}}`},
		{"fragment", Fragment{Key: "k", Fragment: "caption"}, `{"object":"fragment","key":"k","fragment":"caption","nodes":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestHTMLEscaping(t *testing.T) {
	doc := FromMarkdown("a &lt;b&gt; & c", nil)
	// A caller's json.Marshal escapes <, > and & as usual…
	got, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"a \u003cb\u003e \u0026 c"`) {
		t.Errorf("json.Marshal: %s", got)
	}
	// …and an encoder told not to keeps them.
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"doc": doc}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"a <b> & c"`) {
		t.Errorf("encoder without HTML escaping: %s", buf.String())
	}
}

func TestFileResolution(t *testing.T) {
	tests := []struct {
		name     string
		markdown string
		asked    []string // the resolver's questions, in order
		want     map[string]any
	}{
		{
			name:     "path as written",
			markdown: "![](.gitbook/assets/cat.png)",
			asked:    []string{".gitbook/assets/cat.png"},
			want:     map[string]any{"kind": "file", "file": "file-cat"},
		},
		{
			name:     "relative path trimmed",
			markdown: "![](../../.gitbook/assets/cat.png)",
			asked:    []string{"../../.gitbook/assets/cat.png", ".gitbook/assets/cat.png"},
			want:     map[string]any{"kind": "file", "file": "file-cat"},
		},
		{
			name:     "percent-decoded",
			markdown: "![](.gitbook/assets/My%20Cat.png)",
			asked:    []string{".gitbook/assets/My%20Cat.png", ".gitbook/assets/My Cat.png"},
			want:     map[string]any{"kind": "file", "file": "file-my-cat"},
		},
		{
			name:     "angle-bracket destination with spaces",
			markdown: "![](<./.gitbook/assets/My Cat.png>)",
			asked:    []string{"./.gitbook/assets/My Cat.png", ".gitbook/assets/My Cat.png"},
			want:     map[string]any{"kind": "file", "file": "file-my-cat"},
		},
		{
			name:     "unknown file stays a URL",
			markdown: "![](img/nope.png)",
			asked:    []string{"img/nope.png"},
			want:     map[string]any{"kind": "url", "url": "img/nope.png"},
		},
		{
			name:     "absolute URL not asked",
			markdown: "![](https://cdn.example/cat.png)",
			want:     map[string]any{"kind": "url", "url": "https://cdn.example/cat.png"},
		},
		{
			name:     "protocol-relative URL not asked",
			markdown: "![](//cdn.example/cat.png)",
			want:     map[string]any{"kind": "url", "url": "//cdn.example/cat.png"},
		},
		{
			name:     "anchor not asked",
			markdown: "[top](#top)",
			want:     map[string]any{"kind": "url", "url": "#top"},
		},
		{
			name:     "mailto not asked",
			markdown: "[mail](mailto:a@b.example)",
			want:     map[string]any{"kind": "url", "url": "mailto:a@b.example"},
		},
		{
			name:     "link to a file",
			markdown: "[report](/.gitbook/assets/report.pdf)",
			asked:    []string{"/.gitbook/assets/report.pdf", ".gitbook/assets/report.pdf"},
			want:     map[string]any{"kind": "file", "file": "file-report"},
		},
		{
			name:     "file tag",
			markdown: `{% file src="../.gitbook/assets/report.pdf" %}`,
			asked:    []string{"../.gitbook/assets/report.pdf", ".gitbook/assets/report.pdf"},
			want:     map[string]any{"kind": "file", "file": "file-report"},
		},
	}
	files := map[string]string{
		".gitbook/assets/cat.png":    "file-cat",
		".gitbook/assets/My Cat.png": "file-my-cat",
		".gitbook/assets/report.pdf": "file-report",
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []string
			doc := FromMarkdown(tt.markdown, func(target string) (string, bool) {
				asked = append(asked, target)
				id, ok := files[target]
				return id, ok
			})
			if diff := cmp.Diff(tt.asked, asked); diff != "" {
				t.Errorf("resolver questions (-want +got):\n%s", diff)
			}
			ref := firstRef(doc.Nodes)
			if diff := cmp.Diff(tt.want, ref); diff != "" {
				t.Errorf("ref (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNilResolver(t *testing.T) {
	doc := FromMarkdown("![](.gitbook/assets/cat.png)\n\n{% file src=\"a.pdf\" %}", nil)
	if diff := cmp.Diff(map[string]any{"kind": "url", "url": ".gitbook/assets/cat.png"}, firstRef(doc.Nodes)); diff != "" {
		t.Errorf("image ref (-want +got):\n%s", diff)
	}
	// A file tag needs a file id: without one it stays a link.
	if got := doc.Nodes[1].Type; got != "paragraph" {
		t.Errorf("unresolved file tag became %q, want paragraph", got)
	}
}

// firstRef returns the data.ref of the first node (depth first) that has one.
func firstRef(nodes []Node) any {
	for _, n := range nodes {
		if ref, ok := n.Data["ref"]; ok {
			return ref
		}
		if ref := firstRef(n.Nodes); ref != nil {
			return ref
		}
	}
	return nil
}

// everything exercises every construct at once.
const everything = `# Title {#title}

Intro with **bold**, *italic*, ~~strike~~, ` + "`code`" + `, [a link](https://example.com) and $$x$$.

![Cat](.gitbook/assets/cat.png "A cat")

- [x] done
- [ ] todo

1. one
2. two

> quote

---

{% hint style="warning" %}
Careful:

- a
- b

` + "```go\nfmt.Println()\n```" + `
{% endhint %}

{% tabs %}
{% tab title="A" %}
Tab A
{% endtab %}

{% tab title="B" %}
Tab B
{% endtab %}
{% endtabs %}

{% code title="x.js" lineNumbers="true" %}
` + "```js\nx()\n```" + `
{% endcode %}

| H1 | H2 |
| -- | -- |
| c1 | c2 |

$$
a^2
$$

{% embed url="https://example.com/video" %}

{% file src=".gitbook/assets/report.pdf" %}

<details>
<summary>More</summary>
Hidden
</details>

<div>raw</div>
`

func TestDeterministicKeys(t *testing.T) {
	first, err := json.Marshal(FromMarkdown(everything, testResolver))
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := json.Marshal(FromMarkdown(everything, testResolver))
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(first) {
			t.Fatalf("two conversions differ:\n%s\n%s", first, again)
		}
	}
	doc := FromMarkdown(everything, testResolver)
	seen := map[string]bool{}
	checkKeys(t, doc.Nodes, seen)
	if len(seen) < 40 {
		t.Errorf("only %d keys seen; the sample should have many more", len(seen))
	}
}

// checkKeys asserts that every block, inline and fragment has a key unique in the document.
func checkKeys(t *testing.T, nodes []Node, seen map[string]bool) {
	t.Helper()
	for _, n := range nodes {
		if n.Object == ObjectText {
			if n.Key != "" || len(n.Nodes) != 0 {
				t.Errorf("text node with key or children: %+v", n)
			}
			continue
		}
		if n.Key == "" {
			t.Errorf("%s %q has no key", n.Object, n.Type)
		} else if seen[n.Key] {
			t.Errorf("key %q used twice", n.Key)
		}
		seen[n.Key] = true
		checkKeys(t, n.Nodes, seen)
		for _, f := range n.Fragments {
			if f.Key == "" || seen[f.Key] {
				t.Errorf("fragment %q key %q missing or reused", f.Fragment, f.Key)
			}
			seen[f.Key] = true
			checkKeys(t, f.Nodes, seen)
		}
	}
}

func TestOrderIndexSorts(t *testing.T) {
	prev := ""
	for i := range 5000 {
		s := orderIndex(i)
		if s <= prev {
			t.Fatalf("orderIndex(%d) = %q, not after %q", i, s, prev)
		}
		prev = s
	}
	for i, want := range map[int]string{0: "a0", 9: "a9", 10: "aA", 61: "az", 62: "b00", 63: "b01", 62 + 62*62: "c000"} {
		if got := orderIndex(i); got != want {
			t.Errorf("orderIndex(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	want, _ := json.Marshal(FromMarkdown(everything, testResolver))
	done := make(chan string, 8)
	for range 8 {
		go func() {
			got, _ := json.Marshal(FromMarkdown(everything, testResolver))
			done <- string(got)
		}()
	}
	for range 8 {
		if got := <-done; got != string(want) {
			t.Fatal("concurrent conversion differs")
		}
	}
}

// TestDeepNesting checks that pathological nesting stays bounded: content is kept, the JSON
// marshals (encoding/json refuses nesting past 10000) and the output's depth is capped.
func TestDeepNesting(t *testing.T) {
	tests := map[string]string{
		"blockquotes":     strings.Repeat(">", 3000) + " deep",
		"lists":           strings.Repeat("- ", 3000) + "deep",
		"hints":           strings.Repeat("{% hint %}\n", 3000) + "deep\n" + strings.Repeat("{% endhint %}\n", 3000),
		"tabs":            strings.Repeat("{% tabs %}\n{% tab title=\"t\" %}\n", 1000) + "deep\n",
		"details":         strings.Repeat("<details>\n", 3000) + "deep\n",
		"table in quotes": strings.Repeat("> ", 150) + "| a |\n" + strings.Repeat("> ", 150) + "|---|\n" + strings.Repeat("> ", 150) + "| deep |\n",
		// Inline HTML tags are paired once per paragraph: nesting, or tags never closed, cost
		// linear time (a search for each tag's end took minutes here).
		"inline html":          strings.Repeat("<b>", 20000) + "deep" + strings.Repeat("</b>", 20000),
		"inline html unclosed": strings.Repeat("<span>", 20000) + "deep",
		"nested links":         strings.Repeat(`<a href="x">`, 10000) + "deep" + strings.Repeat("</a>", 10000),
		"html blocks":          "<div>" + strings.Repeat("<div>", 2000) + "deep",
	}
	for name, md := range tests {
		t.Run(name, func(t *testing.T) {
			doc := FromMarkdown(md, nil)
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if !strings.Contains(string(b), "deep") {
				t.Errorf("content lost")
			}
			if d := depth(doc.Nodes); d > maxDepth+4 {
				t.Errorf("block depth %d, want at most about %d", d, maxDepth)
			}
		})
	}
}

func depth(nodes []Node) int {
	deepest := 0
	for _, n := range nodes {
		d := depth(n.Nodes)
		for _, f := range n.Fragments {
			d = max(d, depth(f.Nodes))
		}
		deepest = max(deepest, d+1)
	}
	return deepest
}

// FuzzFromMarkdown checks that any input converts without panicking into valid JSON with unique
// keys and no empty containers.
func FuzzFromMarkdown(f *testing.F) {
	for _, seed := range []string{
		everything,
		"{% tabs %}\n{% tab %}\n{% tabs %}\n{% tab title=\"x\" %}\n",
		"{% hint %}\n```\n{% endhint %}",
		"<details><summary></summary>\n<details>\n</details>",
		"$$\n$$ $$a$$ $$",
		"- [x]\n- [ ] {% hint %}\n  {% endhint %}",
		"| a |\n|---|\n| <img src=x> |",
		"<figure><img src=\"\"></figure>",
		"## <a id=\"x\"></a>",
		"{% endembed %}\n{% endfile %}\n{% endhint %}",
		"a[^1] b[^1] :tada::house:\n\n[^1]: c[^1] d[^2]\n\n[^2]: e[^1]",
		"{% swagger method=\"get\" %}\n{% swagger-parameter %}\n{% swagger-response %}\n{% endswagger %}",
		"{% prompt %}\n{% prompt %}\n```\n{% endprompt %}",
		"{% include \"x.md\" %}\n{% include 'y' %}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, md string) {
		doc := FromMarkdown(md, testResolver)
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if !json.Valid(b) {
			t.Fatalf("invalid JSON: %s", b)
		}
		checkKeys(t, doc.Nodes, map[string]bool{})
		checkNotEmpty(t, doc.Nodes)
	})
}

// checkNotEmpty asserts that non-void blocks and inlines have children.
func checkNotEmpty(t *testing.T, nodes []Node) {
	t.Helper()
	for _, n := range nodes {
		if n.Object == ObjectText {
			continue
		}
		if !n.IsVoid && len(n.Nodes) == 0 {
			t.Errorf("%s %q has no children", n.Object, n.Type)
		}
		checkNotEmpty(t, n.Nodes)
		for _, f := range n.Fragments {
			checkNotEmpty(t, f.Nodes)
		}
	}
}

// TestDocExamples keeps docs/document-format.md honest: every ```markdown example followed by a
// ```json example must convert to that JSON (a whole document, its first block, or the inline
// node with the example's key).
func TestDocExamples(t *testing.T) {
	raw, err := os.ReadFile("../../docs/document-format.md")
	if err != nil {
		t.Fatal(err)
	}
	type fence struct{ lang, body string }
	var fences []fence
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, "```") {
			continue
		}
		marker := line[:len(line)-len(strings.TrimLeft(line, "`"))]
		lang := strings.TrimPrefix(line, marker)
		var body []string
		for i++; i < len(lines) && lines[i] != marker; i++ {
			body = append(body, lines[i])
		}
		fences = append(fences, fence{lang, strings.Join(body, "\n")})
	}
	checked := 0
	for i := 0; i+1 < len(fences); i++ {
		if fences[i].lang != "markdown" || fences[i+1].lang != "json" {
			continue
		}
		md, want := fences[i].body, fences[i+1].body
		var wantTree map[string]any
		if err := json.Unmarshal([]byte(want), &wantTree); err != nil {
			t.Errorf("example after %q: bad JSON: %v", md, err)
			continue
		}
		doc := FromMarkdown(md, testResolver)
		b, _ := json.Marshal(doc)
		var gotDoc map[string]any
		if err := json.Unmarshal(b, &gotDoc); err != nil {
			t.Fatal(err)
		}
		var got any
		switch wantTree["object"] {
		case "document":
			got = gotDoc
		case "block":
			got = gotDoc["nodes"].([]any)[0]
		default:
			got = findKey(gotDoc, wantTree["key"])
		}
		if diff := cmp.Diff(any(wantTree), got); diff != "" {
			t.Errorf("example %q (-doc +actual):\n%s", md, diff)
		}
		checked++
	}
	t.Logf("%d examples checked", checked)
	if checked < 15 {
		t.Errorf("only %d examples checked", checked)
	}
}

// findKey returns the node with the given key in a decoded tree.
func findKey(v any, key any) any {
	switch v := v.(type) {
	case map[string]any:
		if v["key"] == key && v["object"] != "fragment" {
			return v
		}
		for _, field := range []string{"nodes", "fragments"} {
			if found := findKey(v[field], key); found != nil {
				return found
			}
		}
	case []any:
		for _, x := range v {
			if found := findKey(x, key); found != nil {
				return found
			}
		}
	}
	return nil
}

// FuzzJSONString checks the encoder's string escaping against encoding/json: same decoded value,
// and <, > and & left as they are.
func FuzzJSONString(f *testing.F) {
	for _, seed := range []string{"", "plain", "a\"b\\c", "\n\r\t\b\f\x00\x1f", "<>&", "\u2028\u2029", "\xff\xfe", "é😀", "a\xc3"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var e encoder
		e.str(s)
		var got string
		if err := json.Unmarshal(e.Bytes(), &got); err != nil {
			t.Fatalf("invalid JSON %q: %v", e.Bytes(), err)
		}
		want, _ := json.Marshal(s)
		var wantS string
		if err := json.Unmarshal(want, &wantS); err != nil {
			t.Fatal(err)
		}
		if got != wantS {
			t.Fatalf("decoded %q, want %q", got, wantS)
		}
		if strings.ContainsAny(s, "<>&") && !strings.ContainsAny(e.String(), "<>&") {
			t.Errorf("escaped HTML characters: %s", e.Bytes())
		}
	})
}
