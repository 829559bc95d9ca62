package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// orgMember is an item of an organization's member list, named by its user's display name.
type orgMember struct {
	ID   string
	Role *string
	User struct{ DisplayName, Email string }
}

func (m orgMember) label() string { return m.User.DisplayName }

type memberList = listPage[orgMember]

func TestListMembersFiltersSortsAndPages(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		alice := e.member(orgID, "alice@acme.test", "read")
		e.member(orgID, "bob@acme.test", "edit")
		e.member(orgID, "carol@elsewhere.test", "guest")
		e.member(orgID, "dave@acme.test", "read")

		list := func(query string) memberList {
			t.Helper()
			return getList[orgMember](e, admin.Token, "/orgs/"+orgID+"/members"+query)
		}
		if got := list("").labels(); got != "dave,carol,bob,alice,Admin Acme" {
			t.Errorf("default order (joinedAt desc) = %s", got)
		}
		if got := list("?order=asc").labels(); got != "Admin Acme,alice,bob,carol,dave" {
			t.Errorf("order=asc = %s", got)
		}
		if l := list("?role=read"); l.labels() != "dave,alice" || l.Count != 2 {
			t.Errorf("role=read = %s (%d)", l.labels(), l.Count)
		}
		if l := list("?role=guest"); l.labels() != "carol" || l.Items[0].Role != nil {
			t.Errorf("role=guest = %s, role %v", l.labels(), l.Items[0].Role)
		}
		if got := list("?search=ELSEWHERE").labels(); got != "carol" {
			t.Errorf("search by e-mail = %s", got)
		}
		if got := list("?search=ali").labels(); got != "alice" {
			t.Errorf("search by name = %s", got)
		}
		if got := list("?search=%25").labels(); got != "" {
			t.Errorf("search for a literal %% = %s, want nothing", got)
		}
		// Only members seen at least once are listed by lastSeenAt, most recent first by default.
		e.call(alice.Token, "POST", "/orgs/"+orgID+"/ping", nil).want(http.StatusOK)
		e.call(admin.Token, "POST", "/orgs/"+orgID+"/ping", nil).want(http.StatusOK)
		if got := list("?sort=lastSeenAt").labels(); got != "Admin Acme,alice" {
			t.Errorf("sort=lastSeenAt = %s", got)
		}
		// Pages chain through next.page and cover everything exactly once.
		if got := pageLabels(t, "?limit=2&order=asc", list); got != "Admin Acme,alice|bob,carol|dave" {
			t.Errorf("pages = %v", got)
		}
		for _, bad := range []string{"?order=up", "?role=owner", "?sort=name", "?limit=2000"} {
			e.call(admin.Token, "GET", "/orgs/"+orgID+"/members"+bad, nil).wantError(http.StatusBadRequest)
		}
		// A cursor of one order is refused by another.
		first := list("?limit=1")
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/members?order=asc&page="+first.Next.Page, nil).wantError(http.StatusBadRequest)

		var data struct {
			Organization struct {
				Members struct {
					TotalCount int
					Nodes      []struct {
						Role *string
						User struct{ DisplayName string }
					}
				}
			}
		}
		e.gql(admin.Token, `query($id: ID!) { organization(id: $id) { members(order: ASC, role: READ, search: "a") { totalCount nodes { role user { displayName } } } } }`,
			map[string]any{"id": orgID}).ok(&data)
		if m := data.Organization.Members; m.TotalCount != 2 || m.Nodes[0].User.DisplayName != "alice" || *m.Nodes[0].Role != "READ" {
			t.Errorf("GraphQL members = %+v", m)
		}
		golden(t, "members_page", e.call(admin.Token, "GET", "/orgs/"+orgID+"/members?limit=2&role=read", nil).want(http.StatusOK).Body)
	})
}

