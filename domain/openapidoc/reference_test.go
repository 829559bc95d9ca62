package openapidoc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const tagged = `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},
 "tags": [{"name": "zoo", "description": "Animals"}, {"name": "empty"}, {"name": "admin"}],
 "paths": {
  "/z": {"delete": {"tags": ["zoo"], "summary": "Remove", "responses": {"204": {"description": "gone"}}},
         "get": {"tags": ["zoo", "admin"], "operationId": "getZ", "deprecated": true, "responses": {"200": {"description": "ok"}}}},
  "/a/{id}": {"parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
         "get": {"summary": "Untagged | piped", "parameters": [{"name": "id", "in": "path", "required": true, "description": "The id", "schema": {"type": "integer"}}],
                 "responses": {"default": {"description": "err"}, "200": {"description": "ok"}}}},
  "/m": {"post": {"tags": ["misc"], "responses": {"200": {"description": "ok"}}}}
 }}`

func TestTags(t *testing.T) {
	d, err := Parse(context.Background(), []byte(tagged))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tag := range d.Tags() {
		var ops []string
		for _, o := range tag.Operations {
			ops = append(ops, o.Method+" "+o.Path)
		}
		got = append(got, tag.Name+": "+strings.Join(ops, ", "))
	}
	// Declared tags in order (empty ones left out), then undeclared ones, then the default;
	// paths in the document's order (not sorted), methods in the usual order.
	want := []string{"zoo: GET /z, DELETE /z", "admin: GET /z", "default: GET /a/{id}", "misc: POST /m"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("tags:\n got %q\nwant %q", got, want)
	}
	zoo, _ := d.Tag("zoo")
	md := TagMarkdown(zoo)
	for _, s := range []string{"Animals\n\n## getZ\n\n`GET /z`\n\n{% hint style=\"warning\" %}", "## Remove", "| `204` | gone |  |"} {
		if !strings.Contains(md, s) {
			t.Errorf("zoo page lacks %q:\n%s", s, md)
		}
	}
	def, _ := d.Tag(DefaultTag)
	md = TagMarkdown(def)
	// The operation's parameter replaces its path's; pipes are escaped; default comes last.
	for _, s := range []string{"## Untagged \\| piped", "| `id` | path | integer | yes | The id |", "| `200` | ok |  |\n| `default` | err |  |"} {
		if !strings.Contains(md, s) {
			t.Errorf("default page lacks %q:\n%s", s, md)
		}
	}
	if strings.Count(md, "| `id` |") != 1 {
		t.Errorf("parameter listed twice:\n%s", md)
	}
	if _, ok := d.Tag("empty"); ok {
		t.Error("a tag without operations has a page")
	}
}

// files serves a fake host: every path of it, or an error.
func files(m map[string]string) (Fetch, *[]string) {
	var asked []string
	return func(_ context.Context, url string) ([]byte, error) {
		asked = append(asked, url)
		if s, ok := m[url]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("not found")
	}, &asked
}

const splitRoot = `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "schemas/a.yaml#/A"}}}}
        "404": {$ref: "../common.yaml#/NotFound"}
`

