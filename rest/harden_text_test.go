package rest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// Issue 12, finding 7: a NUL character in any text input answered 500 (PostgreSQL cannot store
// one). Each door refuses it where it decodes input: 400 / INVALID naming the field, nothing
// written.
func TestNULInTextInput(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		spaceID := o.space("", "Kept")
		wantField := func(name string, r response, field string) {
			t.Helper()
			if msg := r.wantError(http.StatusBadRequest); !strings.HasPrefix(msg, field+":") || !strings.Contains(msg, "NUL") {
				t.Errorf("%s: message %q does not name %s", name, msg, field)
			}
		}
		// REST bodies, at any depth.
		wantField("create", e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"a\u0000b"}`), "title")
		wantField("update", e.call(o.admin.Token, "PATCH", "/spaces/"+spaceID, `{"title":"ok","emoji":"\u0000"}`), "emoji")
		wantField("nested", e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"x","nested":{"list":["fine","\u0000"]}}`), "nested.list[1]")
		// Query strings and paths.
		wantField("query", e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/search?query=a%00b", nil), "query")
		wantField("path", e.call(o.admin.Token, "GET", "/spaces/"+spaceID+"%00", nil), "path")
		// An escaped backslash before u0000 is not a NUL.
		e.call(o.admin.Token, "PATCH", "/spaces/"+spaceID, `{"title":"back\\u0000slash"}`).want(http.StatusOK)

		// GraphQL variables and literals.
		for name, tt := range map[string]struct {
			query string
			vars  map[string]any
			field string
		}{
			"variable": {`mutation($o: ID!, $t: String) { createSpace(organizationId: $o, input: {title: $t}) { id } }`, map[string]any{"o": o.id, "t": "a\x00b"}, "t"},
			"literal":  {`mutation($o: ID!) { createSpace(organizationId: $o, input: {title: "a\u0000b"}) { id } }`, map[string]any{"o": o.id}, "input.title"},
		} {
			e.wantInvalid(name, o.admin, tt.query, tt.vars, tt.field)
		}
		// GraphQL GET carries the same check.
		q := url.Values{"query": {`query($x: ID!) { organization(id: $x) { id } }`}, "variables": {`{"x":"\u0000"}`}}
		req := httptest.NewRequest("GET", "/graphql?"+q.Encode(), nil)
		if _, rec := e.serve(req, o.admin.Token, nil); !strings.Contains(rec.Body.String(), "NUL") {
			t.Errorf("GraphQL GET: %d %s", rec.Code, rec.Body)
		}

		// Nothing was written.
		var list struct{ Items []struct{ Title string } }
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/spaces", nil).want(http.StatusOK).decode(&list)
		if len(list.Items) != 1 || list.Items[0].Title != `back\u0000slash` {
			t.Errorf("spaces after the refusals: %+v", list.Items)
		}
	})
}