func TestMemberReadsFollowRoles(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		guest := e.member(orgID, "guest@acme.test", "guest")
		outsider := e.member("", "out@acme.test", "")

		e.call(reader.Token, "GET", "/orgs/"+orgID+"/members", nil).want(http.StatusOK)
		e.call(guest.Token, "GET", "/orgs/"+orgID+"/members", nil).wantError(http.StatusForbidden)
		e.call(outsider.Token, "GET", "/orgs/"+orgID+"/members", nil).wantError(http.StatusNotFound)
		// Guests may read their own membership, not others'.
		e.call(guest.Token, "GET", "/orgs/"+orgID+"/members/"+guest.ID, nil).want(http.StatusOK)
		e.call(guest.Token, "GET", "/orgs/"+orgID+"/members/"+admin.ID, nil).wantError(http.StatusForbidden)
		e.call(reader.Token, "GET", "/orgs/"+orgID+"/members/"+outsider.ID, nil).wantError(http.StatusNotFound)
		golden(t, "member", e.call(reader.Token, "GET", "/orgs/"+orgID+"/members/"+admin.ID, nil).want(http.StatusOK).Body)

		e.wantRefusals(`query($id: ID!) { organization(id: $id) { members { totalCount } } }`, gqlRefusal{"guest members", guest, map[string]any{"id": orgID}, "FORBIDDEN"})
		var data struct {
			Organization struct{ Member struct{ ID string } }
		}
		e.gql(guest.Token, `query($id: ID!, $u: ID!) { organization(id: $id) { member(userId: $u) { id } } }`, map[string]any{"id": orgID, "u": guest.ID}).ok(&data)
		if data.Organization.Member.ID != guest.ID {
			t.Errorf("GraphQL own membership = %+v", data)
		}
	})
}

func TestUpdateAndRemoveMembers(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		editor := e.member(orgID, "editor@acme.test", "edit")
		base := "/orgs/" + orgID + "/members/"

		role := func(id string) any {
			return e.call(admin.Token, "GET", base+id, nil).want(http.StatusOK).object()["role"]
		}
		if got := e.call(admin.Token, "PATCH", base+reader.ID, `{"role":"review"}`).want(http.StatusOK).object()["role"]; got != "review" {
			t.Errorf("role after PATCH = %v", got)
		}
		e.call(admin.Token, "PATCH", base+reader.ID, `{}`).want(http.StatusOK) // no change
		if role(reader.ID) != "review" {
			t.Errorf("empty PATCH changed the role")
		}
		if got := e.call(admin.Token, "PATCH", base+reader.ID, `{"role":null}`).want(http.StatusOK).object(); got["role"] != nil {
			t.Errorf("role after null = %v, want guest (null)", got["role"])
		}
		e.wantBadBodies(admin.Token, "PATCH", base+reader.ID,
			badBody{"unknown role", `{"role":"owner"}`, "role"}, badBody{"role not a string", `{"role":7}`, "role"}, badBody{"not JSON", `nope`, "body"})
		e.call(editor.Token, "PATCH", base+reader.ID, `{"role":"admin"}`).wantError(http.StatusForbidden)
		e.call(admin.Token, "PATCH", base+"nobody", `{"role":"read"}`).wantError(http.StatusNotFound)
		// The last admin can be neither demoted nor removed.
		if msg := e.call(admin.Token, "PATCH", base+admin.ID, `{"role":"read"}`).wantError(http.StatusBadRequest); !strings.Contains(msg, "admin") {
			t.Errorf("last admin message = %q", msg)
		}
		e.call(admin.Token, "DELETE", base+admin.ID, nil).wantError(http.StatusBadRequest)

		// SSO flag.
		if got := e.call(admin.Token, "POST", base+editor.ID+"/sso", nil).want(http.StatusOK).object()["sso"]; got != true {
			t.Errorf("sso = %v", got)
		}
		e.call(editor.Token, "POST", base+reader.ID+"/sso", nil).wantError(http.StatusForbidden)
		e.call(admin.Token, "POST", base+"nobody/sso", nil).wantError(http.StatusNotFound)
		// Where members start a single sign-on: the server's provider, for any member.
		logins := e.call(reader.Token, "GET", "/orgs/"+orgID+"/sso", nil).want(http.StatusOK).object()["items"].([]any)
		if len(logins) != 1 || logins[0].(map[string]any)["label"] != "Test SSO" ||
			logins[0].(map[string]any)["startURL"] != "https://bindery.test/auth/oidc/start" {
			t.Errorf("SSO logins = %v", logins)
		}
		e.call(e.member("", "stranger@else.test", "").Token, "GET", "/orgs/"+orgID+"/sso", nil).wantError(http.StatusNotFound)

		// Removal: others need admin; anyone may leave; repeating answers 204.
		e.call(editor.Token, "DELETE", base+reader.ID, nil).wantError(http.StatusForbidden)
		e.call(admin.Token, "DELETE", base+reader.ID, nil).want(http.StatusNoContent)
		e.call(admin.Token, "DELETE", base+reader.ID, nil).want(http.StatusNoContent)
		e.call(admin.Token, "GET", base+reader.ID, nil).wantError(http.StatusNotFound)
		e.call(editor.Token, "DELETE", base+editor.ID, nil).want(http.StatusNoContent)
		e.call(editor.Token, "GET", "/orgs/"+orgID, nil).wantError(http.StatusNotFound)

		// GraphQL twins.
		third := e.member(orgID, "third@acme.test", "read")
		var data struct{ UpdateMember struct{ Role *string } }
		e.gql(admin.Token, `mutation($o: ID!, $u: ID!) { updateMember(organizationId: $o, userId: $u, input: {role: ADMIN}) { role } }`, map[string]any{"o": orgID, "u": third.ID}).ok(&data)
		if data.UpdateMember.Role == nil || *data.UpdateMember.Role != "ADMIN" {
			t.Errorf("GraphQL updateMember = %+v", data)
		}
		e.gql(admin.Token, `mutation($o: ID!, $u: ID!) { updateMember(organizationId: $o, userId: $u, input: {role: null}) { role } }`, map[string]any{"o": orgID, "u": third.ID}).ok(&data)
		if data.UpdateMember.Role != nil {
			t.Errorf("GraphQL role null = %v", *data.UpdateMember.Role)
		}
		var removed struct{ RemoveMember bool }
		e.gql(admin.Token, `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`, map[string]any{"o": orgID, "u": third.ID}).ok(&removed)
		if !removed.RemoveMember {
			t.Error("GraphQL removeMember = false, want true")
		}
		e.gql(admin.Token, `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`, map[string]any{"o": orgID, "u": third.ID}).ok(&removed)
		if removed.RemoveMember {
			t.Error("GraphQL removeMember again = true, want false")
		}
	})
}