func TestParseURL(t *testing.T) {
	ctx := context.Background()
	host := map[string]string{
		"https://h.test/api/schemas/a.yaml": "A: {type: object, properties: {b: {$ref: 'b.yaml#/B'}}}\n",
		"https://h.test/api/schemas/b.yaml": "B: {type: string}\n",
		"https://h.test/common.yaml":        "NotFound: {description: missing}\n",
	}
	fetch, asked := files(host)
	d, err := ParseURL(ctx, []byte(splitRoot), "https://h.test/api/openapi.yaml", fetch)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Files) != 3 || d.Files["schemas/a.yaml"] == nil || d.Files["schemas/b.yaml"] == nil || d.Files["../common.yaml"] == nil || len(*asked) != 3 {
		t.Errorf("files %v, asked %v", d.Files, *asked)
	}
	// A changed file changes the hash; a document without files hashes as before.
	host["https://h.test/api/schemas/b.yaml"] = "B: {type: integer}\n"
	fetch, _ = files(host)
	d2, err := ParseURL(ctx, []byte(splitRoot), "https://h.test/api/openapi.yaml", fetch)
	if err != nil || d2.Hash == d.Hash {
		t.Errorf("changed file: %v, hash %s", err, d2.Hash)
	}
	single := "openapi: 3.1.0\ninfo: {title: T, version: '1'}\n"
	a, _ := Parse(ctx, []byte(single))
	b, err := ParseURL(ctx, []byte(single), "https://h.test/x.yaml", fetch)
	if err != nil || a.Hash != b.Hash || b.Files != nil {
		t.Errorf("single document: %v, %s vs %s", err, a.Hash, b.Hash)
	}

	// Refused: another host, a missing file, an invalid file, too many files.
	other := strings.Replace(splitRoot, "schemas/a.yaml", "https://evil.test/a.yaml", 1)
	var re *RefError
	if _, err := ParseURL(ctx, []byte(other), "https://h.test/api/openapi.yaml", fetch); !errors.As(err, &re) || !strings.Contains(err.Error(), "own host") {
		t.Errorf("another host: %v", err)
	}
	missing := strings.Replace(splitRoot, "schemas/a.yaml", "schemas/none.yaml", 1)
	if _, err := ParseURL(ctx, []byte(missing), "https://h.test/api/openapi.yaml", fetch); !errors.As(err, &re) || !strings.Contains(err.Error(), "schemas/none.yaml") {
		t.Errorf("missing file: %v", err)
	}
	host["https://h.test/api/schemas/b.yaml"] = "B: {type: bogus}\n"
	fetch, _ = files(host)
	var p *Problem
	if _, err := ParseURL(ctx, []byte(splitRoot), "https://h.test/api/openapi.yaml", fetch); !errors.As(err, &p) || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("invalid file: %v", err)
	}
	var many strings.Builder
	many.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n")
	chain := map[string]string{}
	for i := 0; i <= MaxFiles; i++ {
		fmt.Fprintf(&many, "    S%d: {$ref: 's%d.yaml#/S'}\n", i, i)
		chain[fmt.Sprintf("https://h.test/s%d.yaml", i)] = "S: {type: string}\n"
	}
	fetch, _ = files(chain)
	if _, err := ParseURL(ctx, []byte(many.String()), "https://h.test/openapi.yaml", fetch); !errors.As(err, &re) || !strings.Contains(err.Error(), "more than") {
		t.Errorf("too many files: %v", err)
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range [][3]string{
		{"/api/openapi.yaml", "/api/schemas/pet.yaml", "schemas/pet.yaml"},
		{"/openapi.yaml", "/pet.yaml", "pet.yaml"},
		{"/api/v1/openapi.yaml", "/common.yaml", "../../common.yaml"},
		{"/api/v1/openapi.yaml", "/api/other/x.yaml", "../other/x.yaml"},
	} {
		if got := RelPath(c[0], c[1]); got != c[2] {
			t.Errorf("RelPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// An OpenAPI block shows one operation (method in any case) or some schemas; what the
// document lacks is reported, never made up.
func TestOperationAndSchemasMarkdown(t *testing.T) {
	d, err := Parse(context.Background(), []byte(tagged))
	if err != nil {
		t.Fatal(err)
	}
	md, ok := OperationMarkdown(d, "get", "/a/{id}")
	if !ok || !strings.HasPrefix(md, "## Untagged \\| piped\n\n`GET /a/{id}`") || !strings.Contains(md, "| `id` | path | integer | yes | The id |") {
		t.Errorf("OperationMarkdown = %v\n%s", ok, md)
	}
	for _, miss := range [][2]string{{"post", "/a/{id}"}, {"get", "/nowhere"}} {
		if _, ok := OperationMarkdown(d, miss[0], miss[1]); ok {
			t.Errorf("OperationMarkdown(%s %s) found an operation", miss[0], miss[1])
		}
	}
	if _, ok := SchemasMarkdown(d, []string{"Pet"}); ok {
		t.Errorf("SchemasMarkdown found a schema in a document without components")
	}
	pets, err := Parse(context.Background(), []byte(`{"openapi":"3.0.3","info":{"title":"P","version":"1"},"paths":{},
	 "components":{"schemas":{"Pet":{"type":"object","required":["name"],"properties":{"name":{"type":"string","description":"Its name"}}},"Err":{"type":"string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	md, ok = SchemasMarkdown(pets, []string{"Pet", "Missing"})
	if !ok || !strings.Contains(md, "## Pet") || !strings.Contains(md, "| `name` | string | yes | Its name |") || strings.Contains(md, "Err") {
		t.Errorf("SchemasMarkdown = %v\n%s", ok, md)
	}
}

// A webhook block shows the request the API sends, found by the webhook's name and method.
func TestWebhookMarkdown(t *testing.T) {
	d, err := Parse(context.Background(), []byte(`{"openapi":"3.1.0","info":{"title":"H","version":"1"},"paths":{},
	 "webhooks":{"petAdopted":{"post":{"summary":"Adopted","requestBody":{"content":{"application/json":{"schema":{"type":"object"}}}},
	  "responses":{"200":{"description":"Received"}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	md, ok := WebhookMarkdown(d, "POST", "petAdopted")
	if !ok || !strings.HasPrefix(md, "## Adopted\n\n`POST petAdopted`") || !strings.Contains(md, "| `application/json` | object | no |") {
		t.Errorf("WebhookMarkdown = %v\n%s", ok, md)
	}
	for _, miss := range [][2]string{{"get", "petAdopted"}, {"post", "petLost"}} {
		if _, ok := WebhookMarkdown(d, miss[0], miss[1]); ok {
			t.Errorf("WebhookMarkdown(%s %s) found a webhook", miss[0], miss[1])
		}
	}
	plain, err := Parse(context.Background(), []byte(tagged))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := WebhookMarkdown(plain, "post", "petAdopted"); ok {
		t.Errorf("WebhookMarkdown found a webhook in a document without webhooks")
	}
}
