package rest_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// petstoreSpec is the organization's specification the OpenAPI blocks of the tests name.
const petstoreSpec = `{"openapi": "3.1.0", "info": {"title": "Petstore", "version": "1"},
 "paths": {
  "/pets": {"get": {"summary": "List pets", "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}, "description": "At most this many"}],
                    "responses": {"200": {"description": "The pets", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}}},
  "/pets/{id}": {"delete": {"summary": "Delete a pet", "description": "Removes the pet for good.",
                            "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                            "responses": {"204": {"description": "Gone"}}}}
 },
 "webhooks": {"petAdopted": {"post": {"summary": "A pet was adopted", "description": "Sent when a pet finds a home.",
                                      "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                                      "responses": {"200": {"description": "Received"}}}}},
 "components": {"schemas": {"Pet": {"type": "object", "description": "A pet of the store.", "required": ["name"],
                                    "properties": {"name": {"type": "string", "description": "What it answers to"}}}}}}`

// putPetstore stores petstoreSpec as the organization's specification "petstore".
func putPetstore(e *env, token, orgID string) {
	e.t.Helper()
	e.call(token, "PUT", "/orgs/"+orgID+"/openapi/petstore", map[string]any{"source": map[string]any{"text": petstoreSpec}}).want(http.StatusCreated)
}

// TestReaderOpenAPIBlocks: OpenAPI blocks naming the organization's specification show its
// operations, webhooks and schemas, those naming nothing it has stay cards, and a page with many blocks
// costs the statements a page with one does.
func TestReaderOpenAPIBlocks(t *testing.T) {
	eachDBAlone(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Pets", "admin@pets.test")
		putPetstore(e, admin.Token, orgID)
		sp := e.newSpace(admin.Token, orgID, "API")
		to := target(sp, "")
		block := func(op string) string {
			return "{% openapi-operation spec=\"petstore\" " + op + " %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-operation %}\n\n"
		}
		e.createPage(admin.Token, to, map[string]any{"title": "One", "markdown": block(`path="/pets/{id}" method="delete"`)})
		many := strings.Repeat(block(`path="/pets" method="GET"`), 3) + block(`path="/pets/{id}" method="delete"`) +
			"{% openapi-schemas spec=\"petstore\" schemas=\"Pet\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-schemas %}\n\n" +
			block(`path="/nowhere" method="get"`) +
			"{% openapi-webhook spec=\"petstore\" name=\"petAdopted\" method=\"post\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-webhook %}\n\n" +
			"{% openapi-webhook spec=\"petstore\" name=\"petLost\" method=\"post\" %}\n[OpenAPI petstore](https://e.example/p.json)\n{% endopenapi-webhook %}\n\n" +
			"{% openapi-operation spec=\"inventory\" path=\"/items\" method=\"get\" %}\n[OpenAPI inventory](https://e.example/i.json)\n{% endopenapi-operation %}\n"
		e.createPage(admin.Token, to, map[string]any{"title": "Many", "markdown": many})
		site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Pets","spaces":["`+sp+`"]}`).want(http.StatusCreated).object()["id"].(string)

		var first, one, several atomic.Int64
		e.read("/sites/"+site+"/one", &first).want(http.StatusOK)
		e.read("/sites/"+site+"/one", &one).want(http.StatusOK).
			has(`<section class="openapi openapi-resolved">`, "Delete a pet", "<code>DELETE /pets/{id}</code>", "Removes the pet for good.", "<code>id</code>")
		e.read("/sites/"+site+"/many", &several).want(http.StatusOK).
			has("List pets", "<code>GET /pets</code>", "At most this many", "array of Pet", "A pet of the store.", "What it answers to",
				`<code>GET /nowhere</code></span><span class="card-text">OpenAPI specification petstore`,
				"A pet was adopted", "<code>POST petAdopted</code>", "Sent when a pet finds a home.",
				`<code>Webhook: petLost</code></span><span class="card-text">OpenAPI specification petstore`,
				`<code>GET /items</code></span><span class="card-text">OpenAPI specification inventory`)
		if one.Load() != several.Load() {
			t.Errorf("statements: %d for a page with one OpenAPI block, %d for one with seven", one.Load(), several.Load())
		}
		t.Logf("page view with OpenAPI blocks: %d statements", several.Load())
	})
}
