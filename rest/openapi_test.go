package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/safefetch"
)

const petstore30 = `openapi: 3.0.3
info: {title: Petstore, version: "1.0"}
tags: [{name: pets, description: Everything about pets}]
paths:
  /pets:
    get:
      tags: [pets]
      operationId: listPets
      summary: List pets
      responses: {"200": {description: ok}}
`

const petstore31 = `{"openapi": "3.1.0", "info": {"title": "Petstore", "version": "2.0"},
 "paths": {"/pets/{id}": {"get": {"operationId": "getPet", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": ["string", "null"]}}],
  "responses": {"200": {"description": "ok"}}}}},
 "webhooks": {"newPet": {"post": {"responses": {"200": {"description": "ok"}}}}}}`

func specBody(slug, text string) map[string]any {
	return map[string]any{"slug": slug, "source": map[string]any{"text": text}}
}

func TestOpenAPISpecVersions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Specs", "admin@specs.test")
		base := "/orgs/" + orgID + "/openapi"

		created := e.call(admin.Token, "POST", base, specBody("petstore", petstore30)).want(http.StatusCreated).object()
		if created["object"] != "openapi-spec" || created["slug"] != "petstore" || created["processingState"] != "complete" || created["lastVersion"] == nil {
			t.Fatalf("created: %v", created)
		}
		first := created["lastVersion"].(string)
		// The slug is taken now; a bad slug and an invalid document are refused, storing nothing.
		e.call(admin.Token, "POST", base, specBody("petstore", petstore30)).wantError(http.StatusConflict)
		e.call(admin.Token, "POST", base, specBody("Pet_Store", petstore30)).wantError(http.StatusBadRequest)
		msg := e.call(admin.Token, "POST", base, specBody("broken", "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {responses: {}}}}\n")).wantError(http.StatusBadRequest)
		if !strings.Contains(msg, "paths./a.get") || !strings.Contains(msg, "at least one response") {
			t.Errorf("invalid document: message %q names neither the place nor the problem", msg)
		}
		e.call(admin.Token, "POST", base, specBody("future", "openapi: 3.2.0\ninfo: {title: T, version: '1'}\npaths: {}\n")).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", base, map[string]any{"slug": "both", "source": map[string]any{"text": petstore30, "url": "https://example.com/x"}}).wantError(http.StatusBadRequest)
		e.call(admin.Token, "GET", base+"/broken", nil).wantError(http.StatusNotFound)

		// The same content again makes no version; new content (3.1, JSON) makes one.
		again := e.call(admin.Token, "PUT", base+"/petstore", map[string]any{"source": map[string]any{"text": petstore30}}).want(http.StatusOK).object()
		if again["lastVersion"] != first {
			t.Errorf("same content made version %v, want %s kept", again["lastVersion"], first)
		}
		second := e.call(admin.Token, "PUT", base+"/petstore", map[string]any{"source": map[string]any{"text": petstore31}}).want(http.StatusOK).object()["lastVersion"].(string)
		if second == first {
			t.Fatal("new content made no version")
		}
		// PUT of a new slug creates it.
		e.call(admin.Token, "PUT", base+"/other", map[string]any{"source": map[string]any{"text": petstore30}}).want(http.StatusCreated)

		var list struct {
			Items []struct{ Slug string }
			Count int
		}
		e.call(admin.Token, "GET", base, nil).want(http.StatusOK).decode(&list)
		if list.Count != 2 || list.Items[0].Slug != "other" || list.Items[1].Slug != "petstore" {
			t.Errorf("specs: %+v", list)
		}

		var versions struct {
			Items []struct{ ID, URL string }
			Count int
			Next  *struct{ Page string }
		}
		e.call(admin.Token, "GET", base+"/petstore/versions?limit=1", nil).want(http.StatusOK).decode(&versions)
		if versions.Count != 2 || len(versions.Items) != 1 || versions.Items[0].ID != second || versions.Next == nil {
			t.Fatalf("versions page 1: %+v", versions)
		}
		page := versions.Next.Page
		versions.Next = nil // absent on the last page
		e.call(admin.Token, "GET", base+"/petstore/versions?limit=1&page="+page, nil).want(http.StatusOK).decode(&versions)
		if len(versions.Items) != 1 || versions.Items[0].ID != first || versions.Next != nil {
			t.Fatalf("versions page 2: %+v", versions)
		}
		latest := e.call(admin.Token, "GET", base+"/petstore/versions/latest", nil).want(http.StatusOK).object()
		if latest["id"] != second || latest["object"] != "openapi-spec-version" {
			t.Errorf("latest: %v", latest)
		}
		e.call(admin.Token, "GET", base+"/petstore/versions/"+first, nil).want(http.StatusOK)
		e.call(admin.Token, "GET", base+"/petstore/versions/nope", nil).wantError(http.StatusNotFound)
		var content struct {
			Filesystem map[string]map[string]any
			URL        string
		}
		e.call(admin.Token, "GET", base+"/petstore/versions/"+first+"/content", nil).want(http.StatusOK).decode(&content)
		if doc := content.Filesystem["openapi.json"]; doc == nil || doc["openapi"] != "3.0.3" || !strings.HasSuffix(content.URL, "/versions/"+first+"/content") {
			t.Errorf("content of the first version: %+v", content)
		}
		e.call(admin.Token, "GET", base+"/petstore/versions/latest/content", nil).want(http.StatusOK).decode(&content)
		if doc := content.Filesystem["openapi.json"]; doc == nil || doc["openapi"] != "3.1.0" || doc["webhooks"] == nil {
			t.Errorf("content of the latest version: %+v", content)
		}

		// The GraphQL door reads and writes the same specifications.
		g := e.gql(admin.Token, `query($o: ID!) { organization(id: $o) { openAPISpec(slug: "petstore") { slug lastVersion versions { totalCount nodes { id } } version(id: "latest") { id content { filesystem } } } } }`, map[string]any{"o": orgID})
		var got struct {
			Organization struct {
				OpenAPISpec struct {
					LastVersion string
					Versions    struct {
						TotalCount int
						Nodes      []struct{ ID string }
					}
					Version struct {
						ID      string
						Content struct{ Filesystem map[string]any }
					}
				}
			}
		}
		g.ok(&got)
		s := got.Organization.OpenAPISpec
		if s.LastVersion != second || s.Versions.TotalCount != 2 || s.Versions.Nodes[0].ID != second || s.Version.ID != second || s.Version.Content.Filesystem["openapi.json"] == nil {
			t.Errorf("GraphQL spec: %+v", s)
		}
		g = e.gql(admin.Token, `mutation($o: ID!) { putOpenAPISpec(organizationId: $o, slug: "petstore", input: {source: {text: "openapi: 3.0.3"}}) { id } }`, map[string]any{"o": orgID})
		if g.code() != "BAD_REQUEST" && g.code() != "INVALID" {
			t.Errorf("GraphQL invalid document: code %q", g.code())
		}
		g = e.gql(admin.Token, `mutation($o: ID!, $t: String!) { createOpenAPISpec(organizationId: $o, input: {slug: "gql", source: {text: $t}}) { slug processingState } }`, map[string]any{"o": orgID, "t": petstore31})
		g.ok(nil)

		// Members with a role read; guests and outsiders do not; only the create role writes.
		reader := e.member(orgID, "reader@specs.test", "read")
		e.call(reader.Token, "GET", base+"/petstore", nil).want(http.StatusOK)
		e.call(reader.Token, "PUT", base+"/petstore", map[string]any{"source": map[string]any{"text": petstore30}}).wantError(http.StatusForbidden)
		_, outsider := e.org("Elsewhere", "admin@else.test")
		e.call(outsider.Token, "GET", base+"/petstore", nil).wantError(http.StatusNotFound)
		e.call(outsider.Token, "GET", base+"/petstore/versions/"+first+"/content", nil).wantError(http.StatusNotFound)
	})
}

