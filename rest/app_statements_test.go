package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
)

// TestAppScreensInFixedStatements asks each of the app's screens for its data, as the app does
// (one persisted document, the session cookie), in a small organization and again once it holds
// several times more of everything: the number of SQL statements must not change. The counts
// are logged (docs/app.md quotes them) and bounded, so that a regression shows.
func TestAppScreensInFixedStatements(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		cookie := e.withSessions()(admin)
		var spaces, crs []string
		var site, collection string
		grow := func(from, to int) {
			for i := from; i < to; i++ {
				col := e.call(admin.Token, "POST", "/orgs/"+orgID+"/collections", fmt.Sprintf(`{"title":"Collection %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				if collection == "" {
					collection = col
				}
				sp := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				spaces = append(spaces, sp)
			}
			// The first space grows: pages (nested, groups, links) and change requests editing them.
			to0 := target(spaces[0], "")
			for i := from; i < to; i++ {
				parent := e.createPage(admin.Token, to0, map[string]any{"title": fmt.Sprintf("Page %d", i), "markdown": fmt.Sprintf("Text %d with a [link](https://example.com).\n\n- a\n- b\n", i)})
				child := e.createPage(admin.Token, to0, map[string]any{"title": fmt.Sprintf("Child %d", i), "parent": parent, "markdown": "Child."})
				e.createPage(admin.Token, to0, map[string]any{"title": fmt.Sprintf("Grandchild %d", i), "parent": child, "markdown": "Deeper."})
				cr := e.openChangeRequest(admin.Token, spaces[0], fmt.Sprintf("Change %d", i))
				e.updatePage(admin.Token, target(spaces[0], cr), parent, map[string]any{"markdown": "Changed."}).ok(nil)
				crs = append(crs, cr)
			}
			for i := from; i < to; i++ {
				s := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", fmt.Sprintf(`{"title":"Site %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				if site == "" {
					site = s
				}
			}
		}
		type screen struct {
			name string
			vars func() map[string]any
			want func(data json.RawMessage) bool
			max  int64
		}
		has := func(path ...string) func(json.RawMessage) bool {
			return func(data json.RawMessage) bool {
				var v any
				_ = json.Unmarshal(data, &v)
				for _, p := range path {
					m, ok := v.(map[string]any)
					if !ok || m[p] == nil {
						return false
					}
					v = m[p]
				}
				return true
			}
		}
		screens := []screen{
			{"Home", func() map[string]any { return nil }, has("organizations"), 6},
			{"OrganizationHome", func() map[string]any { return map[string]any{"orgId": orgID} }, has("organization", "spaces"), 12},
			{"CollectionHome", func() map[string]any { return map[string]any{"collectionId": collection} }, has("collection", "spaces"), 8},
			{"SiteHome", func() map[string]any { return map[string]any{"orgId": orgID, "siteId": site} }, has("organization", "site"), 8},
			{"SpaceScreen", func() map[string]any {
				return map[string]any{"spaceId": spaces[0], "path": "page-0", "withPage": true}
			}, has("space", "content", "pageByPath", "document"), 14},
			{"ChangeRequestList", func() map[string]any { return map[string]any{"spaceId": spaces[0], "status": "OPEN"} }, has("space", "changeRequestList"), 10},
			{"ChangeRequestScreen", func() map[string]any {
				return map[string]any{"spaceId": spaces[0], "number": "1", "path": "page-0", "withPage": true}
			}, has("space", "changeRequest", "content", "pageByPath", "document"), 18},
			{"EditPage", func() map[string]any { return map[string]any{"spaceId": spaces[0], "number": "1", "path": "page-0"} },
				has("space", "changeRequest", "content", "pageByPath", "document"), 18},
		}
		measure := func() map[string]int64 {
			counts := map[string]int64{}
			for _, s := range screens {
				var n atomic.Int64
				g := e.appGQL(cookie, s.name, s.vars(), &n)
				if len(g.Errors) > 0 || !s.want(g.Data) {
					t.Fatalf("%s: %+v %s", s.name, g.Errors, g.Data)
				}
				counts[s.name] = n.Load()
			}
			return counts
		}
		grow(0, 2)
		few := measure()
		grow(2, 8)
		many := measure()
		for _, s := range screens {
			if few[s.name] != many[s.name] {
				t.Errorf("%s: statements grew with the organization: %d → %d", s.name, few[s.name], many[s.name])
			}
			if many[s.name] > s.max {
				t.Errorf("%s: %d statements, want at most %d", s.name, many[s.name], s.max)
			}
			t.Logf("%s: %d statements", s.name, many[s.name])
		}
	})
}
