package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// API-reference pages: pages generated from an OpenAPI specification's version, which they pin
// (docs/openapi.md).

const refSpecV1 = `openapi: 3.0.3
info: {title: Petstore, version: "1.0"}
tags:
  - {name: pets, description: Everything about pets}
  - {name: store}
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      parameters:
        - {name: limit, in: query, description: How many, schema: {type: integer, format: int32}}
      responses:
        "200": {description: A page of pets, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
    post:
      tags: [pets]
      summary: Create a pet
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
      responses: {"201": {description: Created}}
  /orders/{id}:
    get:
      tags: [store]
      operationId: getOrder
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"200": {description: The order}, default: {description: An error}}
components:
  schemas:
    Pet: {type: object, required: [name], properties: {name: {type: string, description: The pet's name}, tag: {type: string}}}
`

// Version 2 renames an operation, drops the store tag and adds users.
const refSpecV2 = `openapi: 3.0.3
info: {title: Petstore, version: "2.0"}
tags:
  - {name: pets, description: Everything about pets}
paths:
  /pets:
    get:
      tags: [pets]
      summary: List all pets
      responses: {"200": {description: ok}}
  /users:
    get:
      tags: [users]
      summary: List users
      responses: {"200": {description: ok}}
`

const insertPagesQuery = `mutation($t: ContentTarget!, $in: InsertOpenAPIPagesInput!) {
  insertOpenAPIPages(target: $t, input: $in) { revision { id } pages { id title slug computed computedSeed markdown } } }`

const updatePagesQuery = `mutation($t: ContentTarget!, $in: UpdateOpenAPIPagesInput!) {
  updateOpenAPIPages(target: $t, input: $in) { revision { id } pages { id title slug computed computedSeed markdown } } }`

// refPage is an API-reference page as both doors show it.
type refPage struct {
	ID, Title, Slug, Type string
	DocumentID            *string
	Markdown              string
	ComputedSeed          string
	Computed              struct {
		Type         string
		Dependencies struct {
			Spec struct {
				Ref   struct{ Kind, Spec string }
				Value struct{ Object, ID, Slug, LastVersion string }
			}
		}
		Props struct{ Doc, Page string }
	}
}

func (p refPage) pins() string { return p.Computed.Dependencies.Spec.Value.LastVersion }

// restPages reads a content's top-level pages through REST (the contract validates them).
func (e *env) restPages(token, path string) map[string]refPage {
	e.t.Helper()
	var body struct{ Pages []refPage }
	e.call(token, "GET", path+"/pages", nil).want(http.StatusOK).decode(&body)
	out := map[string]refPage{}
	for _, p := range body.Pages {
		out[p.Title] = p
	}
	return out
}

