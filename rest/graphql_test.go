package rest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestGraphQLTransportAndLimits(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	_, admin := e.org("Acme", "admin@acme.test")

	t.Run("GET query", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/graphql?query="+url.QueryEscape(`{ viewer { id } }`), nil)
		req.Header.Set("Authorization", "Bearer "+admin.Token)
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), admin.ID) {
			t.Errorf("GET /graphql = %d %s", rec.Code, rec.Body)
		}
	})
	t.Run("explorer page for browsers", func(t *testing.T) {
		req := httptest.NewRequest("GET", "/graphql", nil)
		req.Header.Set("Accept", "text/html,application/xhtml+xml")
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Type"), "text/html") || !strings.Contains(rec.Body.String(), "Bindery GraphQL") {
			t.Errorf("explorer = %d %s", rec.Code, rec.Header())
		}
	})
	t.Run("introspection", func(t *testing.T) {
		var data struct {
			Schema struct{ Types []struct{ Name string } } `json:"__schema"`
		}
		e.gql(admin.Token, `{ __schema { types { name } } }`, nil).ok(&data)
		found := false
		for _, ty := range data.Schema.Types {
			found = found || ty.Name == "Organization"
		}
		if !found {
			t.Error("introspection does not list Organization")
		}
	})
	t.Run("the deepest shape of the schema is within the depth limit", func(t *testing.T) {
		e.gql(admin.Token, `{ organizations { edges { node { members { edges { node { user { urls { location } } } } } } } } }`, nil).ok(nil)
	})
	t.Run("complexity limit", func(t *testing.T) {
		g := e.gql(admin.Token, `{ organizations(first: 1000) { nodes { members(first: 1000) { nodes { id user { id } } } } } }`, nil)
		if g.code() != "COMPLEXITY_LIMIT_EXCEEDED" || !strings.Contains(g.Errors[0].Message, "complexity") {
			t.Errorf("complexity error = %+v", g.Errors)
		}
	})
	t.Run("parse errors are clear", func(t *testing.T) {
		g := e.gql(admin.Token, `{ viewer { nope } }`, nil)
		if g.code() != "GRAPHQL_VALIDATION_FAILED" || !strings.Contains(g.Errors[0].Message, "nope") {
			t.Errorf("validation error = %+v", g.Errors)
		}
	})
}

func TestHealthAndUnknownRoutes(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, storage.SQLite))
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/v1/nope": 401, "/nope": 404} {
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != want {
			t.Errorf("GET %s = %d, want %d", path, rec.Code, want)
		}
	}
	_, admin := e.org("Acme", "admin@acme.test")
	if msg := e.callRaw(admin.Token, "GET", "/v1/nope").wantError(http.StatusNotFound); msg == "" {
		t.Error("unknown route has no message")
	}
	e.callRaw(admin.Token, "PUT", "/v1/orgs").wantError(http.StatusMethodNotAllowed)
	e.store.Close()
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("readyz with the database closed = %d, want 503", rec.Code)
	}
	// A server-side failure is a 500 in the contract's shape that leaks nothing of its cause.
	if msg := e.call(admin.Token, "GET", "/orgs", nil).wantError(http.StatusInternalServerError); msg != "Internal error" {
		t.Errorf("500 message = %q", msg)
	}
}

// callRaw sends a request that is outside the contract (no schema validation).
func (e *env) callRaw(token, method, path string) response {
	req := httptest.NewRequest(method, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return response{t: e.t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}
