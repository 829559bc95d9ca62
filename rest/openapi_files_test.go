package rest_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/bindery/bindery/domain/safefetch"
	"github.com/bindery/bindery/storage/storagetest"
)

// Multi-file specifications: a document fetched from a URL may reference other files by
// relative $ref; they are fetched with the safe fetcher, validated with the document and kept
// with its version (docs/openapi.md).
func TestOpenAPISpecFiles(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Files", "admin@files.test")
		base := "/orgs/" + orgID + "/openapi"
		var mu sync.Mutex
		files := map[string]string{
			"/api/openapi.yaml": `openapi: 3.0.3
info: {title: Split, version: "1"}
tags: [{name: pets}]
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "schemas/pet.yaml#/Pet"}}}}
        default: {$ref: "../shared/errors.yaml#/Failure"}
`,
			"/api/schemas/pet.yaml": "Pet:\n  type: object\n  properties:\n    name: {type: string}\n",
			"/shared/errors.yaml":   "Failure:\n  description: Something failed\n",
		}
		set := func(path, text string) {
			mu.Lock()
			defer mu.Unlock()
			files[path] = text
		}
		redirects := map[string]string{}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			text, ok := files[r.URL.Path]
			to := redirects[r.URL.Path]
			mu.Unlock()
			if to != "" {
				http.Redirect(w, r, to, http.StatusFound)
				return
			}
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(text))
		}))
		defer srv.Close()
		e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true, AllowPrivate: true}

		e.call(admin.Token, "POST", base, map[string]any{"slug": "split", "source": map[string]any{"url": srv.URL + "/api/openapi.yaml"}}).want(http.StatusCreated)
		e.runJobs()
		spec := e.call(admin.Token, "GET", base+"/split", nil).want(http.StatusOK).object()
		if spec["lastVersion"] == nil || spec["lastProcessErrorCode"] != nil {
			t.Fatalf("multi-file spec: %v", spec)
		}
		first := spec["lastVersion"].(string)
		var content struct {
			Filesystem map[string]map[string]any
			URL        string
		}
		e.call(admin.Token, "GET", base+"/split/versions/latest/content", nil).want(http.StatusOK).decode(&content)
		if len(content.Filesystem) != 3 || content.Filesystem["openapi.yaml"]["openapi"] != "3.0.3" || content.Filesystem["schemas/pet.yaml"]["Pet"] == nil ||
			content.Filesystem["../shared/errors.yaml"]["Failure"] == nil || content.URL != srv.URL+"/api/openapi.yaml" {
			t.Errorf("content: %+v", content)
		}
		// GraphQL reads the same files.
		var g struct {
			Organization struct {
				OpenAPISpec struct {
					Version struct {
						Content struct{ Filesystem map[string]any }
					}
				}
			}
		}
		e.gql(admin.Token, `query($o: ID!) { organization(id: $o) { openAPISpec(slug: "split") { version(id: "latest") { content { filesystem } } } } }`, map[string]any{"o": orgID}).ok(&g)
		if len(g.Organization.OpenAPISpec.Version.Content.Filesystem) != 3 {
			t.Errorf("GraphQL filesystem: %v", g.Organization.OpenAPISpec.Version.Content.Filesystem)
		}

		// Pages are generated from the version's files, never fetched again.
		spaceID := e.newSpace(admin.Token, orgID, "Split")
		var ins struct {
			InsertOpenAPIPages struct{ Pages []refPage }
		}
		e.gql(admin.Token, insertPagesQuery, map[string]any{"t": target(spaceID, ""), "in": map[string]any{"spec": "split"}}).ok(&ins)
		if p := ins.InsertOpenAPIPages.Pages; len(p) != 1 || !strings.Contains(p[0].Markdown, "`application/json`: Pet") || !strings.Contains(p[0].Markdown, "Something failed") {
			t.Errorf("pages of a multi-file spec: %+v", p)
		}

		// A change in a referenced file is a new version; the same files again make none.
		refresh := func() map[string]any {
			e.gql(admin.Token, `mutation($o: ID!) { refreshOpenAPISpec(organizationId: $o, slug: "split") { id } }`, map[string]any{"o": orgID}).ok(nil)
			e.runJobs()
			return e.call(admin.Token, "GET", base+"/split", nil).want(http.StatusOK).object()
		}
		if got := refresh()["lastVersion"]; got != first {
			t.Errorf("unchanged files made version %v", got)
		}
		set("/api/schemas/pet.yaml", "Pet:\n  type: object\n  properties:\n    name: {type: string}\n    age: {type: integer}\n")
		second := refresh()["lastVersion"]
		if second == first {
			t.Error("a changed file made no version")
		}

		// A referenced file that is invalid, missing, on another host, or too many: the fetch fails,
		// naming the file; the versions stay.
		set("/api/schemas/pet.yaml", "Pet: {type: wrong}\n")
		if s := refresh(); s["lastProcessErrorCode"] != "PARSE_ERROR" || s["lastVersion"] != second {
			t.Errorf("invalid referenced schema: %v", s)
		}
		set("/api/schemas/pet.yaml", "Pet: {type: object}\n")
		set("/api/openapi.yaml", strings.Replace(files["/api/openapi.yaml"], "schemas/pet.yaml", "schemas/missing.yaml", 1))
		if s := refresh(); s["lastProcessErrorCode"] != "FETCH_ERROR" || !strings.Contains(jsonText(s["lastProcessedErrors"]), "schemas/missing.yaml") {
			t.Errorf("missing referenced file: %v", s)
		}
		other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
		set("/api/openapi.yaml", strings.Replace(files["/api/openapi.yaml"], "schemas/missing.yaml", other+"/api/schemas/pet.yaml", 1))
		if s := refresh(); s["lastProcessErrorCode"] != "FETCH_ERROR" || !strings.Contains(jsonText(s["lastProcessedErrors"]), "own host") {
			t.Errorf("file on another host: %v", s)
		}

		// The safe fetcher's checks apply to referenced files: one that redirects to a loopback
		// address the policy does not allow is refused.
		if l, err := net.Listen("tcp", "127.0.0.2:0"); err == nil {
			inner := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("Pet: {type: object}\n")) }))
			inner.Listener = l
			inner.Start()
			defer inner.Close()
			set("/api/openapi.yaml", strings.Replace(files["/api/openapi.yaml"], other+"/api/schemas/pet.yaml", "schemas/moved.yaml", 1))
			mu.Lock()
			redirects["/api/schemas/moved.yaml"] = inner.URL + "/pet.yaml"
			mu.Unlock()
			e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true, AllowPrefixes: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
			if s := refresh(); s["lastProcessErrorCode"] != "FETCH_ERROR" || !strings.Contains(jsonText(s["lastProcessedErrors"]), "loopback") {
				t.Errorf("referenced file redirected to a loopback address: %v", s)
			}
			e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true, AllowPrivate: true}
			if s := refresh(); s["lastProcessErrorCode"] != nil || s["lastVersion"] == second {
				t.Errorf("redirect allowed: %v", s)
			}
		} else if storagetest.CI() {
			t.Fatalf("cannot listen on 127.0.0.2 (%v): under CI the redirect case must run", err)
		} else {
			t.Logf("cannot listen on 127.0.0.2 (%v): the redirect case is skipped", err)
		}

		// A text source cannot have files: 400, naming the reference.
		text := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {/a: {get: {responses: {'200': {$ref: 'schemas/pet.yaml#/Ok'}}}}}\n"
		msg := e.call(admin.Token, "POST", base, specBody("inline", text)).wantError(http.StatusBadRequest)
		if !strings.Contains(msg, "schemas/pet.yaml") {
			t.Errorf("text source with a relative $ref: %q names no reference", msg)
		}
	})
}
