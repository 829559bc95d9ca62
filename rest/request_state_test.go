package rest_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// One request state per HTTP request, through both doors: what a request has read serves every
// resolver of that request, and none of it is left for the next request, whichever door it uses.
func TestOneRequestStatePerRequest(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("State", "admin@state.test")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		to := target(space, "")
		e.createPage(admin.Token, to, map[string]any{"title": "Home", "markdown": "# Home"})
		guide := e.createPage(admin.Token, to, map[string]any{"title": "Guide", "markdown": "[home](home.md) [gone](gone.md)"})

		gql := func(query string) int64 {
			t.Helper()
			var n atomic.Int64
			e.gqlCounted(admin.Token, query, map[string]any{"s": space}, &n).ok(nil)
			return n.Load()
		}
		rest := func() int64 {
			t.Helper()
			var n atomic.Int64
			e.callCounted(admin.Token, "GET", "/spaces/"+space+"/content/page/"+guide+"/links", nil, &n).want(http.StatusOK)
			return n.Load()
		}
		// The second alias reads the same content: its pages' links cost nothing more, because the
		// request keeps the content source and what was read of it for all its resolvers.
		const links = `a: space(id: $s) { content { pages { links { status } } } }`
		withoutLinks := gql(`query($s: ID!) { ` + links + ` b: space(id: $s) { content { pages { id } } } }`)
		twice := gql(`query($s: ID!) { ` + links + ` b: space(id: $s) { content { pages { links { status } } } } }`)
		if twice != withoutLinks {
			t.Errorf("reading the links of the same content again in one request cost %d statements more", twice-withoutLinks)
		}

		// The next request, through either door, reads afresh: it costs what the first did.
		restFirst := rest()
		again := gql(`query($s: ID!) { ` + links + ` b: space(id: $s) { content { pages { links { status } } } } }`)
		restAgain := rest()
		if again != twice || restAgain != restFirst || restFirst == 0 {
			t.Errorf("statements of repeated requests: GraphQL %d then %d, REST %d then %d; want each repeated request to cost the same", twice, again, restFirst, restAgain)
		}
	})
}

// A change request opened without edits shows the space's revision, on its own line: read in the
// same request as the space's content, its pages' links still lead into the change request.
func TestChangeRequestContentIsNotTheSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Lines", "admin@lines.test")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		to := target(space, "")
		e.createPage(admin.Token, to, map[string]any{"title": "Home", "markdown": "# Home"})
		e.createPage(admin.Token, to, map[string]any{"title": "Guide", "markdown": "[home](home.md)"})
		cr := e.openChangeRequest(admin.Token, space, "Nothing yet")

		type pages []struct {
			Links []struct {
				TargetPage struct{ URLs struct{ App string } }
			}
		}
		var data struct {
			Space struct {
				Content struct {
					ID    string
					Pages pages
				}
				ChangeRequest struct {
					Content struct {
						ID    string
						Pages pages
					}
				}
			}
		}
		const tree = `content { id pages { links { targetPage { urls { app } } } } }`
		e.gql(admin.Token, `query($s: ID!, $cr: ID!) { space(id: $s) { `+tree+` changeRequest(id: $cr) { `+tree+` } } }`,
			map[string]any{"s": space, "cr": cr}).ok(&data)
		main, changes := data.Space.Content, data.Space.ChangeRequest.Content
		if main.ID != changes.ID {
			t.Fatalf("the change request shows revision %s, the space %s: the case needs the same revision", changes.ID, main.ID)
		}
		if len(main.Pages) != 2 || len(main.Pages[1].Links) != 1 || len(changes.Pages) != 2 || len(changes.Pages[1].Links) != 1 {
			t.Fatalf("pages = %+v and %+v, want a guide with one link each", main.Pages, changes.Pages)
		}
		if app := main.Pages[1].Links[0].TargetPage.URLs.App; strings.Contains(app, "/~/changes/") {
			t.Errorf("the space's link leads to %s, in a change request", app)
		}
		if app := changes.Pages[1].Links[0].TargetPage.URLs.App; !strings.Contains(app, "/~/changes/"+cr+"/") {
			t.Errorf("the change request's link leads to %s, outside it", app)
		}
	})
}
