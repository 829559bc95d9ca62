package rest_test

import (
	"net/http"
	"net/url"
	"testing"
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
