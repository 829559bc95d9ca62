package openapidoc

import (
	"context"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, doc string
		problem   string // "" when valid; else a part of the message
		location  string
	}{
		{"3.0 yaml", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {responses: {'200': {description: ok}}}}}\n", "", ""},
		{"3.1 json with webhooks and type arrays", `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"webhooks":{"e":{"post":{"responses":{"200":{"description":"ok"}}}}},"components":{"schemas":{"A":{"type":["string","null"]}}}}`, "", ""},
		{"3.1 without paths", "openapi: 3.1.0\ninfo: {title: T, version: '1'}\n", "", ""},
		{"operation without responses", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {responses: {}}}}\n", "at least one response", "paths./a.get"},
		{"missing version", "openapi: 3.0.3\ninfo: {title: T}\npaths: {}\n", "version", "info"},
		{"bad schema type", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents: {schemas: {Pet: {type: wrong}}}\n", "unsupported 'type'", "components.schema.Pet"},
		{"bad 3.1 prefixItems", "openapi: 3.1.0\ninfo: {title: T, version: '1'}\ncomponents: {schemas: {A: {type: array, prefixItems: [{type: bogus}]}}}\n", "bogus", "components.schema.A"},
		{"3.1 field in 3.0", "openapi: 3.0.3\ninfo: {title: T, version: '1', summary: x}\npaths: {}\n", "3.1", "info"},
		{"external reference", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {responses: {'200': {$ref: 'other.yaml#/r'}}}}}\n", "\"other.yaml\" cannot be resolved", "document"},
		{"swagger 2", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\n", "", ""},
		{"swagger 2 with another file", "swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {responses: {'200': {description: ok, schema: {$ref: 'other.yaml#/Pet'}}}}}}\n", "one whole document", "document"},
		{"swagger 1.2", "swaggerVersion: '1.2'\napis: []\n", "not supported", "openapi"},
		{"3.2", "openapi: 3.2.0\ninfo: {title: T, version: '1'}\n", "not supported", "openapi"},
		{"not a document", "{not json", "unmarshal", "document"},
	}
	for _, c := range cases {
		doc, err := Parse(context.Background(), []byte(c.doc))
		if c.problem == "" {
			if err != nil || doc.Hash == "" || len(doc.JSON) == 0 {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		p, ok := err.(*Problem)
		if !ok || !strings.Contains(p.Message, c.problem) || p.Location != c.location {
			t.Errorf("%s: %#v, want %q at %q", c.name, err, c.problem, c.location)
		}
	}
}

func TestSameBytesSameHash(t *testing.T) {
	a := "openapi: 3.1.0\ninfo: {title: T, version: '1'}\n"
	x, _ := Parse(context.Background(), []byte(a))
	y, _ := Parse(context.Background(), []byte(a))
	z, _ := Parse(context.Background(), []byte(a+"\n"))
	if x.Hash != y.Hash || x.Hash == z.Hash {
		t.Errorf("hashes %s %s %s", x.Hash, y.Hash, z.Hash)
	}
}

// A Swagger 2.0 document reads as the OpenAPI 3 document it converts to: servers, request bodies
// and schemas included, so its reference pages render like any other's.
func TestSwagger2IsConverted(t *testing.T) {
	doc, err := Parse(context.Background(), []byte(`swagger: "2.0"
info: {title: Pets, version: "1"}
host: api.example.com
basePath: /v1
schemes: [https]
paths:
  /pets:
    post:
      tags: [pets]
      summary: Add a pet
      consumes: [application/json]
      parameters:
        - {in: body, name: pet, required: true, schema: {$ref: "#/definitions/Pet"}}
      responses:
        "201": {description: Created, schema: {$ref: "#/definitions/Pet"}}
definitions:
  Pet:
    type: object
    required: [name]
    properties: {name: {type: string}, tag: {type: string}}
`))
	if err != nil {
		t.Fatal(err)
	}
	if doc.T.OpenAPIMajorMinor() != "3.0" || len(doc.T.Servers) != 1 || doc.T.Servers[0].URL != "https://api.example.com/v1" {
		t.Fatalf("converted: %s, servers %v", doc.T.OpenAPI, doc.T.Servers)
	}
	op := doc.T.Paths.Find("/pets").Post
	if op.RequestBody == nil || op.RequestBody.Value.Content.Get("application/json") == nil || doc.T.Components.Schemas["Pet"] == nil {
		t.Fatalf("the body parameter or the definitions were lost: %+v", op.RequestBody)
	}
	md, ok := OperationMarkdown(doc, "post", "/pets")
	if !ok || !strings.Contains(md, "Add a pet") || !strings.Contains(md, "Request body") || !strings.Contains(md, "| `application/json` | Pet | yes |") {
		t.Fatalf("reference markdown: %q", md)
	}
}
