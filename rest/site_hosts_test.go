package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestSiteHostname(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "hosted")
		o := p.o
		cname := "elsewhere.example."
		e.res.LookupCNAME = func(_ context.Context, host string) (string, error) { return cname, nil }
		atHost := func(host, path string) page {
			t.Helper()
			req := httptest.NewRequest("GET", "http://"+host+path, nil)
			_, rec := e.serve(req, "", nil)
			return page{t: t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
		}
		set := `mutation($o: ID!, $s: ID!, $h: String) { setSiteHostname(organizationId: $o, siteId: $s, hostname: $h) { hostname isActive status target { site } } }`
		var g struct {
			SetSiteHostname struct {
				Hostname, Status string
				IsActive         bool
				Target           struct{ Site string }
			}
		}
		e.gql(o.admin.Token, set, map[string]any{"o": o.id, "s": p.site, "h": "Docs.Acme.test"}).ok(&g)
		if h := g.SetSiteHostname; h.Hostname != "docs.acme.test" || h.IsActive || h.Status != "dns_wrong_cname" || h.Target.Site != p.site {
			t.Errorf("set = %+v", h)
		}
		// Not pointing here yet: the host name serves nothing, the site stays under /sites/.
		atHost("docs.acme.test", "/").want(http.StatusNotFound)
		if u := e.call(o.admin.Token, "GET", p.path, nil).want(http.StatusOK).object()["urls"].(map[string]any)["published"]; u != "https://bindery.test/sites/hosted/" {
			t.Errorf("published URL before DNS = %v", u)
		}

		// The CNAME now names this server: revalidated, active, served at its root.
		cname = "bindery.test."
		e.call(o.admin.Token, "PATCH", "/custom-hostnames/docs.acme.test", nil).want(http.StatusNoContent)
		h := e.call(o.admin.Token, "GET", "/custom-hostnames/docs.acme.test", nil).want(http.StatusOK).object()
		if h["object"] != "custom-hostname" || h["isActive"] != true || h["status"] != "dns_passed" {
			t.Errorf("custom hostname = %v", h)
		}
		home := atHost("docs.acme.test", "/").want(http.StatusOK).has("Installation", "https://docs.acme.test/installation")
		if home.Body == "" {
			t.Fatal("empty home")
		}
		atHost("docs.acme.test", "/installation").want(http.StatusOK).has("installer")
		atHost("docs.acme.test", "/v1/user").want(http.StatusNotFound) // the host serves the site only
		if u := e.call(o.admin.Token, "GET", p.path, nil).want(http.StatusOK).object()["urls"].(map[string]any)["published"]; u != "https://docs.acme.test/" {
			t.Errorf("published URL = %v", u)
		}

		// Refusals: a malformed name, the server's own, one another site has.
		other, _ := o.site("Other")
		e.wantInvalid("malformed", o.admin, set, map[string]any{"o": o.id, "s": p.site, "h": "localhost"}, "hostname")
		e.wantInvalid("own host", o.admin, set, map[string]any{"o": o.id, "s": p.site, "h": "bindery.test"}, "hostname")
		e.wantInvalid("taken", o.admin, set, map[string]any{"o": o.id, "s": other, "h": "docs.acme.test"}, "hostname")

		// Others learn nothing; readers may not manage it.
		e.call(p.other.Token, "GET", "/custom-hostnames/docs.acme.test", nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "PATCH", "/custom-hostnames/docs.acme.test", nil).wantError(http.StatusNotFound)
		reader := e.member(o.id, "reader@acme.test", "read")
		e.call(reader.Token, "GET", "/custom-hostnames/docs.acme.test", nil).wantError(http.StatusForbidden)
		e.call(p.other.Token, "DELETE", "/custom-hostnames/docs.acme.test", nil).want(http.StatusNoContent)
		atHost("docs.acme.test", "/").want(http.StatusOK)

		e.call(o.admin.Token, "DELETE", "/custom-hostnames/docs.acme.test", nil).want(http.StatusResetContent)
		e.call(o.admin.Token, "DELETE", "/custom-hostnames/docs.acme.test", nil).want(http.StatusNoContent)
		// Removed: the host name no longer serves the site (any host still reaches the app's
		// own screens, as any address of the server does).
		atHost("docs.acme.test", "/installation").want(http.StatusNotFound)
		if home := atHost("docs.acme.test", "/"); strings.Contains(home.Body, "installer") || strings.Contains(home.Body, "Installation") {
			t.Errorf("the removed host name still serves the site: %s", home.Body)
		}
		e.read("/sites/hosted/", nil).want(http.StatusOK)
	})
}