func TestOpenAPIPages(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Ref", "admin@ref.test")
		spaceID := e.newSpace(admin.Token, orgID, "API")
		specs := "/orgs/" + orgID + "/openapi"
		v1 := e.call(admin.Token, "POST", specs, specBody("petstore", refSpecV1)).want(http.StatusCreated).object()["lastVersion"].(string)
		e.createPage(admin.Token, target(spaceID, ""), map[string]any{"title": "Welcome", "markdown": "Hello."})

		// One page per tag, in the document's order, and the models; each pins version 1.
		var ins struct {
			InsertOpenAPIPages struct{ Pages []refPage }
		}
		e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "petstore", "models": true}}).ok(&ins)
		pages := ins.InsertOpenAPIPages.Pages
		if len(pages) != 3 || pages[0].Title != "pets" || pages[1].Title != "store" || pages[2].Title != "Models" {
			t.Fatalf("inserted pages: %+v", pages)
		}
		pets := pages[0]
		if pets.Computed.Type != "builtin:openapi" || pets.Computed.Dependencies.Spec.Ref.Spec != "petstore" || pets.Computed.Dependencies.Spec.Ref.Kind != "openapi" ||
			pets.pins() != v1 || pets.Computed.Props.Doc != "operations" || pets.Computed.Props.Page != "pets" || pets.ComputedSeed == "" {
			t.Errorf("computed of the pets page: %+v", pets.Computed)
		}
		if pages[2].Computed.Props.Doc != "models" {
			t.Errorf("models page: %+v", pages[2].Computed)
		}
		for _, want := range []string{"Everything about pets", "## List pets", "`GET /pets`", "| `limit` | query | integer (int32) | no | How many |",
			"## Create a pet", "| `application/json` | Pet | yes |", "| `200` | A page of pets | `application/json`: array of Pet |"} {
			if !strings.Contains(pets.Markdown, want) {
				t.Errorf("pets page lacks %q:\n%s", want, pets.Markdown)
			}
		}
		if !strings.Contains(pages[1].Markdown, "## getOrder") || !strings.Contains(pages[2].Markdown, "| `name` | string | yes | The pet's name |") {
			t.Errorf("store and models pages:\n%s\n%s", pages[1].Markdown, pages[2].Markdown)
		}

		// REST shows them as the contract does: computed with its seed, no documentId.
		space := "/spaces/" + spaceID + "/content"
		got := e.restPages(admin.Token, space)
		if p := got["pets"]; p.Type != "document" || p.pins() != v1 || p.ComputedSeed != pets.ComputedSeed || p.DocumentID != nil || p.Computed.Props.Page != "pets" {
			t.Errorf("REST pets page: %+v", p)
		}
		if p := got["Welcome"]; p.DocumentID == nil || p.Computed.Type != "" {
			t.Errorf("REST plain page: %+v", p)
		}
		e.call(admin.Token, "GET", space, nil).want(http.StatusOK)
		doc := e.call(admin.Token, "GET", space+"/page/"+pets.ID+"?format=document", nil).want(http.StatusOK).object()
		if s := jsonText(doc["document"]); !strings.Contains(s, `"heading-2"`) || !strings.Contains(s, "List pets") || !strings.Contains(s, `"table"`) || doc["computed"] == nil {
			t.Errorf("REST page as a document: %.400s", jsonText(doc))
		}
		var byPath struct {
			Space struct {
				Content struct {
					PageByPath struct {
						ID       string
						Computed map[string]any
					}
				}
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { content { pageByPath(path: "pets") { id computed } } } }`, map[string]any{"s": spaceID}).ok(&byPath)
		if p := byPath.Space.Content.PageByPath; p.ID != pets.ID || p.Computed["type"] != "builtin:openapi" {
			t.Errorf("page by path: %+v", p)
		}

		// A new version of the specification changes nothing here: the pages pin version 1.
		v2 := e.call(admin.Token, "PUT", specs+"/petstore", map[string]any{"source": map[string]any{"text": refSpecV2}}).want(http.StatusOK).object()["lastVersion"].(string)
		got = e.restPages(admin.Token, space)
		if p := got["pets"]; p.pins() != v1 || got["store"].ID == "" {
			t.Errorf("after a new version: %+v", got)
		}
		md := e.call(admin.Token, "GET", space+"/page/"+pets.ID+"?format=markdown", nil).want(http.StatusOK).object()["markdown"].(string)
		if !strings.Contains(md, "## List pets") || strings.Contains(md, "List all pets") {
			t.Errorf("pinned page changed with the specification:\n%s", md)
		}

		// Generated content is not edited by hand; inserting the same specification twice is refused.
		if c := e.updatePage(admin.Token, target(spaceID, ""), pets.ID, map[string]any{"markdown": "hand-written"}).code(); c != "INVALID" {
			t.Errorf("editing a generated page's markdown: %q, want INVALID", c)
		}
		e.updatePage(admin.Token, target(spaceID, ""), pets.ID, map[string]any{"title": "Pets"}).ok(nil)
		if c := e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "petstore"}}).code(); c != "INVALID" {
			t.Errorf("inserting twice: %q, want INVALID", c)
		}

		// Moving to version 2 is an edit in a change request: the space keeps version 1 until the merge.
		cr := e.openChangeRequest(admin.Token, spaceID, "API v2")
		var upd struct {
			UpdateOpenAPIPages struct {
				Revision struct{ ID string }
				Pages    []refPage
			}
		}
		e.gql(admin.Token, updatePagesQuery, map[string]any{"t": target(spaceID, cr), "in": map[string]any{"spec": "petstore"}}).ok(&upd)
		if p := upd.UpdateOpenAPIPages.Pages; len(p) != 3 || p[0].ID != pets.ID || p[0].Title != "Pets" || p[1].Title != "Models" || p[2].Title != "users" || p[0].pins() != v2 || p[2].pins() != v2 {
			t.Fatalf("updated pages: %+v", p)
		}
		crContent := "/spaces/" + spaceID + "/change-requests/" + cr + "/content"
		got = e.restPages(admin.Token, crContent)
		if got["Pets"].pins() != v2 || got["users"].ID == "" || got["store"].ID != "" {
			t.Errorf("change request pages: %+v", got)
		}
		e.call(admin.Token, "GET", crContent, nil).want(http.StatusOK)
		if md := e.call(admin.Token, "GET", crContent+"/page/"+pets.ID+"?format=markdown", nil).want(http.StatusOK).object()["markdown"].(string); !strings.Contains(md, "List all pets") {
			t.Errorf("change request page:\n%s", md)
		}
		if got = e.restPages(admin.Token, space); got["Pets"].pins() != v1 || got["store"].ID == "" {
			t.Errorf("space before the merge: %+v", got)
		}
		e.call(admin.Token, "POST", "/spaces/"+spaceID+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
		if got = e.restPages(admin.Token, space); got["Pets"].pins() != v2 || got["users"].ID == "" || got["store"].ID != "" || got["Welcome"].ID == "" {
			t.Errorf("space after the merge: %+v", got)
		}
		// Back to version 1, by id, in the space itself (it is edited live).
		e.gql(admin.Token, updatePagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "petstore", "version": v1}}).ok(&upd)
		if got = e.restPages(admin.Token, space); got["Pets"].pins() != v1 || got["store"].pins() != v1 || got["users"].ID != "" {
			t.Errorf("back to version 1: %+v", got)
		}
		// The same version again changes nothing: no new revision.
		rev := upd.UpdateOpenAPIPages.Revision.ID
		e.gql(admin.Token, updatePagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "petstore", "version": v1}}).ok(&upd)
		if upd.UpdateOpenAPIPages.Revision.ID != rev || len(upd.UpdateOpenAPIPages.Pages) != 3 {
			t.Errorf("the same version again: revision %s, want %s kept; pages %d", upd.UpdateOpenAPIPages.Revision.ID, rev, len(upd.UpdateOpenAPIPages.Pages))
		}

		// Who may: editors who can read the specifications. Readers may not edit; people of
		// another organization see nothing; a specification of another organization is not found.
		reader := e.member(orgID, "reader@ref.test", "read")
		if c := e.gql(reader.Token, updatePagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "petstore"}}).code(); c != "FORBIDDEN" {
			t.Errorf("reader: %q, want FORBIDDEN", c)
		}
		otherOrg, outsider := e.org("Other", "admin@other.test")
		e.call(outsider.Token, "POST", "/orgs/"+otherOrg+"/openapi", specBody("theirs", refSpecV1)).want(http.StatusCreated)
		theirSpace := e.newSpace(outsider.Token, otherOrg, "Theirs")
		for name, c := range map[string]string{
			"outsider into our space":        e.gql(outsider.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "theirs"}}).code(),
			"our spec into their space":      e.gql(outsider.Token, insertPagesQuery, map[string]any{"t": target(theirSpace, ""), "in": map[string]any{"spec": "petstore"}}).code(),
			"their spec into our space":      e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "theirs"}}).code(),
			"a version that does not exist":  e.gql(admin.Token, updatePagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "petstore", "version": "nope"}}).code(),
			"their space with our spec slug": e.gql(admin.Token, updatePagesQuery, map[string]any{"t": target(theirSpace, ""), "in": map[string]any{"spec": "petstore"}}).code(),
		} {
			if c != "NOT_FOUND" {
				t.Errorf("%s: %q, want NOT_FOUND", name, c)
			}
		}
		if c := e.gql(outsider.Token, updatePagesQuery, map[string]any{"t": target(theirSpace, ""), "in": map[string]any{"spec": "theirs"}}).code(); c != "INVALID" {
			t.Errorf("updating pages that are not there: %q, want INVALID", c)
		}
		if c := e.gql(admin.Token, updatePagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "nope-nope"}}).code(); c != "NOT_FOUND" {
			t.Errorf("unknown spec: %q", c)
		}
		if c := e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "Bad Slug"}}).code(); c != "INVALID" {
			t.Errorf("bad slug: %q", c)
		}
	})
}

// The reader renders API-reference pages like any other page.
func TestReaderOpenAPIPages(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		s := newReaderSite(e)
		e.call(s.admin.Token, "POST", "/orgs/"+s.org+"/openapi", specBody("petstore", refSpecV1)).want(http.StatusCreated)
		e.gql(s.admin.Token, insertPagesQuery, map[string]any{"t": target(s.api, ""), "in": map[string]any{"spec": "petstore"}}).ok(nil)
		e.read("/sites/docs/api/pets", nil).want(http.StatusOK).has(
			`<title>pets | Acme Docs</title>`, "Everything about pets", ">List pets", "<code>GET /pets</code>",
			`<th scope="col">Name</th>`, "<code>limit</code>", "integer (int32)", `href="`+s.root+`api/store"`)
	})
}

// swagger20 is a Swagger 2.0 document: GitBook repositories and older APIs still use them.
const swagger20 = `swagger: "2.0"
info: {title: Legacy pets, version: "1"}
host: api.example.com
basePath: /v1
tags: [{name: pets, description: Pets of old}]
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
    properties: {name: {type: string, description: The pet's name}}
`

func TestSwagger2SpecMakesReferencePages(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Ref", "admin@ref.test")
		spaceID := e.newSpace(admin.Token, orgID, "API")
		created := e.call(admin.Token, "POST", "/orgs/"+orgID+"/openapi", specBody("legacy", swagger20)).want(http.StatusCreated).object()
		if created["processingState"] != "complete" {
			t.Fatalf("Swagger 2.0 spec: %v", created)
		}
		var ins struct {
			InsertOpenAPIPages struct{ Pages []refPage }
		}
		e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "legacy", "models": true}}).ok(&ins)
		pages := ins.InsertOpenAPIPages.Pages
		if len(pages) != 2 || pages[0].Title != "pets" {
			t.Fatalf("pages: %+v", pages)
		}
		for _, want := range []string{"Pets of old", "## Add a pet", "`POST /pets`", "| `application/json` | Pet | yes |"} {
			if !strings.Contains(pages[0].Markdown, want) {
				t.Errorf("pets page lacks %q:\n%s", want, pages[0].Markdown)
			}
		}
		if !strings.Contains(pages[1].Markdown, "| `name` | string | yes | The pet's name |") {
			t.Errorf("models page:\n%s", pages[1].Markdown)
		}
	})
}
