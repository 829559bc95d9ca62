package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/rest/contracttest"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/getkin/kin-openapi/openapi3"
)

// TestOpenAPIDocument serves /v1/openapi.json without a token, validates it with kin-openapi as
// OpenAPI 3.1, and finds every route of the table in it, described: with GitBook's operation
// where the contract has one (so a route added without `go generate ./rest` fails here), with
// Bindery's own description otherwise.
func TestOpenAPIDocument(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, "sqlite"))
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/openapi.json", nil))
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("GET /v1/openapi.json: %d %v", rec.Code, rec.Header())
	}
	var raw map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if raw["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v", raw["openapi"])
	}
	if u, ok := raw["x-bindery-undocumented"]; ok {
		t.Errorf("routes without a description: %v (run go generate ./rest, or describe extensions in rest/openapi.go)", u)
	}

	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(rec.Body.Bytes())
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("kin-openapi finds the document invalid: %v", err)
	}
	if got := doc.Servers[0].URL; got != "https://bindery.test/v1" {
		t.Errorf("server URL %q", got)
	}

	var contract *openapi3.T
	if contracttest.Available() {
		contract = contracttest.Spec()
	}
	for _, rt := range rest.Routes() {
		path := rest.SpecPath(rt.Path)
		item := doc.Paths.Find(path)
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("%s %s is missing from /v1/openapi.json", rt.Method, rt.Path)
			continue
		}
		op := item.GetOperation(rt.Method)
		if op.Responses.Default() == nil {
			t.Errorf("%s %s: no default (error) response", rt.Method, rt.Path)
		}
		if rt.Method == "DELETE" && op.Responses.Status(http.StatusNoContent) == nil {
			t.Errorf("DELETE %s does not document 204", rt.Path)
		}
		_, ext := op.Extensions["x-bindery-extension"]
		if ext != rest.IsExtension(rt.Method, rt.Path) {
			t.Errorf("%s %s: x-bindery-extension %v", rt.Method, rt.Path, ext)
		}
		if contract != nil && !ext {
			want := contract.Paths.Find(path)
			if want == nil || want.GetOperation(rt.Method) == nil {
				t.Errorf("%s %s is neither in GitBook's contract nor listed as an extension (rest/extensions.go)", rt.Method, rt.Path)
			} else if want.GetOperation(rt.Method).OperationID != op.OperationID {
				t.Errorf("%s %s: operationId %q, the contract's is %q: run go generate ./rest", rt.Method, rt.Path, op.OperationID, want.GetOperation(rt.Method).OperationID)
			}
		}
	}
}
