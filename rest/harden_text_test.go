package rest_test

import (
	"fmt"
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

// Issue 26, finding C: bytes that are not UTF-8 and UTF-16 surrogates escaped alone were stored
// as U+FFFD ("\xff\xfe" became "��"). Every text field of every kind of resource, through both
// doors, answers 400 / INVALID naming the field, and nothing changes.
func TestTextThatIsNotUTF8(t *testing.T) {
	bad := map[string]string{ // a JSON string's body: what a client sends
		"invalid UTF-8":  "\xff\xfe",
		"high surrogate": `a\ud800b`,
		"low surrogate":  `\udc00`,
	}
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		spaceID := o.space("", "Kept space")
		collectionID := o.content("collections", "", "Kept collection")
		siteID, sitePath := o.site("Kept site")
		section := o.sectionAdd(siteID, spaceID, map[string]any{"title": "Kept section"})
		teamID := e.call(o.admin.Token, "PUT", "/orgs/"+o.id+"/teams", `{"title":"Kept team"}`).want(http.StatusCreated).object()["id"].(string)
		resources := map[string]string{ // path to PATCH with a title
			"space":      "/spaces/" + spaceID,
			"collection": "/collections/" + collectionID,
			"site":       sitePath,
			"section":    sitePath + "/sections/" + section.ID,
			"team":       "/orgs/" + o.id + "/teams/" + teamID,
		}
		for kind, value := range bad {
			for resource, path := range resources {
				what := resource + " " + kind
				r := e.call(o.admin.Token, "PATCH", path, `{"title":"`+value+`"}`)
				if msg := r.wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "title:") {
					t.Errorf("%s: message %q does not name title", what, msg)
				}
			}
			// Nested fields, creation, paths and query strings.
			r := e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/spaces", `{"title":"x","nested":{"list":["fine","`+value+`"]}}`)
			if msg := r.wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "nested.list[1]:") {
				t.Errorf("nested %s: %q", kind, msg)
			}
		}
		if msg := e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/search?query=a%FFb", nil).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "query:") || !strings.Contains(msg, "UTF-8") {
			t.Errorf("query string: %q", msg)
		}
		if msg := e.call(o.admin.Token, "GET", "/spaces/"+spaceID+"%FF", nil).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "path:") {
			t.Errorf("path: %q", msg)
		}

		// GraphQL: variables (sent raw: the JSON decoder must not have replaced them first),
		// literals, and GET parameters.
		for kind, value := range bad {
			body := fmt.Sprintf(`{"query":"mutation($s: ID!, $t: String) { updateSpace(id: $s, input: {title: $t}) { id } }","variables":{"s":%q,"t":"%s"}}`, spaceID, value)
			if g := e.gqlRaw(o.admin.Token, body); g.code() != "INVALID" || g.Errors[0].Extensions["field"] != "t" {
				t.Errorf("GraphQL variable %s: %+v", kind, g.Errors)
			}
		}
		literal := `mutation($s: ID!) { updateSpace(id: $s, input: {title: "a\ud800"}) { id } }`
		e.wantInvalid("literal surrogate", o.admin, literal, map[string]any{"s": spaceID}, "input.title")
		// Characters beyond ASCII before the literal (positions count runes) and an escaped pair are fine.
		e.gql(o.admin.Token, `mutation($s: ID!) { updateSpace(id: $s, input: {emoji: "🦄", title: "Kept space \ud83d\ude00"}) { id } }`, map[string]any{"s": spaceID}).ok(nil)
		q := url.Values{"query": {`query($x: ID!) { organization(id: $x) { id } }`}, "variables": {"{\"x\":\"\xff\"}"}}
		req := httptest.NewRequest("GET", "/graphql?"+q.Encode(), nil)
		if _, rec := e.serve(req, o.admin.Token, nil); !strings.Contains(rec.Body.String(), "UTF-8") || !strings.Contains(rec.Body.String(), `"field":"x"`) {
			t.Errorf("GraphQL GET: %d %s", rec.Code, rec.Body)
		}

		// An escaped pair is one character, and accepted.
		e.call(o.admin.Token, "PATCH", "/spaces/"+spaceID, `{"title":"Kept space \ud83d\ude00"}`).want(http.StatusOK)
		// Nothing else changed.
		for resource, path := range resources {
			if resource == "section" {
				continue // read below, through its site
			}
			title := e.call(o.admin.Token, "GET", path, nil).want(http.StatusOK).object()["title"]
			want := "Kept " + resource
			if resource == "space" {
				want = "Kept space \U0001F600"
			}
			if title != want {
				t.Errorf("%s: title %q after the refusals, want %q", resource, title, want)
			}
		}
		if got := o.sectionsOf(siteID); len(got) != 1 || got[0].Title != "Kept section" {
			t.Errorf("sections after the refusals: %+v", got)
		}
	})
}
