package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// A list of members reading each member's teams and accessible spaces costs the same statements
// whatever the number of members: each level leaves as one batch.
func TestMemberListFieldsStatementsDoNotGrow(t *testing.T) {
	const query = `query($o: ID!) { organization(id: $o) { members(first: 100) { nodes { id
		teamMemberships(first: 10) { totalCount nodes { team { id title } member { role } } }
		accessibleSpaces(first: 100) { totalCount nodes { permission space { id title } } }
	} } } }`
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		guests := map[string]int{} // guest id → its number
		add := func(from, to int) {
			for i := from; i < to; i++ {
				g := e.member(o.id, fmt.Sprintf("guest%02d@acme.test", i), "guest")
				guests[g.ID] = i
				team := o.create(o.admin.Token, fmt.Sprintf("Team %02d", i), g.ID)
				o.grant(o.space(fmt.Sprintf("Space %02d", i)), "edit", team.ID)
			}
		}
		count := func(want int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Organization struct {
					Members struct {
						Nodes []struct {
							ID              string
							TeamMemberships struct {
								TotalCount int
								Nodes      []struct {
									Team   struct{ ID, Title string }
									Member struct{ Role string }
								}
							}
							AccessibleSpaces struct {
								TotalCount int
								Nodes      []struct {
									Permission string
									Space      struct{ ID, Title string }
								}
							}
						}
					}
				}
			}
			e.gqlCounted(o.admin.Token, query, map[string]any{"o": o.id}, &n).ok(&data)
			seen := 0
			for _, m := range data.Organization.Members.Nodes {
				ts, ss := m.TeamMemberships, m.AccessibleSpaces
				if m.ID == o.admin.ID {
					// The admin owns every team and administers every space.
					if ts.TotalCount != want || len(ts.Nodes) != min(want, 10) || ts.Nodes[0].Member.Role != "OWNER" {
						t.Fatalf("the admin's teams: %+v, want %d owned", ts, want)
					}
					if ss.TotalCount != want || len(ss.Nodes) != want || ss.Nodes[0].Permission != "ADMIN" {
						t.Fatalf("the admin's spaces: %+v, want %d administered", ss, want)
					}
					continue
				}
				i, ok := guests[m.ID]
				if !ok {
					t.Fatalf("unknown member %s", m.ID)
				}
				seen++
				if ts.TotalCount != 1 || len(ts.Nodes) != 1 || ts.Nodes[0].Team.Title != fmt.Sprintf("Team %02d", i) || ts.Nodes[0].Member.Role != "MEMBER" {
					t.Fatalf("guest %d's teams: %+v, want Team %02d as a member", i, ts, i)
				}
				if ss.TotalCount != 1 || len(ss.Nodes) != 1 || ss.Nodes[0].Space.Title != fmt.Sprintf("Space %02d", i) || ss.Nodes[0].Permission != "EDIT" {
					t.Fatalf("guest %d's spaces: %+v, want Space %02d to edit", i, ss, i)
				}
			}
			if seen != want {
				t.Fatalf("listed %d guests, want %d", seen, want)
			}
			return n.Load()
		}
		add(0, 2)
		few := count(2)
		add(2, 12)
		many := count(12)
		if many != few {
			t.Errorf("statements grew with members: %d (2 guests) → %d (12)", few, many)
		}
		t.Logf("members with teams and spaces: %d statements", many)
		// REST reads of one member's teams and spaces are unchanged.
		for id, i := range guests {
			var spaces struct {
				Items []struct{ Permission string }
			}
			e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+id+"/spaces", nil).want(http.StatusOK).decode(&spaces)
			if len(spaces.Items) != 1 || spaces.Items[0].Permission != "edit" {
				t.Errorf("REST spaces of guest %d = %+v, want one to edit", i, spaces.Items)
			}
			break
		}
	})
}

// A list of comments reading each comment's replies costs the same statements whatever the
// number of comments.
func TestReplyListStatementsDoNotGrow(t *testing.T) {
	const query = `query($s: ID!) { space(id: $s) { commentList(first: 100) { nodes { id replies
		replyList(first: 10) { totalCount pageInfo { hasNextPage } nodes { id postedBy { id } body { markdown } reactions { emoji } permissions { edit reply } } }
	} } } }`
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := e.discussionOrg()
		base := "/spaces/" + o.space + "/comments"
		post := func(from, to int) {
			for i := from; i < to; i++ {
				id := e.call(o.admin.Token, "POST", base, fmt.Sprintf(`{"body":{"markdown":"Comment %d"}}`, i)).want(http.StatusOK).object()["id"].(string)
				for j := range 2 {
					e.call(o.commenter.Token, "POST", base+"/"+id+"/replies", fmt.Sprintf(`{"body":{"markdown":"Reply %d"}}`, j)).want(http.StatusOK)
				}
			}
		}
		count := func(want int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Space struct {
					CommentList struct {
						Nodes []struct {
							ID        string
							Replies   int
							ReplyList struct {
								TotalCount int
								PageInfo   struct{ HasNextPage bool }
								Nodes      []struct {
									ID          string
									PostedBy    struct{ ID string }
									Body        struct{ Markdown string }
									Permissions struct{ Edit, Reply bool }
								}
							}
						}
					}
				}
			}
			e.gqlCounted(o.commenter.Token, query, map[string]any{"s": o.space}, &n).ok(&data)
			if got := len(data.Space.CommentList.Nodes); got != want {
				t.Fatalf("listed %d comments, want %d", got, want)
			}
			for _, c := range data.Space.CommentList.Nodes {
				rl := c.ReplyList
				if c.Replies != 2 || rl.TotalCount != 2 || rl.PageInfo.HasNextPage || len(rl.Nodes) != 2 {
					t.Fatalf("comment %s: replies %d, list %+v; want 2", c.ID, c.Replies, rl)
				}
				for j, r := range rl.Nodes {
					if r.Body.Markdown != fmt.Sprintf("Reply %d\n", j) && r.Body.Markdown != fmt.Sprintf("Reply %d", j) || r.PostedBy.ID != o.commenter.ID || !r.Permissions.Edit || !r.Permissions.Reply {
						t.Fatalf("comment %s, reply %d: %+v", c.ID, j, r)
					}
				}
			}
			return n.Load()
		}
		post(0, 2)
		few := count(2)
		post(2, 12)
		many := count(12)
		if many != few {
			t.Errorf("statements grew with comments: %d (2 comments) → %d (12)", few, many)
		}
		t.Logf("comments with replies: %d statements", many)
	})
}

