package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

func TestSiteRedirects(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "moved")
		o := p.o
		base := p.path + "/redirects"
		toPage := map[string]any{"kind": "site-page", "siteSpaceId": p.ss, "pageId": p.page}
		red := e.call(o.admin.Token, "POST", base, map[string]any{"source": "/setup", "destination": toPage}).want(http.StatusCreated).object()
		id := red["id"].(string)
		if red["object"] != "site-redirect" || red["source"] != "/setup" {
			t.Errorf("redirect = %v", red)
		}

		// The reader follows it, permanently, where the path would be 404; a live page is served.
		res := e.read("/sites/moved/setup", nil).want(http.StatusMovedPermanently)
		if loc := res.Header.Get("Location"); loc != "https://bindery.test/sites/moved/installation" {
			t.Errorf("Location = %q", loc)
		}
		e.read("/sites/moved/installation", nil).want(http.StatusOK)
		e.read("/sites/moved/elsewhere", nil).want(http.StatusNotFound)

		var resolved struct {
			Redirect struct{ ID string }
			Target   string
		}
		e.call(o.admin.Token, "GET", p.path+"/redirect?source=/setup", nil).want(http.StatusOK).decode(&resolved)
		if resolved.Redirect.ID != id || resolved.Target != "https://bindery.test/sites/moved/installation" {
			t.Errorf("resolved = %+v", resolved)
		}
		e.call(o.admin.Token, "GET", p.path+"/redirect?source=/nothing", nil).wantError(http.StatusNotFound)

		unchanged := e.snapshot(o.admin.Token, base)
		e.wantBadBodies(o.admin.Token, "POST", base,
			badBody{"no source", map[string]any{"destination": toPage}, "source"},
			badBody{"relative source", map[string]any{"source": "setup", "destination": toPage}, "source"},
			badBody{"source with a space", map[string]any{"source": "/a b", "destination": toPage}, "source"},
			badBody{"taken source", map[string]any{"source": "/setup", "destination": toPage}, "source"},
			badBody{"unknown page", map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-page", "siteSpaceId": p.ss, "pageId": "nope"}}, "destination"},
			badBody{"unknown site space", map[string]any{"source": "/x", "destination": map[string]any{"kind": "site-space", "siteSpaceId": "nope"}}, "destination"},
			badBody{"unknown kind", map[string]any{"source": "/x", "destination": map[string]any{"kind": "url"}}, "destination.kind"},
			badBody{"to itself", map[string]any{"source": "/installation", "destination": toPage}, "destination"},
		)
		unchanged("bad redirects")

		// Moved to the site space's home; listed through both doors.
		e.call(o.admin.Token, "PATCH", base+"/"+id, map[string]any{"destination": map[string]any{"kind": "site-space", "siteSpaceId": p.ss}}).want(http.StatusOK)
		if loc := e.read("/sites/moved/setup", nil).want(http.StatusMovedPermanently).Header.Get("Location"); loc != "https://bindery.test/sites/moved/" {
			t.Errorf("Location after update = %q", loc)
		}
		e.call(o.admin.Token, "POST", base, map[string]any{"source": "/old/guide", "destination": toPage}).want(http.StatusCreated)
		// One a page through REST, each page's next token continuing GraphQL's list.
		var first struct {
			Items []struct{ Source string }
			Count int
			Next  *struct{ Page string }
		}
		e.call(o.admin.Token, "GET", base+"?limit=1", nil).want(http.StatusOK).decode(&first)
		if len(first.Items) != 1 || first.Items[0].Source != "/old/guide" || first.Count != 2 || first.Next == nil {
			t.Fatalf("first page = %+v", first)
		}
		var g1 struct {
			Organization struct {
				Site struct {
					Redirects struct {
						TotalCount int
						Nodes      []struct{ Source string }
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!, $after: String) { organization(id: $o) { site(id: $s) { redirects(first: 1, after: $after) { totalCount nodes { source } } } } }`,
			map[string]any{"o": o.id, "s": p.site, "after": first.Next.Page}).ok(&g1)
		if r := g1.Organization.Site.Redirects; r.TotalCount != 2 || len(r.Nodes) != 1 || r.Nodes[0].Source != "/setup" {
			t.Errorf("GraphQL second page = %+v", r)
		}
		var found struct{ Items []struct{ Source string } }
		e.call(o.admin.Token, "GET", base+"?search=old", nil).want(http.StatusOK).decode(&found)
		if len(found.Items) != 1 || found.Items[0].Source != "/old/guide" {
			t.Errorf("search = %+v", found)
		}
		e.wantBadPaging(o.admin.Token, base)

		// GraphQL writes the same redirects, with the same refusals.
		var g struct{ CreateSiteRedirect struct{ ID, Source string } }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $ss: ID!) { createSiteRedirect(organizationId: $o, siteId: $s, input: {source: "/v1", destination: {kind: "site-space", siteSpaceId: $ss}}) { id source } }`,
			map[string]any{"o": o.id, "s": p.site, "ss": p.ss}).ok(&g)
		e.read("/sites/moved/v1", nil).want(http.StatusMovedPermanently)
		e.wantInvalid("bad source", o.admin, `mutation($o: ID!, $s: ID!, $ss: ID!) { createSiteRedirect(organizationId: $o, siteId: $s, input: {source: "v1", destination: {kind: "site-space", siteSpaceId: $ss}}) { id } }`,
			map[string]any{"o": o.id, "s": p.site, "ss": p.ss}, "source")

		e.call(o.admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusResetContent)
		e.call(o.admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusNoContent)
		e.read("/sites/moved/setup", nil).want(http.StatusNotFound)

		// Another organization learns nothing; readers may list but not write.
		e.call(p.other.Token, "GET", base, nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "POST", base, map[string]any{"source": "/z", "destination": toPage}).wantError(http.StatusNotFound)
		reader := e.member(o.id, "reader@acme.test", "read")
		e.call(reader.Token, "GET", base, nil).want(http.StatusOK)
		msg := e.call(reader.Token, "POST", base, map[string]any{"source": "/z", "destination": toPage}).wantError(http.StatusForbidden)
		if !strings.Contains(msg, "role") {
			t.Errorf("reader refusal: %q", msg)
		}
	})
}
