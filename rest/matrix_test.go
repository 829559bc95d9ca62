package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/bindery/bindery/rest"
)

// Who may call what: every /v1 route, for every kind of caller, through both doors. A route
// missing from the matrix fails TestEveryRouteIsInTheMatrix.

// policy names who may use an endpoint.
type policy int

const (
	anyone     policy = iota // any authenticated user
	member                   // any member of the organization, guests included
	insider                  // members with a role (not guests)
	adminOnly                // organization admins
	linkHolder               // whoever holds the invite link's id
)

var roles = []string{"admin", "create", "edit", "review", "comment", "read", "guest", "non-member", "other-org"}

// expect is the status a caller with role gets from an endpoint whose success status is ok.
func (p policy) expect(role string, ok int) int {
	outsider := role == "non-member" || role == "other-org"
	switch {
	case p == anyone || p == linkHolder:
		return ok
	case outsider:
		return http.StatusNotFound
	case p == member, p == insider && role != "guest", p == adminOnly && role == "admin":
		return ok
	}
	return http.StatusForbidden
}

// fixture is what a matrix case acts on.
type fixture struct {
	org, admin, victim, invite string
}

type matrixCase struct {
	method, path string // the route, as in rest.Routes()
	policy       policy
	ok           int
	url          func(f fixture) string
	body         string
	gql          string // the GraphQL twin; $o, $u and $i are the organization, victim and invite
}