// A URL source is fetched by a durable job with the safe fetcher: a loopback address is refused
// unless the operator allows it, a redirect is checked again, and a refresh makes a version only
// when the content changed.
func TestOpenAPISpecFromURL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Fetch", "admin@fetch.test")
		base := "/orgs/" + orgID + "/openapi"
		var doc atomic.Value
		doc.Store(petstore30)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/redirect" {
				http.Redirect(w, r, "/spec.yaml", http.StatusFound)
				return
			}
			w.Write([]byte(doc.Load().(string)))
		}))
		defer srv.Close()

		// https only by default: nothing stored.
		e.call(admin.Token, "POST", base, map[string]any{"slug": "remote", "source": map[string]any{"url": srv.URL + "/spec.yaml"}}).wantError(http.StatusBadRequest)
		e.call(admin.Token, "GET", base+"/remote", nil).wantError(http.StatusNotFound)

		// With http allowed but not private addresses, the fetch to the loopback server fails at
		// dial time: the failure is the spec's state.
		e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true}
		spec := e.call(admin.Token, "POST", base, map[string]any{"slug": "remote", "source": map[string]any{"url": srv.URL + "/redirect"}}).want(http.StatusCreated).object()
		if spec["processingState"] != "pending" || spec["sourceURL"] != srv.URL+"/redirect" {
			t.Errorf("queued spec: %v", spec)
		}
		e.runJobs()
		spec = e.call(admin.Token, "GET", base+"/remote", nil).want(http.StatusOK).object()
		if spec["lastProcessErrorCode"] != "FETCH_ERROR" || spec["lastVersion"] != nil || !strings.Contains(jsonText(spec["lastProcessedErrors"]), "loopback") {
			t.Fatalf("fetch from loopback: %v", spec)
		}
		e.call(admin.Token, "GET", base+"/remote/versions/latest", nil).wantError(http.StatusNotFound)

		// Allowed: fetched through the redirect, one version.
		e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true, AllowPrivate: true}
		e.call(admin.Token, "PUT", base+"/remote", map[string]any{"source": map[string]any{"url": srv.URL + "/redirect"}}).want(http.StatusOK)
		e.runJobs()
		spec = e.call(admin.Token, "GET", base+"/remote", nil).want(http.StatusOK).object()
		if spec["processingState"] != "complete" || spec["lastVersion"] == nil || spec["lastProcessErrorCode"] != nil {
			t.Fatalf("fetched spec: %v", spec)
		}
		first := spec["lastVersion"]
		v := e.call(admin.Token, "GET", base+"/remote/versions/latest", nil).want(http.StatusOK).object()
		if v["url"] != srv.URL+"/redirect" {
			t.Errorf("version url %v", v["url"])
		}

		// A refresh with unchanged content makes no version; changed content makes one.
		g := e.gql(admin.Token, `mutation($o: ID!) { refreshOpenAPISpec(organizationId: $o, slug: "remote") { processingState } }`, map[string]any{"o": orgID})
		g.ok(nil)
		e.runJobs()
		if got := e.call(admin.Token, "GET", base+"/remote", nil).want(http.StatusOK).object()["lastVersion"]; got != first {
			t.Errorf("refresh without change: lastVersion %v, want %v", got, first)
		}
		doc.Store(petstore31)
		e.call(admin.Token, "PUT", base+"/remote", map[string]any{"source": map[string]any{"url": srv.URL + "/redirect"}}).want(http.StatusOK)
		e.runJobs()
		var versions struct{ Count int }
		e.call(admin.Token, "GET", base+"/remote/versions", nil).want(http.StatusOK).decode(&versions)
		if versions.Count != 2 {
			t.Errorf("versions after a changed refresh: %d, want 2", versions.Count)
		}

		// An invalid fetched document is a PARSE_ERROR with the library's message; versions stay.
		doc.Store("openapi: 3.0.3\ninfo: {title: T}\npaths: {}\n")
		e.call(admin.Token, "PUT", base+"/remote", map[string]any{"source": map[string]any{"url": srv.URL + "/spec.yaml"}}).want(http.StatusOK)
		e.runJobs()
		spec = e.call(admin.Token, "GET", base+"/remote", nil).want(http.StatusOK).object()
		if spec["lastProcessErrorCode"] != "PARSE_ERROR" || !strings.Contains(jsonText(spec["lastProcessedErrors"]), "version") {
			t.Errorf("invalid fetched document: %v", spec)
		}
		e.call(admin.Token, "GET", base+"/remote/versions", nil).want(http.StatusOK).decode(&versions)
		if versions.Count != 2 {
			t.Errorf("versions after a parse error: %d, want 2", versions.Count)
		}
	})
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
