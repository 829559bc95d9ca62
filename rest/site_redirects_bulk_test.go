package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/bindery/bindery/rest/contracttest"
)

// callBulk is call for bulkUpsertSiteRedirects, validated against the newer contract
// (@gitbook/api 0.202.0) that defines it.
func (e *env) callBulk(token, path string, body any) response {
	e.t.Helper()
	res := e.call(token, "PUT", path, body)
	raw, _ := json.Marshal(body)
	req := httptest.NewRequest("PUT", "/v1"+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	contracttest.ValidateNewer(e.t, req, res.Status, res.Header, res.Body)
	return res
}

func TestBulkUpsertSiteRedirects(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "bulk")
		o := p.o
		base := p.path + "/redirects"
		toSpace := map[string]any{"kind": "site-space", "siteSpaceId": p.ss}
		toPage := map[string]any{"kind": "site-page", "siteSpaceId": p.ss, "pageId": p.page}
		e.call(o.admin.Token, "POST", base, map[string]any{"source": "/existing", "destination": toSpace}).want(http.StatusCreated)

		var out struct {
			Results []struct {
				Status, Source, ID, Error string
				Draft                     bool
			}
		}
		e.callBulk(o.admin.Token, base, map[string]any{"redirects": []any{
			map[string]any{"source": "/new", "destination": toPage},
			map[string]any{"source": "/existing", "destination": toPage, "intent": "live", "permanent": true},
			map[string]any{"source": "/by-path", "destination": map[string]any{"kind": "path", "spaceId": p.space, "path": "installation"}},
			map[string]any{"source": "/draft", "intent": "draft", "destination": toSpace},
			map[string]any{"source": "/docs/*", "destination": toSpace},
			map[string]any{"source": "/temporary", "permanent": false, "destination": toSpace},
			map[string]any{"source": "/nowhere", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}},
			map[string]any{"source": "/installation", "destination": toPage},
			map[string]any{"source": "/missing", "destination": nil},
		}}).want(http.StatusOK).decode(&out)
		want := []string{"created", "updated", "created", "error", "error", "error", "error", "error", "error"}
		if len(out.Results) != len(want) {
			t.Fatalf("results = %+v", out.Results)
		}
		for i, w := range want {
			if r := out.Results[i]; r.Status != w || (w != "error" && r.ID == "") || (w == "error" && r.Error == "") {
				t.Errorf("item %d = %+v, want %s", i, r, w)
			}
		}
		if !out.Results[3].Draft || out.Results[0].Draft {
			t.Errorf("draft flags: %+v", out.Results)
		}
		// Applied: the reader follows the new and changed ones.
		for _, src := range []string{"/sites/bulk/new", "/sites/bulk/existing", "/sites/bulk/by-path"} {
			if loc := e.read(src, nil).want(http.StatusMovedPermanently).Header.Get("Location"); loc != "https://bindery.test/sites/bulk/installation" {
				t.Errorf("%s → %q", src, loc)
			}
		}
		e.read("/sites/bulk/draft", nil).want(http.StatusNotFound)

		// A null destination deletes; GraphQL does the same.
		e.callBulk(o.admin.Token, base, map[string]any{"redirects": []any{map[string]any{"source": "/new", "destination": nil}}}).want(http.StatusOK).decode(&out)
		if len(out.Results) != 1 || out.Results[0].Status != "deleted" {
			t.Errorf("delete = %+v", out.Results)
		}
		e.read("/sites/bulk/new", nil).want(http.StatusNotFound)
		var g struct {
			BulkUpsertSiteRedirects struct {
				Results []struct{ Status, Source string }
			}
		}
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $ss: ID!) { bulkUpsertSiteRedirects(organizationId: $o, siteId: $s, input: {redirects: [{source: "/g", destination: {kind: "site-space", siteSpaceId: $ss}}, {source: "/existing", destination: null}]}) { results { status source } } }`,
			map[string]any{"o": o.id, "s": p.site, "ss": p.ss}).ok(&g)
		if r := g.BulkUpsertSiteRedirects.Results; len(r) != 2 || r[0].Status != "created" || r[1].Status != "deleted" {
			t.Errorf("GraphQL = %+v", r)
		}

		// The request as a whole: at least one item, at most 500, the site's managers only.
		e.callBulk(o.admin.Token, base, map[string]any{"redirects": []any{}}).wantError(http.StatusBadRequest)
		e.callBulk(o.admin.Token, base, map[string]any{"redirects": []any{map[string]any{"source": "/no-destination"}}}).wantError(http.StatusBadRequest)
		many := make([]any, 501)
		for i := range many {
			many[i] = map[string]any{"source": "/x", "destination": toSpace}
		}
		e.call(o.admin.Token, "PUT", base, map[string]any{"redirects": many}).wantError(http.StatusBadRequest)
		e.callBulk(p.other.Token, base, map[string]any{"redirects": []any{map[string]any{"source": "/z", "destination": toSpace}}}).wantError(http.StatusNotFound)
		reader := e.member(o.id, "reader@acme.test", "read")
		e.callBulk(reader.Token, base, map[string]any{"redirects": []any{map[string]any{"source": "/z", "destination": toSpace}}}).wantError(http.StatusForbidden)
	})
}
