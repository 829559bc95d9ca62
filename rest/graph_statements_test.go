package rest_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
)

// The nested reads the first-party UI makes (organization → collections → spaces, organization →
// teams → members) cost the same statements whatever the number of collections, teams and
// members.
func TestNestedGraphReadsDoNotGrow(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		const q = `query($o: ID!) { organization(id: $o) {
			collections(first: 100) { nodes { id spaces { totalCount nodes { id permissions { view } } } } }
			teams(first: 100) { nodes { id members memberList { totalCount nodes { organization { id spaces teams user { displayName } } team { role } } } } }
		} }`
		grow := func(from, to int) {
			for i := from; i < to; i++ {
				col := e.call(admin.Token, "POST", "/orgs/"+orgID+"/collections", fmt.Sprintf(`{"title":"Col %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d","parent":"%s"}`, i, col)).want(http.StatusCreated)
				m := e.member(orgID, fmt.Sprintf("m%d@acme.test", i), "read")
				e.call(admin.Token, "PUT", "/orgs/"+orgID+"/teams", fmt.Sprintf(`{"title":"Team %d","members":["%s"]}`, i, m.ID)).want(http.StatusCreated)
			}
		}
		count := func(want int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Organization struct {
					Collections struct {
						Nodes []struct{ Spaces struct{ TotalCount int } }
					}
					Teams struct {
						Nodes []struct{ MemberList struct{ TotalCount int } }
					}
				}
			}
			e.gqlCounted(reader.Token, q, map[string]any{"o": orgID}, &n).ok(&data)
			o := data.Organization
			if len(o.Collections.Nodes) != want || len(o.Teams.Nodes) != want {
				t.Fatalf("read %d collections and %d teams, want %d", len(o.Collections.Nodes), len(o.Teams.Nodes), want)
			}
			for i := range want {
				if o.Collections.Nodes[i].Spaces.TotalCount != 1 || o.Teams.Nodes[i].MemberList.TotalCount != 2 {
					t.Fatalf("collection %d has %d spaces, team %d has %d members; want 1 and 2", i, o.Collections.Nodes[i].Spaces.TotalCount, i, o.Teams.Nodes[i].MemberList.TotalCount)
				}
			}
			return n.Load()
		}
		grow(0, 2)
		few := count(2)
		grow(2, 25)
		if many := count(25); many != few {
			t.Errorf("statements grew: %d (2 collections and teams) → %d (25)", few, many)
		}
	})
}
