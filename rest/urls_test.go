package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/safefetch"
)

func TestContentByURL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "lookup")
		o := p.o
		lookup := func(token, u string) response {
			return e.call(token, "GET", "/urls/content?url="+url.QueryEscape(u), nil)
		}
		type found struct {
			Collection *struct{ ID string }
			Space      *struct{ ID string }
			Page       *struct{ ID, Title, Path string }
		}
		for _, u := range []string{"https://app.bindery.test/s/" + p.space + "/installation", "https://bindery.test/sites/lookup/installation"} {
			var f found
			lookup(o.admin.Token, u).want(http.StatusOK).decode(&f)
			if f.Space == nil || f.Space.ID != p.space || f.Page == nil || f.Page.ID != p.page || f.Page.Title != "Installation" {
				t.Errorf("%s = %+v", u, f)
			}
		}
		var home found
		lookup(o.admin.Token, "https://app.bindery.test/s/"+p.space+"/").want(http.StatusOK).decode(&home)
		if home.Space == nil || home.Page != nil {
			t.Errorf("space home = %+v", home)
		}
		coll := o.content("collections", "", "Guides")
		var c found
		lookup(o.admin.Token, "https://app.bindery.test/c/"+coll+"/").want(http.StatusOK).decode(&c)
		if c.Collection == nil || c.Collection.ID != coll {
			t.Errorf("collection = %+v", c)
		}

		lookup(o.admin.Token, "https://bindery.test/sites/lookup/nowhere").wantError(http.StatusNotFound)
		lookup(o.admin.Token, "https://elsewhere.example/s/"+p.space+"/").wantError(http.StatusNotFound)
		if msg := lookup(o.admin.Token, "not a url").wantError(http.StatusBadRequest); msg[:3] != "url" {
			t.Errorf("bad URL: %q", msg)
		}
		// Another organization learns nothing, not even that the space exists.
		lookup(p.other.Token, "https://app.bindery.test/s/"+p.space+"/installation").wantError(http.StatusNotFound)
		lookup(p.other.Token, "https://bindery.test/sites/lookup/installation").wantError(http.StatusNotFound)

		var g struct {
			ContentByURL struct {
				Space struct{ ID string }
				Page  struct{ Title string }
			} `json:"contentByUrl"`
		}
		e.gql(o.admin.Token, `query($u: String!) { contentByUrl(url: $u) { space { id } page { title } } }`, map[string]any{"u": "https://bindery.test/sites/lookup/installation"}).ok(&g)
		if g.ContentByURL.Space.ID != p.space || g.ContentByURL.Page.Title != "Installation" {
			t.Errorf("GraphQL = %+v", g)
		}
		if code := e.gql(p.other.Token, `query($u: String!) { contentByUrl(url: $u) { space { id } } }`, map[string]any{"u": "https://bindery.test/sites/lookup/installation"}).code(); code != "NOT_FOUND" {
			t.Errorf("GraphQL other org: %s", code)
		}
	})
}

func TestEmbedByURL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		_, admin := e.org("Embeds", "admin@embeds.test")
		e.res.Settings.Fetch = safefetch.Policy{AllowHTTP: true, AllowPrivate: true}
		var srv *httptest.Server
		title := "Launch video"
		var articleHits atomic.Int32
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/video":
				fmt.Fprintf(w, `<html><head><title>%s</title><link rel="alternate" type="application/json+oembed" href="/oembed?u=1"></head><body>x</body></html>`, title)
			case "/oembed":
				fmt.Fprint(w, `{"type":"video","title":"Launch","provider_name":"Tube","html":"<iframe src=\"https://tube.example/e/1\"></iframe>"}`)
			case "/article":
				articleHits.Add(1)
				fmt.Fprint(w, `<html><head><title>Plain</title><meta property="og:title" content="An article"><meta property="og:site_name" content="Blog"><link rel="icon" href="/favicon.png"></head></html>`)
			default:
				http.NotFound(w, r)
			}
		}))
		defer srv.Close()
		embed := func(u string) map[string]any {
			return e.call(admin.Token, "GET", "/urls/embed?url="+url.QueryEscape(u), nil).want(http.StatusOK).object()
		}
		if got := embed(srv.URL + "/video"); got["type"] != "rich" || got["title"] != "Launch" || got["site"] != "Tube" || !strings.Contains(fmt.Sprint(got["html"]), "<iframe") {
			t.Errorf("oEmbed = %v", got)
		}
		if got := embed(srv.URL + "/article"); got["type"] != "link" || got["title"] != "An article" || got["site"] != "Blog" || got["icon"] != srv.URL+"/favicon.png" {
			t.Errorf("link = %v", got)
		}
		// Cached: asked again, the page is not fetched again.
		embed(srv.URL + "/article")
		if n := articleHits.Load(); n != 1 {
			t.Errorf("the article was fetched %d times, want 1 (cached)", n)
		}
		// A page that cannot be read embeds as a link to itself.
		if got := embed(srv.URL + "/gone"); got["type"] != "link" || got["title"] != srv.URL+"/gone" {
			t.Errorf("missing page = %v", got)
		}
		e.call(admin.Token, "GET", "/urls/embed?url=javascript:alert(1)", nil).wantError(http.StatusBadRequest)
		e.call(admin.Token, "GET", "/urls/embed", nil).wantError(http.StatusBadRequest)

		var g struct {
			EmbedByURL struct{ Type, Title string } `json:"embedByUrl"`
		}
		e.gql(admin.Token, `query($u: String!) { embedByUrl(url: $u) { type title } }`, map[string]any{"u": srv.URL + "/article"}).ok(&g)
		if g.EmbedByURL.Type != "link" || g.EmbedByURL.Title != "An article" {
			t.Errorf("GraphQL = %+v", g)
		}
		// Fetched private addresses are refused by the default policy: a link, nothing read.
		e.res.Settings.Fetch = safefetch.Policy{}
		if got := embed(srv.URL + "/article?fresh"); got["title"] != srv.URL+"/article?fresh" {
			t.Errorf("private address read: %v", got)
		}
	})
}
