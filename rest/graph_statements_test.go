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
	eachDBCounting(t, func(t *testing.T, e *env) {
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

// The nested read of issue 11 (organization → sites → sections → site spaces → space) costs five
// statements whatever the number of sites, counted from the token on, as tests run (no token
// cache): the token with its user, the membership, the page of sites, the sites' trees (site
// spaces with their spaces, sections and groups, in one statement) and the viewer's access (the
// collection tree, their teams and grants, in one statement). Counters and totals that the query
// does not select cost nothing; selected, the spaces' counters are one statement more.
func TestNestedSiteReadInFiveStatements(t *testing.T) {
	const query = `query($o: ID!) { organization(id: $o) { sites(first: 20) { nodes { sections(first: 10) { nodes { siteSpaces { space { id title emoji visibility createdAt %s } } } } } } } }`
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		spaces := make([]string, 6)
		for i := range spaces {
			spaces[i] = e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d","emoji":"1f600"}`, i)).want(http.StatusCreated).object()["id"].(string)
		}
		addSites := func(from, to int) {
			for i := from; i < to; i++ {
				site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", fmt.Sprintf(`{"title":"Site %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				for j := range 3 {
					sec := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites/"+site+"/sections", fmt.Sprintf(`{"spaceId":%q,"title":"Section %d"}`, spaces[2*j], j)).want(http.StatusCreated).object()["id"].(string)
					e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites/"+site+"/site-spaces", fmt.Sprintf(`{"spaceId":%q,"sectionId":%q}`, spaces[2*j+1], sec)).want(http.StatusCreated)
				}
			}
		}
		type spaceShape struct {
			ID, Title, Emoji, Visibility, CreatedAt string
			ChangeRequests                          *int
		}
		count := func(token, extra string, wantSites int) (int64, []spaceShape) {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Organization struct {
					Sites struct {
						Nodes []struct {
							Sections struct {
								Nodes []struct {
									SiteSpaces []struct{ Space spaceShape }
								}
							}
						}
					}
				}
			}
			e.gqlCounted(token, fmt.Sprintf(query, extra), map[string]any{"o": orgID}, &n).ok(&data)
			if got := len(data.Organization.Sites.Nodes); got != wantSites {
				t.Fatalf("read %d sites, want %d", got, wantSites)
			}
			var all []spaceShape
			for _, site := range data.Organization.Sites.Nodes {
				if len(site.Sections.Nodes) != 3 {
					t.Fatalf("a site shows %d sections, want 3", len(site.Sections.Nodes))
				}
				for j, sec := range site.Sections.Nodes {
					if len(sec.SiteSpaces) != 2 {
						t.Fatalf("section %d shows %d site spaces, want 2", j, len(sec.SiteSpaces))
					}
					for k, ss := range sec.SiteSpaces {
						s := ss.Space
						if s.ID != spaces[2*j+k] || s.Title != fmt.Sprintf("Space %d", 2*j+k) || s.Emoji != "1f600" || s.Visibility != "PRIVATE" || s.CreatedAt == "" {
							t.Fatalf("section %d, site space %d shows %+v, want space %s", j, k, s, spaces[2*j+k])
						}
						all = append(all, s)
					}
				}
			}
			return n.Load(), all
		}
		addSites(0, 2)
		fewAdmin, _ := count(admin.Token, "", 2)
		fewReader, _ := count(reader.Token, "", 2)
		addSites(2, 20)
		manyAdmin, _ := count(admin.Token, "", 20)
		manyReader, _ := count(reader.Token, "", 20)
		if fewAdmin != manyAdmin || fewReader != manyReader {
			t.Errorf("statements grew with sites: admin %d → %d, reader %d → %d (2 → 20 sites)", fewAdmin, manyAdmin, fewReader, manyReader)
		}
		t.Logf("nested read: %d statements as an admin, %d as a reader", manyAdmin, manyReader)
		if manyAdmin > 5 || manyReader > 5 {
			t.Errorf("the nested read took %d statements as an admin and %d as a reader, want at most 5", manyAdmin, manyReader)
		}
		// Asked for, the counters are read (one statement for all spaces) and right.
		e.openChangeRequest(admin.Token, spaces[0], "Counted")
		withCounters, shown := count(reader.Token, "changeRequests", 20)
		if withCounters != manyReader+1 {
			t.Errorf("with counters: %d statements, want %d", withCounters, manyReader+1)
		}
		for _, s := range shown {
			if want := map[bool]int{true: 1, false: 0}[s.ID == spaces[0]]; s.ChangeRequests == nil || *s.ChangeRequests != want {
				t.Fatalf("space %s shows changeRequests %v, want %d", s.ID, s.ChangeRequests, want)
			}
		}
	})
}
