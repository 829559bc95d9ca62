package rest_test

import (
	"net/http"
	"net/url"
	"testing"
)

// resolvePublishedContentByUrl and its deprecated GET form: what a published URL shows, with a
// read-only API token of the caller; redirects of the site; nothing for the wrong visitor.
func TestResolvePublishedContentByURL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "lookup")
		o := p.o
		const pageURL = "https://bindery.test/sites/lookup/installation"
		res := e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": pageURL}).want(http.StatusOK).object()
		want := map[string]any{"site": p.site, "siteSpace": p.ss, "space": p.space, "pathname": "installation",
			"basePath": "/sites/lookup/", "siteBasePath": "/sites/lookup/", "organization": o.id, "complete": true, "canonicalUrl": pageURL}
		for k, v := range want {
			if res[k] != v {
				t.Errorf("%s = %v, want %v", k, res[k], v)
			}
		}
		token, _ := res["apiToken"].(string)
		if token == "" {
			t.Fatalf("no apiToken: %v", res)
		}
		// The token reads the space as its caller, and writes nothing.
		e.call(token, "GET", "/spaces/"+p.space+"/content", nil).want(http.StatusOK)
		e.call(token, "PATCH", "/spaces/"+p.space, map[string]any{"title": "Renamed"}).wantError(http.StatusForbidden)

		// The deprecated GET form answers the same.
		got := e.call(o.admin.Token, "GET", "/urls/published?url="+url.QueryEscape(pageURL), nil).want(http.StatusOK).object()
		if got["siteSpace"] != p.ss || got["pathname"] != "installation" {
			t.Errorf("GET = %v", got)
		}
		// The site's root is its default site space's first page.
		root := e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": "https://bindery.test/sites/lookup/"}).want(http.StatusOK).object()
		if root["pathname"] != "" || root["siteSpace"] != p.ss {
			t.Errorf("root = %v", root)
		}

		// A redirect of the site.
		e.call(o.admin.Token, "POST", p.path+"/redirects", map[string]any{"source": "/setup",
			"destination": map[string]any{"kind": "site-page", "siteSpaceId": p.ss, "pageId": p.page}}).want(http.StatusCreated)
		red := e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": "https://bindery.test/sites/lookup/setup"}).want(http.StatusOK).object()
		if red["target"] != "content" || red["redirect"] != pageURL {
			t.Errorf("redirect = %v", red)
		}

		// Nothing there, not a published URL, not a URL.
		e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": "https://bindery.test/sites/lookup/nowhere"}).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": "https://elsewhere.test/sites/lookup/"}).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": "installation"}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", "/urls/published", map[string]any{}).wantError(http.StatusBadRequest)

		// A public site is public: another organization's user resolves it as a visitor does.
		e.call(p.other.Token, "POST", "/urls/published", map[string]any{"url": pageURL}).want(http.StatusOK)
		// A share-link site: only with an active share key, as the reader takes it in the URL.
		e.call(o.admin.Token, "PATCH", p.path, map[string]any{"visibility": "share-link"}).want(http.StatusOK)
		e.call(p.other.Token, "POST", "/urls/published", map[string]any{"url": pageURL}).wantError(http.StatusNotFound)
		link := e.call(o.admin.Token, "POST", p.path+"/share-links", map[string]any{"name": "Partners"}).want(http.StatusCreated).object()
		linkURL, _ := url.Parse(link["urls"].(map[string]any)["published"].(string))
		key := linkURL.Query().Get("share")
		shared := e.call(p.other.Token, "POST", "/urls/published", map[string]any{"url": pageURL + "?share=" + key}).want(http.StatusOK).object()
		if shared["shareKey"] != key || shared["siteSpace"] != p.ss {
			t.Errorf("shared = %v", shared)
		}
		// Its members resolve it without a key.
		e.call(o.admin.Token, "POST", "/urls/published", map[string]any{"url": pageURL}).want(http.StatusOK)

		// GraphQL: the same method.
		var g struct {
			ResolvePublishedContentByURL struct {
				Content  *struct{ SiteSpace, Pathname, APIToken string }
				Redirect *struct{ Target, Redirect string }
			} `json:"resolvePublishedContentByUrl"`
		}
		e.gql(o.admin.Token, `mutation($u: String!) { resolvePublishedContentByUrl(input: {url: $u}) {
			content { siteSpace pathname apiToken } redirect { target redirect } } }`, map[string]any{"u": pageURL}).ok(&g)
		if c := g.ResolvePublishedContentByURL.Content; c == nil || c.SiteSpace != p.ss || c.Pathname != "installation" || c.APIToken == "" {
			t.Errorf("GraphQL content = %+v", c)
		}
		e.gql(o.admin.Token, `mutation($u: String!) { resolvePublishedContentByUrl(input: {url: $u}) {
			content { siteSpace } redirect { target redirect } } }`, map[string]any{"u": "https://bindery.test/sites/lookup/setup"}).ok(&g)
		if r := g.ResolvePublishedContentByURL.Redirect; r == nil || r.Redirect != pageURL {
			t.Errorf("GraphQL redirect = %+v", r)
		}
	})
}
