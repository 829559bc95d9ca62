package rest_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
)

type linkPage struct {
	Items []struct {
		Status          string `json:"status"`
		TargetReference struct {
			Kind string `json:"kind"`
			URL  string `json:"url"`
			Page struct{ ID string }
			File struct{ ID string }
		} `json:"targetReference"`
		LocationReferences []struct {
			Kind string
			Page struct{ ID string }
		} `json:"locationReferences"`
	} `json:"items"`
	Count int `json:"count"`
	Stats struct {
		Total  int `json:"total"`
		Broken struct {
			Total         int  `json:"total"`
			ChangeRequest *int `json:"changeRequest"`
		} `json:"broken"`
	} `json:"stats"`
}

func TestLinksAndBacklinks(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Links", "admin@links.test")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		to := target(space, "")
		overview := e.createPage(admin.Token, to, map[string]any{"title": "Overview", "markdown": "# Overview"})
		guide := e.createPage(admin.Token, to, map[string]any{"title": "Guide", "markdown": "Guide"})
		setup := e.createPage(admin.Token, to, map[string]any{"title": "Setup", "parent": guide, "markdown": "Setup"})
		file := e.uploadFile(admin.Token, to, "diagram.png", []byte("not really a png"))
		install := e.createPage(admin.Token, to, map[string]any{"title": "Install", "parent": guide, "markdown": "# Install\n\n" +
			"[setup](setup.md) [home](/overview.md) [ext](https://example.com) [app](https://app.bindery.test/s/x) " +
			"[missing](nope.md) [top](#top)\n\n![diagram](.gitbook/assets/diagram.png)\n"})

		var links linkPage
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/page/"+install+"/links", nil).want(http.StatusOK).decode(&links)
		if links.Stats.Total != 7 || links.Stats.Broken.Total != 1 || links.Count != 7 || links.Stats.Broken.ChangeRequest != nil {
			t.Fatalf("stats = %+v, count %d; want 7 links, 1 broken, no change-request count", links.Stats, links.Count)
		}
		want := []struct{ status, kind, id string }{
			{"ok", "page", setup}, {"ok", "page", overview}, {"ok", "url", ""}, {"in-app", "url", ""},
			{"broken", "url", ""}, {"ok", "page", install}, {"ok", "file", file},
		}
		for i, w := range want {
			got := links.Items[i]
			id := got.TargetReference.Page.ID + got.TargetReference.File.ID
			if got.Status != w.status || got.TargetReference.Kind != w.kind || id != w.id {
				t.Errorf("link %d = %s %s %s, want %s %s %s", i, got.Status, got.TargetReference.Kind, id, w.status, w.kind, w.id)
			}
			if len(got.LocationReferences) != 1 || got.LocationReferences[0].Page.ID != install {
				t.Errorf("link %d location = %+v, want the install page", i, got.LocationReferences)
			}
		}
		var broken linkPage
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/page/"+install+"/links?status=broken", nil).want(http.StatusOK).decode(&broken)
		if len(broken.Items) != 1 || broken.Stats.Total != 7 {
			t.Errorf("status=broken gave %d items (stats %+v), want 1 of 7", len(broken.Items), broken.Stats)
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/page/"+install+"/links?status=weird", nil).wantError(http.StatusBadRequest)

		var back struct {
			Items []struct {
				Kind string
				Page struct{ ID string }
			}
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/page/"+setup+"/backlinks", nil).want(http.StatusOK).decode(&back)
		if len(back.Items) != 1 || back.Items[0].Kind != "page" || back.Items[0].Page.ID != install {
			t.Errorf("backlinks of setup = %+v, want the install page", back.Items)
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/files/"+file+"/backlinks", nil).want(http.StatusOK).decode(&back)
		if len(back.Items) != 1 || back.Items[0].Page.ID != install {
			t.Errorf("backlinks of the file = %+v, want the install page", back.Items)
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/page/nope/backlinks", nil).wantError(http.StatusNotFound)

		// In a change request: removing setup breaks the link there, not in the space.
		cr := e.openChangeRequest(admin.Token, space, "Remove setup")
		e.gql(admin.Token, `mutation($t: ContentTarget!, $p: ID!) { deletePage(target: $t, pageId: $p) { revision { id } } }`,
			map[string]any{"t": target(space, cr), "p": setup}).ok(nil)
		var inCR linkPage
		e.call(admin.Token, "GET", "/spaces/"+space+"/change-requests/"+cr+"/content/page/"+install+"/links", nil).want(http.StatusOK).decode(&inCR)
		if inCR.Stats.Broken.Total != 2 || inCR.Stats.Broken.ChangeRequest == nil || *inCR.Stats.Broken.ChangeRequest != 1 {
			t.Errorf("change request stats = %+v, want 2 broken, 1 introduced", inCR.Stats)
		}
		e.call(admin.Token, "GET", "/spaces/"+space+"/content/page/"+install+"/links", nil).want(http.StatusOK).decode(&links)
		if links.Stats.Broken.Total != 1 {
			t.Errorf("space stats after the change request's delete = %+v, want 1 broken", links.Stats)
		}

		// GraphQL: the same links and backlinks.
		var data struct {
			Space struct {
				Content struct {
					Page struct {
						Links []struct {
							Status     string
							Target     string
							TargetPage *struct{ ID string }
						}
						Backlinks []struct{ ID string }
					}
				}
			}
		}
		e.gql(admin.Token, `query($s: ID!, $p: ID!) { space(id: $s) { content { page(id: $p) { links { status target targetPage { id } } backlinks { id } } } } }`,
			map[string]any{"s": space, "p": install}).ok(&data)
		got := data.Space.Content.Page
		if len(got.Links) != 7 || got.Links[0].TargetPage == nil || got.Links[0].TargetPage.ID != setup || got.Links[4].Status != "BROKEN" || got.Links[4].Target != "nope.md" {
			t.Errorf("GraphQL links = %+v", got.Links)
		}
		if len(got.Backlinks) != 0 {
			t.Errorf("GraphQL backlinks of install = %+v, want none", got.Backlinks)
		}
	})
}

// GraphQL reads every page's links and backlinks of a tree in a fixed number of statements: the
// revision's pages, files and references are read once per request, not once per page.
func TestLinksGraphStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("LinkCounts", "admin@linkcounts.test")
		count := func(pages int) int64 {
			space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
			to := target(space, "")
			logo := e.uploadFile(admin.Token, to, "logo.png", []byte("logo"))
			e.createPage(admin.Token, to, map[string]any{"title": "Home", "markdown": "# Home"})
			for i := range pages {
				e.createPage(admin.Token, to, map[string]any{"title": fmt.Sprintf("Page %d", i),
					"markdown": "[home](home.md) [gone](gone.md) ![logo](logo.png)"})
			}
			var n atomic.Int64
			var data struct {
				Space struct {
					Content struct {
						Pages []struct {
							Links     []struct{ Status string }
							Backlinks []struct{ ID string }
						}
						FileBacklinks []struct{ ID string }
					}
				}
			}
			e.gqlCounted(admin.Token, `query($s: ID!, $f: ID!) { space(id: $s) { content {
				pages { document links { status targetPage { id } } backlinks { id } }
				fileBacklinks(id: $f) { id } } } }`, map[string]any{"s": space, "f": logo}, &n).ok(&data)
			if got := len(data.Space.Content.Pages); got != pages+1 {
				t.Fatalf("%d pages listed, want %d", got, pages+1)
			}
			if home := data.Space.Content.Pages[0]; len(home.Backlinks) != pages {
				t.Errorf("home has %d backlinks, want %d", len(home.Backlinks), pages)
			}
			if links := data.Space.Content.Pages[1].Links; len(links) != 3 || links[1].Status != "BROKEN" {
				t.Errorf("links of a page = %+v", links)
			}
			if got := len(data.Space.Content.FileBacklinks); got != pages {
				t.Errorf("the file has %d backlinks, want %d", got, pages)
			}
			return n.Load()
		}
		if small, large := count(3), count(12); small != large {
			t.Errorf("statements grew from %d (3 pages) to %d (12 pages)", small, large)
		}
	})
}