// The content of every space of a list (its revision, page tree and markdown) and of every
// change request of a list costs the same statements whatever the number of spaces or change
// requests.
func TestContentUnderListsStatementsDoNotGrow(t *testing.T) {
	type pageShape struct{ ID, Title, Markdown string }
	type contentShape struct {
		ID    string
		Pages []pageShape
	}
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		titles := map[string]string{} // space id → its number, in its pages' titles
		addSpaces := func(from, to int) {
			for i := from; i < to; i++ {
				id := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Space %d"}`, i)).want(http.StatusCreated).object()["id"].(string)
				titles[id] = fmt.Sprint(i)
				for j := range 2 {
					e.createPage(admin.Token, target(id, ""), map[string]any{"title": fmt.Sprintf("Page %d.%d", i, j), "markdown": fmt.Sprintf("Body %d.%d", i, j)})
				}
			}
		}
		spacesRead := func(want int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Organization struct {
					Spaces struct {
						Nodes []struct {
							ID      string
							Content contentShape
						}
					}
				}
			}
			e.gqlCounted(reader.Token, `query($o: ID!) { organization(id: $o) { spaces(first: 10) { nodes { id content { id pages { id title markdown } } } } } }`,
				map[string]any{"o": orgID}, &n).ok(&data)
			if got := len(data.Organization.Spaces.Nodes); got != want {
				t.Fatalf("listed %d spaces, want %d", got, want)
			}
			for _, s := range data.Organization.Spaces.Nodes {
				i := titles[s.ID]
				if s.Content.ID == "" || len(s.Content.Pages) != 2 {
					t.Fatalf("space %s shows content %+v, want a revision with 2 pages", i, s.Content)
				}
				for j, p := range s.Content.Pages {
					if p.Title != fmt.Sprintf("Page %s.%d", i, j) || !strings.Contains(p.Markdown, fmt.Sprintf("Body %s.%d", i, j)) {
						t.Fatalf("space %s, page %d: %+v", i, j, p)
					}
				}
			}
			return n.Load()
		}
		addSpaces(0, 2)
		few := spacesRead(2)
		addSpaces(2, 8)
		many := spacesRead(8)
		if many != few {
			t.Errorf("space contents: statements grew with spaces: %d (2) → %d (8)", few, many)
		}
		t.Logf("spaces with content: %d statements", many)

		// Change requests of one space, each editing its first page.
		var space string
		for id, i := range titles {
			if i == "0" {
				space = id
			}
		}
		var first struct {
			Space struct {
				Content struct{ Pages []struct{ ID string } }
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { content { pages { id } } } }`, map[string]any{"s": space}).ok(&first)
		page := first.Space.Content.Pages[0].ID
		edits := map[string]string{} // change request id → its edit
		open := func(from, to int) {
			for i := from; i < to; i++ {
				cr := e.openChangeRequest(admin.Token, space, fmt.Sprintf("Change %d", i))
				edits[cr] = fmt.Sprintf("Edited in %d", i)
				e.updatePage(admin.Token, target(space, cr), page, map[string]any{"markdown": edits[cr]}).ok(nil)
			}
		}
		changesRead := func(want int) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Space struct {
					ChangeRequestList struct {
						Nodes []struct {
							ID      string
							Content contentShape
						}
					}
				}
			}
			e.gqlCounted(reader.Token, `query($s: ID!) { space(id: $s) { changeRequestList(first: 10) { nodes { id content { id pages { id title markdown } } } } } }`,
				map[string]any{"s": space}, &n).ok(&data)
			if got := len(data.Space.ChangeRequestList.Nodes); got != want {
				t.Fatalf("listed %d change requests, want %d", got, want)
			}
			for _, cr := range data.Space.ChangeRequestList.Nodes {
				pages := cr.Content.Pages
				if len(pages) != 2 || !strings.Contains(pages[0].Markdown, edits[cr.ID]) || !strings.Contains(pages[1].Markdown, "Body 0.1") {
					t.Fatalf("change request %s shows %+v, want its edit %q", cr.ID, cr.Content, edits[cr.ID])
				}
			}
			return n.Load()
		}
		open(0, 2)
		few = changesRead(2)
		open(2, 8)
		many = changesRead(8)
		if many != few {
			t.Errorf("change request contents: statements grew with change requests: %d (2) → %d (8)", few, many)
		}
		t.Logf("change requests with content: %d statements", many)
	})
}