var matrix = []matrixCase{
	{"GET", "/", anyone, 200, fixed("/"), "", `{ apiInformation { version } }`},
	{"GET", "/user", anyone, 200, fixed("/user"), "", `{ viewer { id } }`},
	{"GET", "/users/{userId}", member, 200, func(f fixture) string { return "/users/" + f.admin }, "", `query($a: ID!) { user(id: $a) { id } }`},
	{"GET", "/orgs", anyone, 200, fixed("/orgs"), "", `{ organizations { totalCount } }`},
	{"GET", "/orgs/{organizationId}", member, 200, org(""), "", `query($o: ID!) { organization(id: $o) { id } }`},
	{"PATCH", "/orgs/{organizationId}", adminOnly, 200, org(""), `{"ai":true}`, `mutation($o: ID!) { updateOrganization(id: $o, input: {ai: true}) { id } }`},
	{"POST", "/orgs/{organizationId}/join", member, 204, org("/join"), "", `mutation($o: ID!) { joinOrganization(id: $o) { id } }`},
	{"GET", "/email-domains/{emailDomain}/orgs", anyone, 200, fixed("/email-domains/matrix.test/orgs"), "", `{ organizationsForEmailDomain(emailDomain: "matrix.test") { id } }`},
	{"GET", "/orgs/{organizationId}/agent-instructions", member, 200, org("/agent-instructions"), "", `query($o: ID!) { organization(id: $o) { agentInstructions { updatedBy } } }`},
	{"PUT", "/orgs/{organizationId}/agent-instructions", adminOnly, 200, org("/agent-instructions"), `{"instructions":{"object":"document","data":{},"nodes":[]}}`,
		`mutation($o: ID!) { updateAgentInstructions(organizationId: $o, input: {instructions: {object: "document", data: {}, nodes: []}}) { updatedBy } }`},
	{"GET", "/orgs/{organizationId}/members", insider, 200, org("/members"), "", `query($o: ID!) { organization(id: $o) { members { totalCount } } }`},
	{"GET", "/orgs/{organizationId}/members/{userId}", insider, 200, func(f fixture) string { return "/orgs/" + f.org + "/members/" + f.admin }, "",
		`query($o: ID!, $a: ID!) { organization(id: $o) { member(userId: $a) { id } } }`},
	{"PATCH", "/orgs/{organizationId}/members/{userId}", adminOnly, 200, victim(""), `{"role":"comment"}`,
		`mutation($o: ID!, $u: ID!) { updateMember(organizationId: $o, userId: $u, input: {role: COMMENT}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/members/{userId}", adminOnly, 204, victim(""), "", `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`},
	{"POST", "/orgs/{organizationId}/members/{userId}/sso", adminOnly, 200, victim("/sso"), "", `mutation($o: ID!, $u: ID!) { setMemberSSO(organizationId: $o, userId: $u) { id } }`},
	{"POST", "/orgs/{organizationId}/ping", member, 200, org("/ping"), "", `mutation($o: ID!) { pingOrganization(organizationId: $o) { gitbookVisitorClaims } }`},
	{"POST", "/orgs/{organizationId}/invites", adminOnly, 200, org("/invites"), `{"emails":["invitee@matrix.test"]}`,
		`mutation($o: ID!) { inviteUsersToOrganization(organizationId: $o, input: {emails: [{email: "invitee@matrix.test"}]}) { invited } }`},
	{"POST", "/orgs/{organizationId}/invites/{inviteId}", linkHolder, 200, func(f fixture) string { return "/orgs/" + f.org + "/invites/" + f.invite }, "",
		`mutation($o: ID!, $i: ID!) { joinOrganizationWithInvite(organizationId: $o, inviteId: $i) { id } }`},
	{"GET", "/orgs/{organizationId}/link-invites", adminOnly, 200, org("/link-invites"), "", `query($o: ID!) { organization(id: $o) { inviteLinkList { totalCount } } }`},
	{"POST", "/orgs/{organizationId}/link-invites", adminOnly, 201, org("/link-invites"), `{"role":"read"}`, `mutation($o: ID!) { createInviteLink(organizationId: $o, input: {role: READ}) { id } }`},
	{"DELETE", "/orgs/{organizationId}/link-invites/{inviteId}", adminOnly, 204, func(f fixture) string { return "/orgs/" + f.org + "/link-invites/" + f.invite }, "",
		`mutation($o: ID!, $i: ID!) { deleteInviteLink(organizationId: $o, inviteId: $i) }`},
}

func fixed(path string) func(fixture) string { return func(fixture) string { return path } }
func org(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + suffix }
}
func victim(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/members/" + f.victim + suffix }
}

func TestEveryRouteIsInTheMatrix(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range matrix {
		covered[c.method+" "+c.path] = true
	}
	for _, r := range rest.Routes() {
		if !covered[r.Method+" "+r.Path] {
			t.Errorf("%s %s has no row in the permission matrix", r.Method, r.Path)
		}
	}
}

func TestPermissionMatrix(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Matrix", "admin@matrix.test")
		_, otherAdmin := e.org("Other", "admin@other.test")
		callers := map[string]account{"admin": admin, "other-org": otherAdmin, "non-member": e.member("", "loner@else.test", "")}
		for _, r := range roles[1:7] {
			callers[r] = e.member(orgID, r+"@matrix.test", r)
		}
		n := 0
		for _, c := range matrix {
			for _, role := range roles {
				for _, door := range []string{"rest", "graphql"} {
					n++
					// Each case acts on its own victim and invite, so cases do not disturb each other.
					f := fixture{org: orgID, admin: admin.ID, victim: e.member(orgID, fmt.Sprintf("victim%d@matrix.test", n), "read").ID}
					link := e.call(admin.Token, "POST", "/orgs/"+orgID+"/link-invites", `{"role":"read"}`).want(http.StatusCreated).object()
					f.invite = link["id"].(string)
					want := c.policy.expect(role, c.ok)
					caller := callers[role]
					if door == "rest" {
						var body any
						if c.body != "" {
							body = c.body
						}
						if got := e.call(caller.Token, c.method, c.url(f), body); got.Status != want {
							t.Errorf("%s %s as %s: REST status %d, want %d (%s)", c.method, c.path, role, got.Status, want, got.Body)
						}
						e.stayOutside(orgID, role, caller)
						continue
					}
					g := e.gql(caller.Token, c.gql, map[string]any{"o": f.org, "u": f.victim, "a": f.admin, "i": f.invite})
					e.stayOutside(orgID, role, caller)
					wantCode := map[int]string{http.StatusForbidden: "FORBIDDEN", http.StatusNotFound: "NOT_FOUND"}[want]
					gotCode := ""
					if len(g.Errors) > 0 {
						gotCode, _ = g.Errors[0].Extensions["code"].(string)
					}
					if gotCode != wantCode {
						t.Errorf("%s %s as %s: GraphQL code %q, want %q (%v)", c.method, c.path, role, gotCode, wantCode, strings.TrimSpace(fmt.Sprint(g.Errors)))
					}
				}
			}
		}
	})
}

// stayOutside undoes an outsider's joining through an invite link, so later cases still see them
// as outsiders.
func (e *env) stayOutside(orgID, role string, a account) {
	e.t.Helper()
	if role == "non-member" || role == "other-org" {
		if _, err := e.store.RemoveMember(e.t.Context(), orgID, a.ID); err != nil {
			e.t.Fatal(err)
		}
	}
}
