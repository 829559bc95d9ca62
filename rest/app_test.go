package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	accounts "github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/signin"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/web"
)

const appPassword = "a long and unusual passphrase for the app"

// withSessions serves e with browser sessions (package signin), as the binary does, and returns
// how to sign a user in with a password: the cookie to send.
func (e *env) withSessions() (signIn func(a account) string) {
	e.t.Helper()
	people := accounts.New(e.store, e.res.Now, accounts.Config{})
	e.res.Accounts = people
	h, err := signin.New(people, signin.Options{PublicURL: e.res.Settings.PublicURL, TrustedOrigins: []string{e.res.Settings.AppURL}, Invites: e.res})
	if err != nil {
		e.t.Fatal(err)
	}
	e.h = rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{RateLimits: &suiteRateLimits, Sessions: h}))
	return func(a account) string {
		e.t.Helper()
		if err := people.SetPassword(context.Background(), a.ID, appPassword); err != nil {
			e.t.Fatal(err)
		}
		body, _ := json.Marshal(map[string]string{"email": a.Email, "password": appPassword})
		req := httptest.NewRequest("POST", "/auth/sign-in", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, req)
		for _, c := range rec.Result().Cookies() {
			if c.Name == signin.SecureCookieName || c.Name == signin.PlainCookieName {
				return c.Name + "=" + c.Value
			}
		}
		e.t.Fatalf("sign-in: %d %s", rec.Code, rec.Body)
		return ""
	}
}

// appDocument is the hash and text of the app's persisted operation named name.
func appDocument(t testing.TB, name string) (hash, text string) {
	t.Helper()
	op := regexp.MustCompile(`\b(query|mutation) ` + name + `\b`)
	for h, doc := range web.PersistedDocuments() {
		if op.MatchString(doc) {
			return h, doc
		}
	}
	t.Fatalf("the app has no operation %s", name)
	return "", ""
}

// appGQL runs the app's operation name as the app does: by hash, with the session cookie.
func (e *env) appGQL(cookie, name string, vars map[string]any, statements *atomic.Int64) gqlResult {
	e.t.Helper()
	hash, _ := appDocument(e.t, name)
	raw, _ := json.Marshal(map[string]any{"variables": vars, "operationName": name,
		"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": "sha256:" + hash}}})
	return e.cookieGQL(cookie, raw, statements)
}

func (e *env) cookieGQL(cookie string, raw []byte, statements *atomic.Int64) gqlResult {
	e.t.Helper()
	req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", cookie)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if statements != nil {
		req = req.WithContext(storage.WithQueryCounter(req.Context(), statements))
	}
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	out := gqlResult{t: e.t, Status: rec.Code}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		e.t.Fatalf("GraphQL answer %d is not JSON: %s", rec.Code, rec.Body)
	}
	return out
}

func TestTrustedDocumentsForBrowserSessions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "ada@acme.test")
		cookie := e.withSessions()(admin)
		refused := func(what string, body map[string]any) {
			t.Helper()
			raw, _ := json.Marshal(body)
			g := e.cookieGQL(cookie, raw, nil)
			if g.code() != "UNTRUSTED_DOCUMENT" || len(g.Data) > 0 && string(g.Data) != "null" {
				t.Fatalf("%s: %d %+v %s, want UNTRUSTED_DOCUMENT and no data", what, g.Status, g.Errors, g.Data)
			}
			if !strings.Contains(g.Errors[0].Message, "app's own") {
				t.Fatalf("%s: message %q does not say why", what, g.Errors[0].Message)
			}
		}
		refused("an arbitrary query", map[string]any{"query": `{ organizations(first: 5) { nodes { id title } } }`})
		refused("an arbitrary mutation", map[string]any{"query": `mutation { endOtherSessions }`})
		refused("an unknown hash", map[string]any{"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": strings.Repeat("ab", 32)}}})
		hash, _ := appDocument(t, "OrganizationHome")
		refused("another text under an app's hash", map[string]any{"query": `{ viewer { email } }`,
			"extensions": map[string]any{"persistedQuery": map[string]any{"version": 1, "sha256Hash": hash}}})

		// The app's own document runs, by hash.
		var data struct{ Organization struct{ ID, Title string } }
		e.appGQL(cookie, "OrganizationHome", map[string]any{"orgId": orgID}, nil).ok(&data)
		if data.Organization.ID != orgID || data.Organization.Title != "Acme" {
			t.Fatalf("OrganizationHome answered %+v", data)
		}
		// Tokens keep arbitrary documents.
		var viewer struct{ Viewer struct{ Email string } }
		e.gql(admin.Token, `{ viewer { email } }`, nil).ok(&viewer)
		if viewer.Viewer.Email != admin.Email {
			t.Fatalf("token query answered %+v", viewer)
		}
		// The app's screens are served with their policy.
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, httptest.NewRequest("GET", "/o/"+orgID+"/", nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `<div id="root">`) || rec.Header().Get("Content-Security-Policy") != web.ContentSecurityPolicy {
			t.Fatalf("app route: %d %v", rec.Code, rec.Header())
		}
	})
}

func TestNodeFindsObjectsByID(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "ada@acme.test")
		_, stranger := e.org("Other", "eve@other.test")
		col := e.call(admin.Token, "POST", "/orgs/"+orgID+"/collections", `{"title":"Guides"}`).want(http.StatusCreated).object()["id"].(string)
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(http.StatusCreated).object()["id"].(string)
		cr := e.openChangeRequest(admin.Token, space, "Edits")
		const query = `query($id: ID!) { node(id: $id) { __typename id ... on Space { title } ... on ChangeRequest { subject } ... on Collection { title } ... on Organization { title } } }`
		type node struct{ Typename, ID, Title, Subject string }
		read := func(token, id string) *node {
			t.Helper()
			var data struct {
				Node *struct {
					Typename string `json:"__typename"`
					ID       string
					Title    string
					Subject  string
				}
			}
			e.gql(token, query, map[string]any{"id": id}).ok(&data)
			if data.Node == nil {
				return nil
			}
			return &node{data.Node.Typename, data.Node.ID, data.Node.Title, data.Node.Subject}
		}
		for id, want := range map[string]node{
			orgID: {"Organization", orgID, "Acme", ""},
			col:   {"Collection", col, "Guides", ""},
			space: {"Space", space, "Handbook", ""},
			cr:    {"ChangeRequest", cr, "", "Edits"},
		} {
			if got := read(admin.Token, id); got == nil || *got != want {
				t.Errorf("node(%s) = %+v, want %+v", id, got, want)
			}
			if got := read(stranger.Token, id); got != nil {
				t.Errorf("another organization's member reads node(%s) = %+v, want null", id, got)
			}
		}
		if got := read(admin.Token, "no-such-id"); got != nil {
			t.Errorf("unknown id: %+v", got)
		}
	})
}