func TestPing(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		if before := e.call(admin.Token, "GET", "/orgs/"+orgID+"/members/"+admin.ID, nil).object(); before["lastSeenAt"] != nil {
			t.Errorf("lastSeenAt before any ping = %v", before["lastSeenAt"])
		}
		if body := e.call(admin.Token, "POST", "/orgs/"+orgID+"/ping", nil).want(http.StatusOK).object(); len(body) != 0 {
			t.Errorf("ping answer = %v, want {}", body)
		}
		if after := e.call(admin.Token, "GET", "/orgs/"+orgID+"/members/"+admin.ID, nil).object(); after["lastSeenAt"] == nil {
			t.Error("lastSeenAt not set by ping")
		}
		e.call(e.member("", "x@x.test", "").Token, "POST", "/orgs/"+orgID+"/ping", nil).wantError(http.StatusNotFound)
		e.gql(admin.Token, `mutation($o: ID!) { pingOrganization(organizationId: $o) { gitbookVisitorClaims } }`, map[string]any{"o": orgID}).ok(nil)
	})
}

// Listing members costs the same statements whatever their number.
func TestMemberListStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		count := func() (int64, int64) {
			var rest, gql atomic.Int64
			e.callCounted(admin.Token, "GET", "/orgs/"+orgID+"/members?limit=1000", nil, &rest).want(http.StatusOK)
			e.gqlCounted(admin.Token, `{ organizations(first: 10) { nodes { members(first: 1000) { nodes { id role user { id displayName email } } } } } }`, nil, &gql).ok(nil)
			return rest.Load(), gql.Load()
		}
		restFew, gqlFew := count()
		for i := range 60 {
			e.member(orgID, fmt.Sprintf("m%d@acme.test", i), "read")
		}
		restMany, gqlMany := count()
		if restMany != restFew || gqlMany != gqlFew {
			t.Errorf("statements grew with members: REST %d → %d, GraphQL %d → %d", restFew, restMany, gqlFew, gqlMany)
		}
		// auth, membership, page, count; then the counts: collections, the viewer's teams, the
		// members' teams and grants, the organization's spaces.
		if restMany > 9 {
			t.Errorf("REST member list ran %d statements, want at most 9", restMany)
		}
	})
}
