package rest_test

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Teams, team members and the member-teams view, through both doors on both databases.

// teamsOrg is an organization for the team tests. Its helpers act through REST, as the admin
// unless told otherwise, and fail the test on any unexpected answer.
type teamsOrg struct {
	e     *env
	id    string
	admin account
}

func teamsNewOrg(e *env) *teamsOrg {
	e.t.Helper()
	id, admin := e.org("Acme", "admin@acme.test")
	return &teamsOrg{e: e, id: id, admin: admin}
}

// url is the path of the organization's teams followed by suffix.
// outsiders makes the callers a team test refuses, in this order: a guest of the organization, a
// user in no organization, and another organization with its admin.
func (o *teamsOrg) outsiders() (guest, stranger account, otherID string, otherAdmin account) {
	o.e.t.Helper()
	guest = o.e.member(o.id, "guest@acme.test", "guest")
	stranger = o.e.member("", "stranger@acme.test", "")
	otherID, otherAdmin = o.e.org("Other", "admin@other.test")
	return guest, stranger, otherID, otherAdmin
}

// theirTeam creates a team titled Theirs in another organization, as its admin.
func (o *teamsOrg) theirTeam(otherID string, otherAdmin account) teamsTeam {
	o.e.t.Helper()
	var theirs teamsTeam
	o.e.call(otherAdmin.Token, "PUT", "/orgs/"+otherID+"/teams", `{"title":"Theirs"}`).want(http.StatusCreated).decode(&theirs)
	return theirs
}

func (o *teamsOrg) url(suffix string) string { return "/orgs/" + o.id + "/teams" + suffix }

// teamsTeam is the contract's OrganizationTeam.
type teamsTeam struct {
	Object      string
	ID          string
	Title       string
	Members     int
	Spaces      int
	CreatedAt   string
	Permissions struct{ Admin, View bool }
}

func (tm teamsTeam) label() string { return tm.Title }

// teamsList is a page of teams.
type teamsList = listPage[teamsTeam]

// teamsMember is a team's member (the contract's OrganizationTeamMember), named by its user's
// display name.
type teamsMember struct {
	Organization struct {
		ID    string
		Role  *string
		Teams int
		User  struct{ DisplayName, Email string }
	}
	Team        struct{ Role string }
	Permissions struct{ View bool }
}

func (m teamsMember) label() string { return m.Organization.User.DisplayName }

// teamsMemberPage is a page of a team's members.
type teamsMemberPage = listPage[teamsMember]

// teamsMemberTeam is an item of GET /orgs/{org}/members/{userId}/teams, named "title:role".
type teamsMemberTeam struct {
	Team   teamsTeam
	Member struct{ Role string }
}

func (mt teamsMemberTeam) label() string { return mt.Team.Title + ":" + mt.Member.Role }

// teamsMemberTeamPage is a page of GET /orgs/{org}/members/{userId}/teams.
type teamsMemberTeamPage = listPage[teamsMemberTeam]

// create makes a team as token with those first members (user ids) and returns it.
func (o *teamsOrg) create(token, title string, members ...string) teamsTeam {
	o.e.t.Helper()
	body := map[string]any{"title": title}
	if len(members) > 0 {
		body["members"] = members
	}
	var tm teamsTeam
	o.e.call(token, "PUT", o.url(""), body).want(http.StatusCreated).decode(&tm)
	return tm
}

// get reads a team as token.
func (o *teamsOrg) get(token, teamID string) teamsTeam {
	o.e.t.Helper()
	var tm teamsTeam
	o.e.call(token, "GET", o.url("/"+teamID), nil).want(http.StatusOK).decode(&tm)
	return tm
}

// list reads GET /orgs/{org}/teams<query> as token.
func (o *teamsOrg) list(token, query string) teamsList {
	o.e.t.Helper()
	return getList[teamsTeam](o.e, token, o.url(query))
}

// setRole puts a member in a team with role ("" for no body) as the admin.
func (o *teamsOrg) setRole(teamID, userID, role string) {
	o.e.t.Helper()
	var body any
	if role != "" {
		body = map[string]string{"role": role}
	}
	o.e.call(o.admin.Token, "PUT", o.url("/"+teamID+"/members/"+userID), body).want(http.StatusNoContent)
}

// members returns a team's members as the admin lists them through REST: e-mail → role.
func (o *teamsOrg) members(teamID string) map[string]string {
	o.e.t.Helper()
	var l teamsMemberPage
	o.e.call(o.admin.Token, "GET", o.url("/"+teamID+"/members?limit=1000"), nil).want(http.StatusOK).decode(&l)
	out := map[string]string{}
	for _, it := range l.Items {
		if _, twice := out[it.Organization.User.Email]; twice {
			o.e.t.Errorf("team %s lists %s twice", teamID, it.Organization.User.Email)
		}
		out[it.Organization.User.Email] = it.Team.Role
		if !it.Permissions.View {
			o.e.t.Errorf("team member %s: permissions.view = false for the admin", it.Organization.User.Email)
		}
	}
	if l.Count != len(l.Items) {
		o.e.t.Errorf("team %s member list: count %d, %d items", teamID, l.Count, len(l.Items))
	}
	return out
}

const teamsGQLMembersQuery = `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { members memberList(first: 1000) { totalCount nodes { organization { user { email } } team { role } } } } } }`

// gqlMembers is members through GraphQL; it also returns the team's member count there.
func (o *teamsOrg) gqlMembers(teamID string) (map[string]string, int) {
	o.e.t.Helper()
	var data struct {
		Organization struct {
			Team struct {
				Members    int
				MemberList struct {
					TotalCount int
					Nodes      []struct {
						Organization struct{ User struct{ Email string } }
						Team         struct{ Role string }
					}
				}
			}
		}
	}
	o.e.gql(o.admin.Token, teamsGQLMembersQuery, map[string]any{"o": o.id, "t": teamID}).ok(&data)
	out := map[string]string{}
	for _, n := range data.Organization.Team.MemberList.Nodes {
		out[n.Organization.User.Email] = strings.ToLower(n.Team.Role)
	}
	if data.Organization.Team.MemberList.TotalCount != len(out) {
		o.e.t.Errorf("team %s GraphQL memberList: totalCount %d, %d members", teamID, data.Organization.Team.MemberList.TotalCount, len(out))
	}
	return out, data.Organization.Team.Members
}

// wantMembers checks, through both doors, that a team's members and their roles are want
// (e-mail → role), and that the team's member count agrees.
func (o *teamsOrg) wantMembers(step, teamID string, want map[string]string) {
	t := o.e.t
	t.Helper()
	if diff := cmp.Diff(want, o.members(teamID)); diff != "" {
		t.Errorf("%s: REST team members (-want +got):\n%s", step, diff)
	}
	got, count := o.gqlMembers(teamID)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: GraphQL team members (-want +got):\n%s", step, diff)
	}
	if n := o.get(o.admin.Token, teamID).Members; n != len(want) || count != len(want) {
		t.Errorf("%s: team members count REST %d, GraphQL %d, want %d", step, n, count, len(want))
	}
}

// teamCount returns Member.teams of a member, checking that both doors agree.
func (o *teamsOrg) teamCount(userID string) int {
	o.e.t.Helper()
	var m struct{ Teams int }
	o.e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+userID, nil).want(http.StatusOK).decode(&m)
	var data struct {
		Organization struct{ Member struct{ Teams int } }
	}
	o.e.gql(o.admin.Token, `query($o: ID!, $u: ID!) { organization(id: $o) { member(userId: $u) { teams } } }`, map[string]any{"o": o.id, "u": userID}).ok(&data)
	if data.Organization.Member.Teams != m.Teams {
		o.e.t.Errorf("member %s: teams REST %d, GraphQL %d", userID, m.Teams, data.Organization.Member.Teams)
	}
	return m.Teams
}

// teamsCode is the extensions.code of a GraphQL answer's first error, "" when it has none.
func teamsCode(g gqlResult) string {
	if len(g.Errors) == 0 {
		return ""
	}
	c, _ := g.Errors[0].Extensions["code"].(string)
	return c
}

// teamsField is the extensions.field of a GraphQL answer's first error.
func teamsField(g gqlResult) string {
	if len(g.Errors) == 0 {
		return ""
	}
	f, _ := g.Errors[0].Extensions["field"].(string)
	return f
}

func TestCreateTeam(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "edit")
		maker := e.member(o.id, "maker@acme.test", "create")
		guest, stranger, otherID, otherAdmin := o.outsiders()

		// The creator owns the team whatever the list says; listed members join as members, once.
		created := e.call(o.admin.Token, "PUT", o.url(""), map[string]any{"title": "Writers", "members": []string{alice.ID, bob.ID, o.admin.ID, alice.ID}}).want(http.StatusCreated)
		golden(t, "team_created", created.Body)
		var writers teamsTeam
		created.decode(&writers)
		if writers.Object != "team" || writers.Title != "Writers" || writers.Members != 3 || writers.Spaces != 0 || !writers.Permissions.Admin || !writers.Permissions.View {
			t.Errorf("created team = %+v", writers)
		}
		o.wantMembers("created", writers.ID, map[string]string{o.admin.Email: "owner", alice.Email: "member", bob.Email: "member"})
		if got := e.call(o.admin.Token, "GET", o.url("/"+writers.ID), nil).want(http.StatusOK).Body; string(got) != string(created.Body) {
			t.Errorf("GET differs from the creation answer:\n%s\n%s", created.Body, got)
		}
		// Without members the creator is alone in it; titles count characters, not bytes.
		accents := strings.Repeat("é", 64)
		if long := o.create(o.admin.Token, accents); long.Title != accents || long.Members != 1 {
			t.Errorf("64-character title: %+v", long)
		}

		// Rejected bodies name the field and create nothing.
		e.wantBadBodies(o.admin.Token, "PUT", o.url(""),
			badBody{"no body", nil, "body"},
			badBody{"malformed JSON", `{"title":`, "body"},
			badBody{"not an object", `["Writers"]`, "body"},
			badBody{"title missing", `{}`, "title"},
			badBody{"title empty", `{"title":""}`, "title"},
			badBody{"title null", `{"title":null}`, "title"},
			badBody{"title too long", map[string]any{"title": strings.Repeat("a", 65)}, "title"},
			badBody{"title wrong type", `{"title":5}`, "title"},
			badBody{"members wrong type", `{"title":"T","members":"x"}`, "members"},
			badBody{"member unknown", map[string]any{"title": "T", "members": []string{alice.ID, "nobody"}}, "members[1]"},
			badBody{"member without a membership", map[string]any{"title": "T", "members": []string{stranger.ID}}, "members[0]"},
			badBody{"member of another organization", map[string]any{"title": "T", "members": []string{bob.ID, alice.ID, otherAdmin.ID}}, "members[2]"},
		)
		if l := o.list(o.admin.Token, ""); l.Count != 2 {
			t.Errorf("after rejected creations: %d teams (%s), want 2", l.Count, l.labels())
		}

		// The create role and up create teams and own them; lower roles and guests cannot;
		// outsiders do not see the organization.
		made := o.create(maker.Token, "Makers")
		if !made.Permissions.Admin || !made.Permissions.View || made.Members != 1 {
			t.Errorf("team made by a creator = %+v", made)
		}
		o.wantMembers("created by a creator", made.ID, map[string]string{maker.Email: "owner"})
		reviewer := e.member(o.id, "reviewer@acme.test", "review")
		commenter := e.member(o.id, "commenter@acme.test", "comment")
		for _, who := range []account{bob, reviewer, commenter, alice, guest} {
			e.call(who.Token, "PUT", o.url(""), `{"title":"Mine"}`).wantError(http.StatusForbidden)
		}
		for _, who := range []account{stranger, otherAdmin} {
			e.call(who.Token, "PUT", o.url(""), `{"title":"Mine"}`).wantError(http.StatusNotFound)
		}
		e.call(o.admin.Token, "PUT", "/orgs/nope/teams", `{"title":"Mine"}`).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "PUT", "/orgs/"+otherID+"/teams", `{"title":"Theirs"}`).want(http.StatusCreated)
		if l := o.list(o.admin.Token, ""); l.Count != 3 {
			t.Errorf("teams = %s (%d), want 3", l.labels(), l.Count)
		}

		// GraphQL: the same rules, the same state.
		var data struct {
			CreateTeam struct {
				ID, Title       string
				Members, Spaces int
				Permissions     struct{ Admin, View bool }
			}
		}
		const create = `mutation($o: ID!, $title: String!, $m: [ID!]) { createTeam(organizationId: $o, input: {title: $title, members: $m}) { id title members spaces permissions { admin view } } }`
		e.gql(maker.Token, create, map[string]any{"o": o.id, "title": "Via GraphQL", "m": []string{alice.ID, guest.ID}}).ok(&data)
		if c := data.CreateTeam; c.Title != "Via GraphQL" || c.Members != 3 || c.Spaces != 0 || !c.Permissions.Admin || !c.Permissions.View {
			t.Errorf("GraphQL createTeam = %+v", c)
		}
		o.wantMembers("created through GraphQL", data.CreateTeam.ID, map[string]string{maker.Email: "owner", alice.Email: "member", guest.Email: "member"})
		for _, tt := range []struct {
			name        string
			who         account
			vars        map[string]any
			code, field string
		}{
			{"empty title", o.admin, map[string]any{"o": o.id, "title": ""}, "INVALID", "title"},
			{"long title", o.admin, map[string]any{"o": o.id, "title": strings.Repeat("a", 65)}, "INVALID", "title"},
			{"unknown member", o.admin, map[string]any{"o": o.id, "title": "T", "m": []string{alice.ID, "nobody"}}, "INVALID", "members[1]"},
			{"editor", bob, map[string]any{"o": o.id, "title": "T"}, "FORBIDDEN", ""},
			{"guest", guest, map[string]any{"o": o.id, "title": "T"}, "FORBIDDEN", ""},
			{"outsider", stranger, map[string]any{"o": o.id, "title": "T"}, "NOT_FOUND", ""},
			{"other organization", otherAdmin, map[string]any{"o": o.id, "title": "T"}, "NOT_FOUND", ""},
		} {
			g := e.gql(tt.who.Token, create, tt.vars)
			if teamsCode(g) != tt.code || teamsField(g) != tt.field {
				t.Errorf("GraphQL %s: code %q field %q, want %s %q (%+v)", tt.name, teamsCode(g), teamsField(g), tt.code, tt.field, g.Errors)
			}
		}
		if l := o.list(o.admin.Token, ""); l.Count != 4 {
			t.Errorf("teams after GraphQL = %s (%d), want 4", l.labels(), l.Count)
		}
	})
}

func TestListTeams(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		maker := e.member(o.id, "maker@acme.test", "create")
		guest, stranger, otherID, otherAdmin := o.outsiders()
		ids := map[string]string{}
		for _, title := range []string{"Support", "Docs", "Platform", "Ops", "Design"} {
			ids[title] = o.create(o.admin.Token, title, alice.ID).ID
		}
		ids["Data"] = o.create(maker.Token, "Data").ID
		o.setRole(ids["Ops"], alice.ID, "owner")
		// Another organization's teams never show.
		e.call(otherAdmin.Token, "PUT", "/orgs/"+otherID+"/teams", `{"title":"Docs Elsewhere"}`).want(http.StatusCreated)

		for _, tt := range []struct{ query, want string }{
			{"", "Data,Design,Docs,Ops,Platform,Support"},
			{"?title=o", "Docs,Ops,Platform,Support"},
			{"?title=O", "Docs,Ops,Platform,Support"},
			{"?title=DES", "Design"},
			{"?title=sign", "Design"},
			{"?title=", "Data,Design,Docs,Ops,Platform,Support"},
			{"?title=%25", ""},
			{"?title=_", ""},
			{"?title=Elsewhere", ""},
			{"?owner=" + alice.ID, "Ops"},
			{"?owner=" + maker.ID, "Data"},
			{"?owner=" + o.admin.ID, "Design,Docs,Ops,Platform,Support"},
			{"?owner=" + guest.ID, ""},
			{"?owner=nobody", ""},
			{"?owner=" + o.admin.ID + "&title=P", "Ops,Platform,Support"},
		} {
			l := o.list(alice.Token, tt.query)
			if l.labels() != tt.want || l.Count != len(l.Items) || l.Next != nil {
				t.Errorf("%q = %s (count %d, next %v), want %s", tt.query, l.labels(), l.Count, l.Next, tt.want)
			}
		}
		// Counts and permissions are right in lists too: alice manages only the team she owns.
		for _, it := range o.list(alice.Token, "").Items {
			wantMembers := 2
			if it.Title == "Data" {
				wantMembers = 1
			}
			if it.Object != "team" || it.ID != ids[it.Title] || it.Members != wantMembers || it.Spaces != 0 || it.Permissions.Admin != (it.Title == "Ops") || !it.Permissions.View {
				t.Errorf("alice lists %+v", it)
			}
		}
		for _, it := range o.list(o.admin.Token, "").Items {
			if !it.Permissions.Admin {
				t.Errorf("the admin does not manage %s", it.Title)
			}
		}

		// Pages chain through next.page and cover everything once; filters hold across pages.
		pages := func(query string) string {
			t.Helper()
			return pageLabels(t, query, func(q string) teamsList { return o.list(alice.Token, q) })
		}
		if got := pages("?limit=2"); got != "Data,Design|Docs,Ops|Platform,Support" {
			t.Errorf("pages of 2 = %s", got)
		}
		if got := pages("?limit=3&title=o"); got != "Docs,Ops,Platform|Support" {
			t.Errorf("filtered pages of 3 = %s", got)
		}
		if got := pages("?limit=4&owner=" + o.admin.ID); got != "Design,Docs,Ops,Platform|Support" {
			t.Errorf("owner pages of 4 = %s", got)
		}
		if l := o.list(alice.Token, "?limit=2"); l.Count != 6 {
			t.Errorf("paged count = %d, want 6", l.Count)
		}
		if l := o.list(alice.Token, "?limit=0"); len(l.Items) != 6 {
			t.Errorf("limit=0 gave %d teams, want all 6", len(l.Items))
		}

		// The GraphQL cursors are the REST page tokens, and both doors page alike.
		const page = `query($o: ID!, $first: Int, $after: String, $title: String, $owner: ID) { organization(id: $o) { teams(first: $first, after: $after, title: $title, owner: $owner) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id title members permissions { admin view } } } } } }`
		type gqlPage struct {
			Organization struct {
				Teams struct {
					TotalCount int
					PageInfo   struct {
						HasNextPage bool
						EndCursor   string
					}
					Edges []struct {
						Cursor string
						Node   struct {
							ID, Title   string
							Members     int
							Permissions struct{ Admin, View bool }
						}
					}
				}
			}
		}
		titles := func(p gqlPage) string {
			var out []string
			for _, ed := range p.Organization.Teams.Edges {
				out = append(out, ed.Node.Title)
			}
			return strings.Join(out, ",")
		}
		if got, count := e.bothDoorsPages(alice.Token, o.url(""), 2, page, map[string]any{"o": o.id}, "organization", "teams"); got != "Data,Design|Docs,Ops|Platform,Support" || count != 6 {
			t.Errorf("pages of 2 through both doors = %s (count %d), want 6", got, count)
		}
		var filtered gqlPage
		e.gql(alice.Token, page, map[string]any{"o": o.id, "first": 2, "title": "P", "owner": o.admin.ID}).ok(&filtered)
		if titles(filtered) != "Ops,Platform" || filtered.Organization.Teams.TotalCount != 3 {
			t.Errorf("GraphQL filtered = %s (%d)", titles(filtered), filtered.Organization.Teams.TotalCount)
		}
		if n := filtered.Organization.Teams.Edges[0].Node; !n.Permissions.Admin || n.Members != 2 {
			t.Errorf("GraphQL Ops for its owner = %+v", n)
		}

		// Bad paging is refused, naming the parameter; a cursor of another list is refused.
		var members struct{ Next struct{ Page string } }
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members?limit=1", nil).want(http.StatusOK).decode(&members)
		e.wantBadPaging(alice.Token, o.url(""), "page="+url.QueryEscape(members.Next.Page))
		if c := teamsCode(e.gql(alice.Token, `query($o: ID!) { organization(id: $o) { teams(first: 1001) { totalCount } } }`, map[string]any{"o": o.id})); c != "INVALID" {
			t.Errorf("GraphQL first: 1001 code = %q", c)
		}

		// Guests do not see teams; outsiders do not see the organization.
		e.call(guest.Token, "GET", o.url(""), nil).wantError(http.StatusForbidden)
		e.call(stranger.Token, "GET", o.url(""), nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", o.url(""), nil).wantError(http.StatusNotFound)
		const count = `query($o: ID!) { organization(id: $o) { teams { totalCount } } }`
		for who, want := range map[account]string{guest: "FORBIDDEN", stranger: "NOT_FOUND", otherAdmin: "NOT_FOUND"} {
			if c := teamsCode(e.gql(who.Token, count, map[string]any{"o": o.id})); c != want {
				t.Errorf("GraphQL teams as %s: code %q, want %s", who.Email, c, want)
			}
		}
	})
}

// The title filters are case-insensitive for every letter, not only ASCII ones.
func TestTeamTitleFiltersFoldNonASCII(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		o.create(o.admin.Token, "Équipe Éditoriale")
		o.create(o.admin.Token, "Ops")
		for _, q := range []string{"Équipe", "équipe", "ÉQUIPE", "éditoriale", "PE ÉD"} {
			if got := o.list(o.admin.Token, "?title="+url.QueryEscape(q)).labels(); got != "Équipe Éditoriale" {
				t.Errorf("teams ?title=%s = %q, want %q", q, got, "Équipe Éditoriale")
			}
			var l teamsMemberTeamPage
			e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+o.admin.ID+"/teams?title="+url.QueryEscape(q), nil).want(http.StatusOK).decode(&l)
			if got := l.labels(); got != "Équipe Éditoriale:owner" {
				t.Errorf("member teams ?title=%s = %q, want %q", q, got, "Équipe Éditoriale:owner")
			}
		}
	})
}

func TestGetTeam(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "read")
		guest, stranger, otherID, otherAdmin := o.outsiders()
		writers := o.create(o.admin.Token, "Writers", alice.ID, guest.ID)
		o.setRole(writers.ID, alice.ID, "owner")
		theirs := o.theirTeam(otherID, otherAdmin)

		// Permissions are the caller's: admins and owners manage, other insiders view.
		for _, c := range []struct {
			who   account
			admin bool
		}{{o.admin, true}, {alice, true}, {bob, false}} {
			got := o.get(c.who.Token, writers.ID)
			if got.ID != writers.ID || got.Title != "Writers" || got.Members != 3 || got.CreatedAt != writers.CreatedAt || got.Permissions.Admin != c.admin || !got.Permissions.View {
				t.Errorf("%s reads %+v", c.who.Email, got)
			}
		}
		// A missing team and another organization's look the same.
		missing := e.call(bob.Token, "GET", o.url("/nope"), nil).wantError(http.StatusNotFound)
		if msg := e.call(o.admin.Token, "GET", o.url("/"+theirs.ID), nil).wantError(http.StatusNotFound); msg != missing {
			t.Errorf("not-found messages differ: %q vs %q", missing, msg)
		}
		// Guests do not see teams, even their own; outsiders do not see the organization.
		e.call(guest.Token, "GET", o.url("/"+writers.ID), nil).wantError(http.StatusForbidden)
		e.call(stranger.Token, "GET", o.url("/"+writers.ID), nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", o.url("/"+writers.ID), nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/teams/"+writers.ID, nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/teams/"+theirs.ID, nil).want(http.StatusOK)

		const q = `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { id title members spaces permissions { admin view } } } }`
		var data struct {
			Organization struct {
				Team *struct {
					ID, Title       string
					Members, Spaces int
					Permissions     struct{ Admin, View bool }
				}
			}
		}
		e.gql(bob.Token, q, map[string]any{"o": o.id, "t": writers.ID}).ok(&data)
		if tm := data.Organization.Team; tm == nil || tm.ID != writers.ID || tm.Title != "Writers" || tm.Members != 3 || tm.Permissions.Admin || !tm.Permissions.View {
			t.Errorf("GraphQL team for bob = %+v", tm)
		}
		e.gql(alice.Token, q, map[string]any{"o": o.id, "t": writers.ID}).ok(&data)
		if tm := data.Organization.Team; tm == nil || !tm.Permissions.Admin {
			t.Errorf("GraphQL team for its owner = %+v", tm)
		}
		team := func(id string) map[string]any { return map[string]any{"o": o.id, "t": id} }
		e.wantRefusals(q,
			gqlRefusal{"missing team", bob, team("nope"), "NOT_FOUND"},
			gqlRefusal{"another organization's team", o.admin, team(theirs.ID), "NOT_FOUND"},
			gqlRefusal{"guest", guest, team(writers.ID), "FORBIDDEN"},
			gqlRefusal{"outsider", stranger, team(writers.ID), "NOT_FOUND"},
			gqlRefusal{"other organization", otherAdmin, team(writers.ID), "NOT_FOUND"},
		)
	})
}

func TestRenameTeam(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		owner := e.member(o.id, "owner@acme.test", "read")
		plain := e.member(o.id, "plain@acme.test", "edit")
		outside := e.member(o.id, "outside@acme.test", "create") // in the organization, not the team
		guest, stranger, otherID, otherAdmin := o.outsiders()
		writers := o.create(o.admin.Token, "Writers", owner.ID, plain.ID, guest.ID)
		o.setRole(writers.ID, owner.ID, "owner")
		theirs := o.theirTeam(otherID, otherAdmin)
		path := o.url("/" + writers.ID)

		var got teamsTeam
		e.call(o.admin.Token, "PATCH", path, `{"title":"Authors"}`).want(http.StatusOK).decode(&got)
		if got.ID != writers.ID || got.Title != "Authors" || got.Members != 4 || got.CreatedAt != writers.CreatedAt || !got.Permissions.Admin || !got.Permissions.View {
			t.Errorf("renamed = %+v", got)
		}
		if title := o.get(plain.Token, writers.ID).Title; title != "Authors" {
			t.Errorf("GET after rename: title %q", title)
		}
		// The title filters follow the new title.
		if got := o.list(plain.Token, "?title=AUTH").labels(); got != "Authors" {
			t.Errorf("?title=AUTH after rename = %q", got)
		}
		if got := o.list(plain.Token, "?title=writ").labels(); got != "" {
			t.Errorf("?title=writ after rename = %q", got)
		}
		var mine teamsMemberTeamPage
		e.call(plain.Token, "GET", "/orgs/"+o.id+"/members/"+plain.ID+"/teams?title=auth", nil).want(http.StatusOK).decode(&mine)
		if mine.labels() != "Authors:member" {
			t.Errorf("member teams ?title=auth after rename = %q", mine.labels())
		}
		// The team's owners rename it too, and the answer shows their permissions.
		e.call(owner.Token, "PATCH", path, `{"title":"Editors"}`).want(http.StatusOK).decode(&got)
		if got.Title != "Editors" || !got.Permissions.Admin {
			t.Errorf("renamed by the owner = %+v", got)
		}
		// Other members (of the team or not) and guests may not; outsiders do not see it.
		for _, who := range []account{plain, outside, guest} {
			e.call(who.Token, "PATCH", path, `{"title":"Mine"}`).wantError(http.StatusForbidden)
		}
		for _, who := range []account{stranger, otherAdmin} {
			e.call(who.Token, "PATCH", path, `{"title":"Mine"}`).wantError(http.StatusNotFound)
		}
		e.call(o.admin.Token, "PATCH", o.url("/nope"), `{"title":"Mine"}`).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PATCH", o.url("/"+theirs.ID), `{"title":"Mine"}`).wantError(http.StatusNotFound)
		if title := e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/teams/"+theirs.ID, nil).want(http.StatusOK).object()["title"]; title != "Theirs" {
			t.Errorf("the other organization's team is now %v", title)
		}
		e.wantBadBodies(o.admin.Token, "PATCH", path,
			badBody{`{}`, `{}`, "title"},
			badBody{`{"title":""}`, `{"title":""}`, "title"},
			badBody{`{"title":null}`, `{"title":null}`, "title"},
			badBody{`{"title":7}`, `{"title":7}`, "title"},
			badBody{`{"title":"` + strings.Repeat("a", 65) + `"}`, `{"title":"` + strings.Repeat("a", 65) + `"}`, "title"},
			badBody{`{"title":`, `{"title":`, "body"},
			badBody{``, ``, "body"},
		)
		if title := o.get(o.admin.Token, writers.ID).Title; title != "Editors" {
			t.Errorf("rejected renames changed the title to %q", title)
		}

		// GraphQL.
		const rename = `mutation($o: ID!, $t: ID!, $title: String!) { updateTeam(organizationId: $o, teamId: $t, input: {title: $title}) { id title members permissions { admin } } }`
		var data struct {
			UpdateTeam struct {
				ID, Title   string
				Members     int
				Permissions struct{ Admin bool }
			}
		}
		e.gql(owner.Token, rename, map[string]any{"o": o.id, "t": writers.ID, "title": "Via GraphQL"}).ok(&data)
		if u := data.UpdateTeam; u.ID != writers.ID || u.Title != "Via GraphQL" || u.Members != 4 || !u.Permissions.Admin {
			t.Errorf("GraphQL updateTeam = %+v", u)
		}
		if title := o.get(plain.Token, writers.ID).Title; title != "Via GraphQL" {
			t.Errorf("REST after GraphQL rename: %q", title)
		}
		for _, tt := range []struct {
			name        string
			who         account
			team, title string
			code, field string
		}{
			{"empty title", o.admin, writers.ID, "", "INVALID", "title"},
			{"plain member", plain, writers.ID, "Mine", "FORBIDDEN", ""},
			{"other member", outside, writers.ID, "Mine", "FORBIDDEN", ""},
			{"guest", guest, writers.ID, "Mine", "FORBIDDEN", ""},
			{"outsider", stranger, writers.ID, "Mine", "NOT_FOUND", ""},
			{"missing team", o.admin, "nope", "Mine", "NOT_FOUND", ""},
			{"another organization's team", o.admin, theirs.ID, "Mine", "NOT_FOUND", ""},
		} {
			g := e.gql(tt.who.Token, rename, map[string]any{"o": o.id, "t": tt.team, "title": tt.title})
			if teamsCode(g) != tt.code || teamsField(g) != tt.field {
				t.Errorf("GraphQL %s: code %q field %q, want %s %q", tt.name, teamsCode(g), teamsField(g), tt.code, tt.field)
			}
		}
		if title := o.get(o.admin.Token, writers.ID).Title; title != "Via GraphQL" {
			t.Errorf("rejected GraphQL renames changed the title to %q", title)
		}
	})
}

// teamsSpaceTeams returns the ids of the teams with a role on a space, sorted, checking that
// GraphQL counts as many.
func teamsSpaceTeams(e *env, token, spaceID string) []string {
	e.t.Helper()
	var l struct {
		Items []struct {
			Permission string
			Team       teamsTeam
		}
		Count int
	}
	e.call(token, "GET", "/spaces/"+spaceID+"/permissions/teams", nil).want(http.StatusOK).decode(&l)
	ids := []string{}
	for _, it := range l.Items {
		ids = append(ids, it.Team.ID)
	}
	sort.Strings(ids)
	var data struct {
		Space struct{ TeamPermissions struct{ TotalCount int } }
	}
	e.gql(token, `query($s: ID!) { space(id: $s) { teamPermissions { totalCount } } }`, map[string]any{"s": spaceID}).ok(&data)
	if data.Space.TeamPermissions.TotalCount != len(ids) || l.Count != len(ids) {
		e.t.Errorf("space %s team grants: REST %d (count %d), GraphQL %d", spaceID, len(ids), l.Count, data.Space.TeamPermissions.TotalCount)
	}
	return ids
}

func teamsSorted(ids ...string) []string {
	out := append([]string{}, ids...)
	sort.Strings(out)
	return out
}

// space creates a space as the admin and returns its id.
func (o *teamsOrg) space(title string) string {
	o.e.t.Helper()
	return o.e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/spaces", map[string]any{"title": title}).want(http.StatusCreated).object()["id"].(string)
}

// grant gives teams role on a space, as the admin.
func (o *teamsOrg) grant(spaceID, role string, teams ...string) {
	o.e.t.Helper()
	o.e.call(o.admin.Token, "POST", "/spaces/"+spaceID+"/permissions", map[string]any{"role": role, "teams": teams}).want(http.StatusNoContent)
}

func TestDeleteTeam(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		owner := e.member(o.id, "owner@acme.test", "read")
		plain := e.member(o.id, "plain@acme.test", "edit")
		outside := e.member(o.id, "outside@acme.test", "create")
		guest, stranger, otherID, otherAdmin := o.outsiders()
		handbook := o.space("Handbook")
		writers := o.create(o.admin.Token, "Writers", owner.ID, plain.ID, guest.ID)
		o.setRole(writers.ID, owner.ID, "owner")
		readers := o.create(o.admin.Token, "Readers", plain.ID)
		o.grant(handbook, "read", writers.ID, readers.ID)
		theirs := o.theirTeam(otherID, otherAdmin)

		if got := teamsSpaceTeams(e, o.admin.Token, handbook); !cmp.Equal(got, teamsSorted(writers.ID, readers.ID)) {
			t.Fatalf("granted teams = %v", got)
		}
		if n := o.get(o.admin.Token, writers.ID).Spaces; n != 1 {
			t.Errorf("writers spaces = %d, want 1", n)
		}
		if n := o.teamCount(plain.ID); n != 2 {
			t.Errorf("plain is in %d teams, want 2", n)
		}

		// Only the organization's admins and the team's owners delete it.
		path := o.url("/" + writers.ID)
		for _, who := range []account{plain, outside, guest} {
			e.call(who.Token, "DELETE", path, nil).wantError(http.StatusForbidden)
		}
		for _, who := range []account{stranger, otherAdmin} {
			e.call(who.Token, "DELETE", path, nil).wantError(http.StatusNotFound)
		}
		if got := o.get(o.admin.Token, writers.ID); got.Members != 4 || got.Spaces != 1 {
			t.Errorf("refused deletions changed the team: %+v", got)
		}
		e.call(owner.Token, "DELETE", path, nil).want(http.StatusNoContent)
		if body := e.call(owner.Token, "DELETE", path, nil).want(http.StatusNoContent).Body; len(body) != 0 {
			t.Errorf("second DELETE has a body: %s", body)
		}
		e.call(o.admin.Token, "DELETE", path, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", path, nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "GET", path+"/members", nil).wantError(http.StatusNotFound)
		// Its grants and memberships went with it.
		if got := teamsSpaceTeams(e, o.admin.Token, handbook); !cmp.Equal(got, []string{readers.ID}) {
			t.Errorf("teams on the space after deletion = %v, want only readers", got)
		}
		if n := o.teamCount(plain.ID); n != 1 {
			t.Errorf("plain is in %d teams after the deletion, want 1", n)
		}
		if n := o.teamCount(owner.ID); n != 0 {
			t.Errorf("owner is in %d teams after the deletion, want 0", n)
		}
		var mt teamsMemberTeamPage
		e.call(plain.Token, "GET", "/orgs/"+o.id+"/members/"+plain.ID+"/teams", nil).want(http.StatusOK).decode(&mt)
		if mt.labels() != "Readers:member" || mt.Count != 1 {
			t.Errorf("plain's teams = %s (%d)", mt.labels(), mt.Count)
		}
		if l := o.list(o.admin.Token, ""); l.labels() != "Readers" {
			t.Errorf("teams after deletion = %s", l.labels())
		}

		// A missing team, or another organization's, answers 204 and nothing happens to it; a
		// missing organization is 404.
		e.call(o.admin.Token, "DELETE", o.url("/nope"), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", o.url("/"+theirs.ID), nil).want(http.StatusNoContent)
		e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/teams/"+theirs.ID, nil).want(http.StatusOK)
		e.call(o.admin.Token, "DELETE", "/orgs/nope/teams/"+readers.ID, nil).wantError(http.StatusNotFound)
		e.call(stranger.Token, "DELETE", o.url("/nope"), nil).wantError(http.StatusNotFound)

		// GraphQL.
		const del = `mutation($o: ID!, $t: ID!) { deleteTeam(organizationId: $o, teamId: $t) }`
		for who, want := range map[account]string{plain: "FORBIDDEN", outside: "FORBIDDEN", guest: "FORBIDDEN", stranger: "NOT_FOUND", otherAdmin: "NOT_FOUND"} {
			if c := teamsCode(e.gql(who.Token, del, map[string]any{"o": o.id, "t": readers.ID})); c != want {
				t.Errorf("GraphQL deleteTeam as %s: code %q, want %s", who.Email, c, want)
			}
		}
		var data struct{ DeleteTeam bool }
		e.gql(o.admin.Token, del, map[string]any{"o": o.id, "t": readers.ID}).ok(&data)
		if !data.DeleteTeam {
			t.Error("GraphQL deleteTeam = false, want true")
		}
		e.gql(o.admin.Token, del, map[string]any{"o": o.id, "t": readers.ID}).ok(&data)
		if data.DeleteTeam {
			t.Error("GraphQL deleteTeam again = true, want false")
		}
		if got := teamsSpaceTeams(e, o.admin.Token, handbook); len(got) != 0 {
			t.Errorf("teams on the space after deleting all = %v", got)
		}
		if n := o.teamCount(plain.ID); n != 0 {
			t.Errorf("plain is in %d teams after all deletions", n)
		}
		if l := o.list(o.admin.Token, ""); l.Count != 0 {
			t.Errorf("teams left: %s", l.labels())
		}
	})
}

func TestUpdateTeamMembersInBulk(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "edit")
		carol := e.member(o.id, "carol@acme.test", "comment")
		dave := e.member(o.id, "dave@acme.test", "review")
		eve := e.member(o.id, "eve@acme.test", "read")
		frank := e.member(o.id, "frank@acme.test", "read")
		guest, stranger, _, otherAdmin := o.outsiders()
		tm := o.create(o.admin.Token, "Writers", alice.ID, bob.ID)
		path := o.url("/" + tm.ID + "/members")
		want := map[string]string{o.admin.Email: "owner", alice.Email: "member", bob.Email: "member"}
		o.wantMembers("created", tm.ID, want)

		for _, step := range []struct {
			name   string
			body   any
			change map[string]string // e-mail → new role, "" for removed
		}{
			{"add by id and by e-mail in any case", map[string]any{"add": []string{carol.ID, "DAVE@Acme.TEST"}},
				map[string]string{carol.Email: "member", dave.Email: "member"}},
			{"remove by e-mail in any case and by id", map[string]any{"remove": []string{"Bob@ACME.test", dave.ID}},
				map[string]string{bob.Email: "", dave.Email: ""}},
			{"memberships set roles", map[string]any{"memberships": map[string]any{alice.ID: map[string]string{"role": "owner"}, o.admin.ID: map[string]string{"role": "member"}}},
				map[string]string{alice.Email: "owner", o.admin.Email: "member"}},
			{"added and removed ends removed, newcomer or not", map[string]any{"add": []string{eve.ID, carol.ID}, "remove": []string{"EVE@acme.test", carol.ID}},
				map[string]string{carol.Email: ""}},
			{"adding a member again keeps their role; one user named twice joins once", map[string]any{"add": []string{alice.ID, "alice@acme.test", frank.ID, "FRANK@acme.test", guest.ID}},
				map[string]string{frank.Email: "member", guest.Email: "member"}},
			{"add and set a role at once", map[string]any{"add": []string{bob.ID}, "memberships": map[string]any{bob.ID: map[string]string{"role": "owner"}, frank.ID: map[string]string{"role": "owner"}}},
				map[string]string{bob.Email: "owner", frank.Email: "owner"}},
			{"demote", map[string]any{"memberships": map[string]any{frank.ID: map[string]string{"role": "member"}}},
				map[string]string{frank.Email: "member"}},
			{"removing someone not in the team or unknown changes nothing", map[string]any{"remove": []string{dave.ID, "nobody@acme.test", stranger.Email, stranger.ID, otherAdmin.ID, "nope"}}, nil},
			{"an empty update changes nothing", `{}`, nil},
			{"empty lists change nothing", `{"add":[],"remove":[],"memberships":{}}`, nil},
		} {
			e.call(o.admin.Token, "PUT", path, step.body).want(http.StatusNoContent)
			for email, role := range step.change {
				if role == "" {
					delete(want, email)
				} else {
					want[email] = role
				}
			}
			o.wantMembers(step.name, tm.ID, want)
		}
		// want: admin member, alice owner, bob owner, frank member, guest member.

		// A rejected update changes nothing, even its valid parts.
		for _, tt := range []struct {
			name  string
			body  any
			field string
		}{
			{"unknown add entry", map[string]any{"add": []string{dave.ID, "nobody@acme.test"}, "remove": []string{alice.ID}, "memberships": map[string]any{guest.ID: map[string]string{"role": "owner"}}}, "add[1]"},
			{"add of a user without a membership", map[string]any{"add": []string{stranger.Email}}, "add[0]"},
			{"add of another organization's member by id", map[string]any{"add": []string{dave.ID, otherAdmin.ID}}, "add[1]"},
			{"add of another organization's member by e-mail", map[string]any{"add": []string{otherAdmin.Email}}, "add[0]"},
			{"role for an unknown user", map[string]any{"remove": []string{alice.ID}, "memberships": map[string]any{"nobody": map[string]string{"role": "owner"}}}, "memberships"},
			{"bad role", map[string]any{"add": []string{dave.ID}, "memberships": map[string]any{dave.ID: map[string]string{"role": "admin"}}}, "memberships"},
			{"role in capitals", map[string]any{"memberships": map[string]any{alice.ID: map[string]string{"role": "MEMBER"}}}, "memberships"},
			{"role missing", map[string]any{"memberships": map[string]any{alice.ID: map[string]string{}}}, "memberships"},
			{"role not an object", map[string]any{"memberships": map[string]any{alice.ID: "member"}}, "memberships"},
			{"add not a list", `{"add":"` + dave.ID + `"}`, "add"},
			{"remove of numbers", `{"remove":[5]}`, "remove"},
			{"memberships a list", `{"memberships":[]}`, "memberships"},
			{"no body", nil, "body"},
			{"malformed JSON", `{"add":[`, "body"},
		} {
			msg := e.call(o.admin.Token, "PUT", path, tt.body).wantError(http.StatusBadRequest)
			if !strings.HasPrefix(msg, tt.field) {
				t.Errorf("%s: message %q does not name %s", tt.name, msg, tt.field)
			}
			o.wantMembers(tt.name, tm.ID, want)
		}
		e.call(o.admin.Token, "PUT", o.url("/nope/members"), `{"add":["`+dave.ID+`"]}`).wantError(http.StatusNotFound)

		// GraphQL: roles come as a list; the same rules.
		const update = `mutation($o: ID!, $t: ID!, $in: UpdateTeamMembersInput!) { updateTeamMembers(organizationId: $o, teamId: $t, input: $in) { id members } }`
		other := o.create(o.admin.Token, "Reviewers")
		gwant := map[string]string{o.admin.Email: "owner"}
		for _, step := range []struct {
			name   string
			in     map[string]any
			change map[string]string
		}{
			{"add, remove and roles", map[string]any{"add": []string{alice.ID, "BOB@acme.test", carol.ID}, "remove": []string{"carol@ACME.test"}, "roles": []map[string]string{{"user": alice.ID, "role": "OWNER"}}},
				map[string]string{alice.Email: "owner", bob.Email: "member"}},
			{"adding again keeps the role", map[string]any{"add": []string{alice.ID}, "roles": []map[string]string{{"user": o.admin.ID, "role": "MEMBER"}}},
				map[string]string{o.admin.Email: "member"}},
			{"remove unknown and absent", map[string]any{"remove": []string{"nobody", dave.ID}}, nil},
			{"remove by id", map[string]any{"remove": []string{bob.ID}}, map[string]string{bob.Email: ""}},
		} {
			var data struct {
				UpdateTeamMembers struct {
					ID      string
					Members int
				}
			}
			e.gql(o.admin.Token, update, map[string]any{"o": o.id, "t": other.ID, "in": step.in}).ok(&data)
			for email, role := range step.change {
				if role == "" {
					delete(gwant, email)
				} else {
					gwant[email] = role
				}
			}
			if data.UpdateTeamMembers.ID != other.ID || data.UpdateTeamMembers.Members != len(gwant) {
				t.Errorf("GraphQL %s: answer %+v, want %d members", step.name, data.UpdateTeamMembers, len(gwant))
			}
			o.wantMembers("GraphQL "+step.name, other.ID, gwant)
		}
		for _, tt := range []struct {
			name        string
			in          map[string]any
			code, field string
		}{
			{"unknown add entry", map[string]any{"add": []string{dave.ID, "nobody@acme.test"}, "remove": []string{alice.ID}}, "INVALID", "add[1]"},
			{"another organization's member", map[string]any{"add": []string{otherAdmin.ID}}, "INVALID", "add[0]"},
			{"role for an unknown user", map[string]any{"roles": []map[string]string{{"user": "nobody", "role": "OWNER"}}}, "INVALID", "memberships.nobody"},
		} {
			g := e.gql(o.admin.Token, update, map[string]any{"o": o.id, "t": other.ID, "in": tt.in})
			if teamsCode(g) != tt.code || teamsField(g) != tt.field {
				t.Errorf("GraphQL %s: code %q field %q, want %s %q", tt.name, teamsCode(g), teamsField(g), tt.code, tt.field)
			}
			o.wantMembers("GraphQL "+tt.name, other.ID, gwant)
		}
		if g := e.gql(o.admin.Token, update, map[string]any{"o": o.id, "t": other.ID, "in": map[string]any{"roles": []map[string]string{{"user": alice.ID, "role": "ADMIN"}}}}); len(g.Errors) == 0 {
			t.Error("GraphQL role ADMIN accepted")
		}
		o.wantMembers("GraphQL bad role", other.ID, gwant)
		if c := teamsCode(e.gql(o.admin.Token, update, map[string]any{"o": o.id, "t": "nope", "in": map[string]any{"add": []string{dave.ID}}})); c != "NOT_FOUND" {
			t.Errorf("GraphQL missing team: code %q", c)
		}
	})
}

func TestSetAndRemoveTeamMember(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "edit")
		carol := e.member(o.id, "carol@acme.test", "read")
		guest, stranger, otherID, otherAdmin := o.outsiders()
		theirs := o.theirTeam(otherID, otherAdmin)
		tm := o.create(o.admin.Token, "Writers")
		at := func(userID string) string { return o.url("/" + tm.ID + "/members/" + userID) }
		want := map[string]string{o.admin.Email: "owner"}

		for _, step := range []struct {
			name, user string
			body       any
			email      string
			role       string // the role after the step
		}{
			{"no body adds a member", alice.ID, nil, alice.Email, "member"},
			{"an empty body changes nothing", alice.ID, `{}`, alice.Email, "member"},
			{"promote", alice.ID, `{"role":"owner"}`, alice.Email, "owner"},
			{"no body keeps the role", alice.ID, nil, alice.Email, "owner"},
			{"a null role keeps the role", alice.ID, `{"role":null}`, alice.Email, "owner"},
			{"demote", alice.ID, `{"role":"member"}`, alice.Email, "member"},
			{"join as owner", bob.ID, `{"role":"owner"}`, bob.Email, "owner"},
			{"guests may be in teams", guest.ID, nil, guest.Email, "member"},
		} {
			if body := e.call(o.admin.Token, "PUT", at(step.user), step.body).want(http.StatusNoContent).Body; len(body) != 0 {
				t.Errorf("%s: 204 with a body %s", step.name, body)
			}
			want[step.email] = step.role
			o.wantMembers(step.name, tm.ID, want)
		}
		e.wantBadBodies(o.admin.Token, "PUT", at(carol.ID),
			badBody{`{"role":"admin"}`, `{"role":"admin"}`, "role"},
			badBody{`{"role":"OWNER"}`, `{"role":"OWNER"}`, "role"},
			badBody{`{"role":""}`, `{"role":""}`, "role"},
			badBody{`{"role":5}`, `{"role":5}`, "role"},
			badBody{`{"role":`, `{"role":`, "body"},
		)
		o.wantMembers("rejected roles", tm.ID, want)
		// Only the organization's members can join; a missing team is 404.
		for _, id := range []string{stranger.ID, otherAdmin.ID, "nobody"} {
			e.call(o.admin.Token, "PUT", at(id), nil).wantError(http.StatusNotFound)
		}
		e.call(o.admin.Token, "PUT", o.url("/nope/members/"+carol.ID), nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "PUT", o.url("/"+theirs.ID+"/members/"+carol.ID), nil).wantError(http.StatusNotFound)
		o.wantMembers("refused joins", tm.ID, want)

		// DELETE is idempotent.
		e.call(o.admin.Token, "DELETE", at(bob.ID), nil).want(http.StatusNoContent)
		delete(want, bob.Email)
		o.wantMembers("removed", tm.ID, want)
		e.call(o.admin.Token, "DELETE", at(bob.ID), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", at("nobody"), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", at(stranger.ID), nil).want(http.StatusNoContent)
		o.wantMembers("removed again", tm.ID, want)
		// Another organization's team does not exist here: nothing to remove, and nothing removed.
		e.call(o.admin.Token, "DELETE", o.url("/"+theirs.ID+"/members/"+otherAdmin.ID), nil).want(http.StatusNoContent)
		if n := e.call(otherAdmin.Token, "GET", "/orgs/"+otherID+"/teams/"+theirs.ID, nil).want(http.StatusOK).object()["members"]; n != float64(1) {
			t.Errorf("the other organization's team has %v members", n)
		}

		// Any member may leave a team; plain members remove nobody else.
		e.call(alice.Token, "DELETE", at(guest.ID), nil).wantError(http.StatusForbidden)
		e.call(alice.Token, "DELETE", at(alice.ID), nil).want(http.StatusNoContent)
		delete(want, alice.Email)
		o.wantMembers("alice left", tm.ID, want)
		e.call(carol.Token, "DELETE", at(carol.ID), nil).want(http.StatusNoContent) // not in it: nothing to do
		e.call(stranger.Token, "DELETE", at(stranger.ID), nil).wantError(http.StatusNotFound)

		// GraphQL.
		const set = `mutation($o: ID!, $t: ID!, $u: ID!, $in: SetTeamMemberInput!) { setTeamMember(organizationId: $o, teamId: $t, userId: $u, input: $in) { id members } }`
		const remove = `mutation($o: ID!, $t: ID!, $u: ID!) { removeTeamMember(organizationId: $o, teamId: $t, userId: $u) }`
		var data struct{ SetTeamMember struct{ Members int } }
		e.gql(o.admin.Token, set, map[string]any{"o": o.id, "t": tm.ID, "u": bob.ID, "in": map[string]any{}}).ok(&data)
		want[bob.Email] = "member"
		if data.SetTeamMember.Members != len(want) {
			t.Errorf("GraphQL setTeamMember members = %d, want %d", data.SetTeamMember.Members, len(want))
		}
		e.gql(o.admin.Token, set, map[string]any{"o": o.id, "t": tm.ID, "u": bob.ID, "in": map[string]any{"role": "OWNER"}}).ok(&data)
		want[bob.Email] = "owner"
		o.wantMembers("GraphQL set", tm.ID, want)
		for _, tt := range []struct {
			name, user, team string
			in               map[string]any
			code             string
		}{
			{"outsider", stranger.ID, tm.ID, map[string]any{}, "NOT_FOUND"},
			{"another organization's member", otherAdmin.ID, tm.ID, map[string]any{}, "NOT_FOUND"},
			{"missing team", carol.ID, "nope", map[string]any{}, "NOT_FOUND"},
		} {
			if c := teamsCode(e.gql(o.admin.Token, set, map[string]any{"o": o.id, "t": tt.team, "u": tt.user, "in": tt.in})); c != tt.code {
				t.Errorf("GraphQL setTeamMember %s: code %q, want %s", tt.name, c, tt.code)
			}
		}
		if g := e.gql(o.admin.Token, set, map[string]any{"o": o.id, "t": tm.ID, "u": carol.ID, "in": map[string]any{"role": "ADMIN"}}); len(g.Errors) == 0 {
			t.Error("GraphQL setTeamMember role ADMIN accepted")
		}
		o.wantMembers("GraphQL refused", tm.ID, want)
		var removed struct{ RemoveTeamMember bool }
		e.gql(o.admin.Token, remove, map[string]any{"o": o.id, "t": tm.ID, "u": bob.ID}).ok(&removed)
		if !removed.RemoveTeamMember {
			t.Error("GraphQL removeTeamMember = false, want true")
		}
		e.gql(o.admin.Token, remove, map[string]any{"o": o.id, "t": tm.ID, "u": bob.ID}).ok(&removed)
		if removed.RemoveTeamMember {
			t.Error("GraphQL removeTeamMember again = true, want false")
		}
		delete(want, bob.Email)
		o.setRole(tm.ID, carol.ID, "")
		want[carol.Email] = "member"
		if c := teamsCode(e.gql(carol.Token, remove, map[string]any{"o": o.id, "t": tm.ID, "u": guest.ID})); c != "FORBIDDEN" {
			t.Errorf("GraphQL plain member removing another: code %q", c)
		}
		e.gql(carol.Token, remove, map[string]any{"o": o.id, "t": tm.ID, "u": carol.ID}).ok(&removed)
		if !removed.RemoveTeamMember {
			t.Error("GraphQL leaving = false, want true")
		}
		delete(want, carol.Email)
		o.wantMembers("GraphQL removals", tm.ID, want)
	})
}

func TestListTeamMembers(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "edit")
		reader := e.member(o.id, "reader@acme.test", "read") // not in the team
		guest, stranger, otherID, otherAdmin := o.outsiders()
		theirs := o.theirTeam(otherID, otherAdmin)
		tm := o.create(o.admin.Token, "Writers")
		o.setRole(tm.ID, alice.ID, "owner")
		o.setRole(tm.ID, bob.ID, "")
		path := o.url("/" + tm.ID + "/members")

		// Members in the order they joined, each with their membership and role.
		res := e.call(reader.Token, "GET", path, nil).want(http.StatusOK)
		golden(t, "team_members", res.Body)
		var l teamsMemberPage
		res.decode(&l)
		if l.labels() != "Admin Acme,alice,bob" || l.Count != 3 || l.Next != nil {
			t.Fatalf("members = %s (%d)", l.labels(), l.Count)
		}
		for i, want := range []struct{ id, orgRole, teamRole string }{{o.admin.ID, "admin", "owner"}, {alice.ID, "read", "owner"}, {bob.ID, "edit", "member"}} {
			it := l.Items[i]
			if it.Organization.ID != want.id || it.Organization.Role == nil || *it.Organization.Role != want.orgRole || it.Team.Role != want.teamRole || !it.Permissions.View || it.Organization.Teams != 1 {
				t.Errorf("item %d = %+v", i, it)
			}
		}

		// Pages chain through next.page; the GraphQL cursors are the REST page tokens.
		var pages, tokens []string
		for _, p := range walkPages(t, "?limit=1", func(q string) teamsMemberPage {
			var p teamsMemberPage
			e.call(reader.Token, "GET", path+q, nil).want(http.StatusOK).decode(&p)
			return p
		}) {
			if p.Count != 3 {
				t.Errorf("page count = %d", p.Count)
			}
			if pages = append(pages, p.labels()); p.Next != nil {
				tokens = append(tokens, p.Next.Page)
			}
		}
		if strings.Join(pages, "|") != "Admin Acme|alice|bob" {
			t.Errorf("pages = %v", pages)
		}
		const q = `query($o: ID!, $t: ID!, $first: Int, $after: String) { organization(id: $o) { team(id: $t) { memberList(first: $first, after: $after) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { organization { id role teams user { displayName } } team { role } permissions { view } } } } } } }`
		var data struct {
			Organization struct {
				Team struct {
					MemberList struct {
						TotalCount int
						PageInfo   struct {
							HasNextPage bool
							EndCursor   string
						}
						Edges []struct {
							Cursor string
							Node   struct {
								Organization struct {
									ID    string
									Role  *string
									Teams int
									User  struct{ DisplayName string }
								}
								Team        struct{ Role string }
								Permissions struct{ View bool }
							}
						}
					}
				}
			}
		}
		e.gql(reader.Token, q, map[string]any{"o": o.id, "t": tm.ID, "first": 1}).ok(&data)
		if ml := data.Organization.Team.MemberList; ml.TotalCount != 3 || !ml.PageInfo.HasNextPage || len(tokens) == 0 || ml.PageInfo.EndCursor != tokens[0] || ml.Edges[0].Cursor != tokens[0] {
			t.Errorf("GraphQL first page = %+v, REST tokens %v", ml, tokens)
		}
		e.gql(reader.Token, q, map[string]any{"o": o.id, "t": tm.ID, "first": 5, "after": tokens[0]}).ok(&data)
		ml := data.Organization.Team.MemberList
		if len(ml.Edges) != 2 || ml.PageInfo.HasNextPage {
			t.Fatalf("GraphQL rest = %+v", ml)
		}
		if n := ml.Edges[0].Node; n.Organization.ID != alice.ID || n.Team.Role != "OWNER" || *n.Organization.Role != "READ" || !n.Permissions.View || n.Organization.Teams != 1 || n.Organization.User.DisplayName != "alice" {
			t.Errorf("GraphQL alice = %+v", n)
		}
		if n := ml.Edges[1].Node; n.Organization.ID != bob.ID || n.Team.Role != "MEMBER" {
			t.Errorf("GraphQL bob = %+v", n)
		}

		// Who reads it.
		e.call(guest.Token, "GET", path, nil).wantError(http.StatusForbidden)
		e.call(stranger.Token, "GET", path, nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", path, nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", o.url("/nope/members"), nil).wantError(http.StatusNotFound)
		e.call(o.admin.Token, "GET", o.url("/"+theirs.ID+"/members"), nil).wantError(http.StatusNotFound)
		var members struct{ Next struct{ Page string } }
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members?limit=1", nil).want(http.StatusOK).decode(&members)
		for _, bad := range []string{"?limit=1001", "?limit=-2", "?page=junk", "?page=" + url.QueryEscape(members.Next.Page)} {
			e.call(reader.Token, "GET", path+bad, nil).wantError(http.StatusBadRequest)
		}
		for who, want := range map[account]string{guest: "FORBIDDEN", stranger: "NOT_FOUND", otherAdmin: "NOT_FOUND"} {
			if c := teamsCode(e.gql(who.Token, q, map[string]any{"o": o.id, "t": tm.ID})); c != want {
				t.Errorf("GraphQL memberList as %s: code %q, want %s", who.Email, c, want)
			}
		}
	})
}

func TestMemberTeams(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "read")
		carol := e.member(o.id, "carol@acme.test", "read") // in no team
		guest, stranger, _, otherAdmin := o.outsiders()
		writers := o.create(o.admin.Token, "Writers", alice.ID, guest.ID)
		o.create(o.admin.Token, "Web Writers", alice.ID)
		o.create(o.admin.Token, "Reviewers", alice.ID, bob.ID)
		o.create(o.admin.Token, "Unrelated", bob.ID)
		o.setRole(writers.ID, alice.ID, "owner")
		teamsOf := func(token, userID, query string) teamsMemberTeamPage {
			t.Helper()
			var l teamsMemberTeamPage
			e.call(token, "GET", "/orgs/"+o.id+"/members/"+userID+"/teams"+query, nil).want(http.StatusOK).decode(&l)
			return l
		}

		// Teams by title, each with the member's role in it; the team is as the caller sees it.
		res := e.call(bob.Token, "GET", "/orgs/"+o.id+"/members/"+alice.ID+"/teams", nil).want(http.StatusOK)
		golden(t, "member_teams", res.Body)
		var l teamsMemberTeamPage
		res.decode(&l)
		if l.labels() != "Reviewers:member,Web Writers:member,Writers:owner" || l.Count != 3 || l.Next != nil {
			t.Errorf("alice's teams for bob = %s (%d)", l.labels(), l.Count)
		}
		for _, it := range l.Items {
			if it.Team.Object != "team" || it.Team.Permissions.Admin || !it.Team.Permissions.View {
				t.Errorf("bob sees %+v", it.Team)
			}
		}
		for _, it := range teamsOf(alice.Token, alice.ID, "").Items {
			if it.Team.Permissions.Admin != (it.Team.Title == "Writers") {
				t.Errorf("alice sees %s with admin %v", it.Team.Title, it.Team.Permissions.Admin)
			}
			if it.Team.Title == "Writers" && it.Team.Members != 3 {
				t.Errorf("Writers members = %d", it.Team.Members)
			}
		}
		for _, tt := range []struct{ query, want string }{
			{"?title=WRIT", "Web Writers:member,Writers:owner"},
			{"?title=view", "Reviewers:member"},
			{"?title=%25", ""},
			{"?title=Unrelated", ""},
		} {
			if got := teamsOf(bob.Token, alice.ID, tt.query); got.labels() != tt.want || got.Count != len(got.Items) {
				t.Errorf("%s = %s (%d), want %s", tt.query, got.labels(), got.Count, tt.want)
			}
		}
		if got := teamsOf(bob.Token, carol.ID, ""); len(got.Items) != 0 || got.Count != 0 {
			t.Errorf("carol's teams = %s", got.labels())
		}
		first := teamsOf(bob.Token, alice.ID, "?limit=2")
		if first.labels() != "Reviewers:member,Web Writers:member" || first.Count != 3 || first.Next == nil {
			t.Fatalf("first page = %s (%d, next %v)", first.labels(), first.Count, first.Next)
		}
		if second := teamsOf(bob.Token, alice.ID, "?limit=2&page="+url.QueryEscape(first.Next.Page)); second.labels() != "Writers:owner" || second.Next != nil {
			t.Errorf("second page = %s", second.labels())
		}
		teamsCursor := o.list(o.admin.Token, "?limit=1").Next.Page
		for _, bad := range []string{"?limit=1001", "?page=junk", "?page=" + url.QueryEscape(teamsCursor)} {
			e.call(bob.Token, "GET", "/orgs/"+o.id+"/members/"+alice.ID+"/teams"+bad, nil).wantError(http.StatusBadRequest)
		}

		// Guests read their own teams, not others'; outsiders see nothing.
		// The flags tell the truth: the guest can neither manage nor view (list) the team.
		if got := teamsOf(guest.Token, guest.ID, ""); got.labels() != "Writers:member" || got.Items[0].Team.Permissions.Admin || got.Items[0].Team.Permissions.View {
			t.Errorf("guest's own teams = %s %+v", got.labels(), got.Items)
		}
		e.call(guest.Token, "GET", "/orgs/"+o.id+"/members/"+alice.ID+"/teams", nil).wantError(http.StatusForbidden)
		e.call(stranger.Token, "GET", "/orgs/"+o.id+"/members/"+alice.ID+"/teams", nil).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "GET", "/orgs/"+o.id+"/members/"+alice.ID+"/teams", nil).wantError(http.StatusNotFound)
		e.call(bob.Token, "GET", "/orgs/"+o.id+"/members/"+stranger.ID+"/teams", nil).wantError(http.StatusNotFound)
		e.call(bob.Token, "GET", "/orgs/"+o.id+"/members/nobody/teams", nil).wantError(http.StatusNotFound)

		// GraphQL: the same list, cursors and rules.
		const q = `query($o: ID!, $u: ID!, $first: Int, $after: String, $title: String) { organization(id: $o) { member(userId: $u) { teams teamMemberships(first: $first, after: $after, title: $title) {
			totalCount pageInfo { hasNextPage endCursor } edges { cursor node { team { id title members permissions { admin view } } member { role } } } } } } }`
		type gqlPage struct {
			Organization struct {
				Member struct {
					Teams           int
					TeamMemberships struct {
						TotalCount int
						PageInfo   struct {
							HasNextPage bool
							EndCursor   string
						}
						Edges []struct {
							Cursor string
							Node   struct {
								Team struct {
									ID, Title   string
									Members     int
									Permissions struct{ Admin, View bool }
								}
								Member struct{ Role string }
							}
						}
					}
				}
			}
		}
		roles := func(p gqlPage) string {
			var out []string
			for _, ed := range p.Organization.Member.TeamMemberships.Edges {
				out = append(out, ed.Node.Team.Title+":"+ed.Node.Member.Role)
			}
			return strings.Join(out, ",")
		}
		var p gqlPage
		e.gql(bob.Token, q, map[string]any{"o": o.id, "u": alice.ID, "first": 2}).ok(&p)
		tmm := p.Organization.Member.TeamMemberships
		if roles(p) != "Reviewers:MEMBER,Web Writers:MEMBER" || tmm.TotalCount != 3 || !tmm.PageInfo.HasNextPage || tmm.PageInfo.EndCursor != first.Next.Page || p.Organization.Member.Teams != 3 {
			t.Errorf("GraphQL first page = %s %+v, REST next %q", roles(p), tmm, first.Next.Page)
		}
		e.gql(alice.Token, q, map[string]any{"o": o.id, "u": alice.ID, "after": first.Next.Page}).ok(&p)
		if roles(p) != "Writers:OWNER" || !p.Organization.Member.TeamMemberships.Edges[0].Node.Team.Permissions.Admin {
			t.Errorf("GraphQL second page for alice = %s %+v", roles(p), p.Organization.Member.TeamMemberships.Edges)
		}
		e.gql(bob.Token, q, map[string]any{"o": o.id, "u": alice.ID, "title": "writ"}).ok(&p)
		if roles(p) != "Web Writers:MEMBER,Writers:OWNER" || p.Organization.Member.TeamMemberships.TotalCount != 2 {
			t.Errorf("GraphQL title filter = %s", roles(p))
		}
		e.gql(guest.Token, q, map[string]any{"o": o.id, "u": guest.ID}).ok(&p)
		if roles(p) != "Writers:MEMBER" || p.Organization.Member.Teams != 1 {
			t.Errorf("GraphQL guest's own = %s", roles(p))
		}
		user := func(id string) map[string]any { return map[string]any{"o": o.id, "u": id} }
		e.wantRefusals(q,
			gqlRefusal{"guest reading another", guest, user(alice.ID), "FORBIDDEN"},
			gqlRefusal{"outsider", stranger, user(alice.ID), "NOT_FOUND"},
			gqlRefusal{"other organization", otherAdmin, user(alice.ID), "NOT_FOUND"},
			gqlRefusal{"not a member", bob, user(stranger.ID), "NOT_FOUND"},
		)
	})
}

func TestTeamCountsStayTrue(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		bob := e.member(o.id, "bob@acme.test", "edit")
		one := o.create(o.admin.Token, "One", alice.ID, bob.ID)
		two := o.create(o.admin.Token, "Two", alice.ID)
		o.setRole(one.ID, bob.ID, "owner")

		// Member.teams: in the member, in the member list, in the team member list.
		wantTeams := func(step string, want map[account]int) {
			t.Helper()
			var l struct {
				Items []struct {
					ID    string
					Teams int
				}
			}
			e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/members", nil).want(http.StatusOK).decode(&l)
			listed := map[string]int{}
			for _, it := range l.Items {
				listed[it.ID] = it.Teams
			}
			for who, n := range want {
				if got := o.teamCount(who.ID); got != n || listed[who.ID] != n {
					t.Errorf("%s: %s is in %d teams (member list %d), want %d", step, who.Email, got, listed[who.ID], n)
				}
			}
		}
		wantTeams("joined", map[account]int{o.admin: 2, alice: 2, bob: 1})
		e.call(alice.Token, "DELETE", o.url("/"+one.ID+"/members/"+alice.ID), nil).want(http.StatusNoContent)
		wantTeams("alice left one", map[account]int{o.admin: 2, alice: 1, bob: 1})
		o.wantMembers("alice left one", one.ID, map[string]string{o.admin.Email: "owner", bob.Email: "owner"})
		e.call(o.admin.Token, "PUT", o.url("/"+two.ID+"/members"), map[string]any{"add": []string{bob.ID}, "remove": []string{alice.ID}}).want(http.StatusNoContent)
		wantTeams("bulk", map[account]int{o.admin: 2, alice: 0, bob: 2})
		e.call(o.admin.Token, "DELETE", o.url("/"+two.ID), nil).want(http.StatusNoContent)
		wantTeams("two deleted", map[account]int{o.admin: 1, alice: 0, bob: 1})

		// Team.spaces: the spaces the team has a role on, live ones only.
		s1, s2, s3 := o.space("S1"), o.space("S2"), o.space("S3")
		wantSpaces := func(step string, want int) {
			t.Helper()
			var data struct {
				Organization struct {
					Team  struct{ Spaces int }
					Teams struct{ Nodes []struct{ Spaces int } }
				}
			}
			e.gql(o.admin.Token, `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { spaces } teams { nodes { spaces } } } }`, map[string]any{"o": o.id, "t": one.ID}).ok(&data)
			var mt teamsMemberTeamPage
			e.call(bob.Token, "GET", "/orgs/"+o.id+"/members/"+bob.ID+"/teams", nil).want(http.StatusOK).decode(&mt)
			got := []int{o.get(bob.Token, one.ID).Spaces, o.list(bob.Token, "").Items[0].Spaces, data.Organization.Team.Spaces, data.Organization.Teams.Nodes[0].Spaces, mt.Items[0].Team.Spaces}
			for _, n := range got {
				if n != want {
					t.Errorf("%s: team spaces (GET, list, GraphQL team, GraphQL teams, member teams) = %v, want %d", step, got, want)
					break
				}
			}
		}
		wantSpaces("no grants", 0)
		o.grant(s1, "read", one.ID)
		o.grant(s2, "read", one.ID)
		wantSpaces("granted on two spaces", 2)
		o.grant(s1, "edit", one.ID)
		wantSpaces("a grant changed", 2)
		e.call(o.admin.Token, "DELETE", "/spaces/"+s2+"/permissions/teams/"+one.ID, nil).want(http.StatusNoContent)
		wantSpaces("a grant removed", 1)
		o.grant(s3, "comment", one.ID)
		wantSpaces("granted on a third", 2)
		e.call(o.admin.Token, "DELETE", "/spaces/"+s3, nil).want(http.StatusNoContent)
		wantSpaces("a space deleted", 1)
		e.call(o.admin.Token, "POST", "/spaces/"+s3+"/restore", nil).want(http.StatusOK)
		wantSpaces("the space restored", 2)
		// A grant on a collection reaches the spaces below it, at any depth; a grant on the
		// space itself or on two collections of its chain counts it once.
		outer := e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/collections", map[string]any{"title": "Outer"}).want(http.StatusCreated).object()["id"].(string)
		inner := e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/collections", map[string]any{"title": "Inner", "parent": outer}).want(http.StatusCreated).object()["id"].(string)
		for _, parent := range []string{outer, inner, inner} {
			e.call(o.admin.Token, "POST", "/orgs/"+o.id+"/spaces", map[string]any{"title": "Below", "parent": parent}).want(http.StatusCreated)
		}
		wantSpaces("spaces in collections, no grant", 2)
		e.call(o.admin.Token, "POST", "/collections/"+inner+"/permissions", map[string]any{"role": "read", "teams": []string{one.ID}}).want(http.StatusNoContent)
		wantSpaces("granted on the inner collection", 4)
		e.call(o.admin.Token, "POST", "/collections/"+outer+"/permissions", map[string]any{"role": "edit", "teams": []string{one.ID}}).want(http.StatusNoContent)
		wantSpaces("granted on both collections", 5)

		// Leaving the organization leaves its teams, for good.
		e.call(o.admin.Token, "DELETE", "/orgs/"+o.id+"/members/"+bob.ID, nil).want(http.StatusNoContent)
		o.wantMembers("bob left the organization", one.ID, map[string]string{o.admin.Email: "owner"})
		role := "read"
		if _, err := e.store.AddMember(t.Context(), o.id, bob.ID, &role, e.res.Now()); err != nil {
			t.Fatal(err)
		}
		wantTeams("bob back", map[account]int{o.admin: 1, bob: 0})
		o.wantMembers("bob back", one.ID, map[string]string{o.admin.Email: "owner"})
		// Leaving by oneself does the same.
		o.setRole(one.ID, alice.ID, "owner")
		e.call(alice.Token, "DELETE", "/orgs/"+o.id+"/members/"+alice.ID, nil).want(http.StatusNoContent)
		o.wantMembers("alice left the organization", one.ID, map[string]string{o.admin.Email: "owner"})
		if l := o.list(o.admin.Token, "?owner="+alice.ID); l.Count != 0 {
			t.Errorf("alice still owns %s", l.labels())
		}
	})
}

// Who may do what with a team: organization admins and the team's owners manage it; other
// insiders read it; guests neither; outsiders do not see it.
func TestWhoMayManageTeams(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		lead := e.member(o.id, "lead@acme.test", "create") // creates the teams, so owns them
		owner := e.member(o.id, "owner@acme.test", "read")
		plain := e.member(o.id, "plain@acme.test", "edit")
		victim := e.member(o.id, "victim@acme.test", "read")
		extra := e.member(o.id, "extra@acme.test", "read")
		outside := e.member(o.id, "outside@acme.test", "create")
		guest, stranger, _, otherAdmin := o.outsiders()

		// fresh makes a team owned by lead and owner, with plain, victim and guest as members.
		fresh := func() string {
			t.Helper()
			tm := o.create(lead.Token, "Team", owner.ID, plain.ID, victim.ID, guest.ID)
			e.call(lead.Token, "PUT", o.url("/"+tm.ID+"/members/"+owner.ID), `{"role":"owner"}`).want(http.StatusNoContent)
			return tm.ID
		}
		const (
			view   = iota // insiders
			manage        // organization admins and team owners
		)
		type op struct {
			name, method, suffix, body string
			ok                         int
			gql                        string
			kind                       int
		}
		ops := []op{
			{"get", "GET", "", "", http.StatusOK, `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { id } } }`, view},
			{"list members", "GET", "/members", "", http.StatusOK, `query($o: ID!, $t: ID!) { organization(id: $o) { team(id: $t) { memberList { totalCount } } } }`, view},
			{"rename", "PATCH", "", `{"title":"Renamed"}`, http.StatusOK, `mutation($o: ID!, $t: ID!) { updateTeam(organizationId: $o, teamId: $t, input: {title: "Renamed"}) { id } }`, manage},
			{"bulk update", "PUT", "/members", `{"add":["` + extra.ID + `"]}`, http.StatusNoContent,
				`mutation($o: ID!, $t: ID!, $x: String!) { updateTeamMembers(organizationId: $o, teamId: $t, input: {add: [$x]}) { id } }`, manage},
			{"set member", "PUT", "/members/" + victim.ID, `{"role":"owner"}`, http.StatusNoContent,
				`mutation($o: ID!, $t: ID!, $v: ID!) { setTeamMember(organizationId: $o, teamId: $t, userId: $v, input: {role: OWNER}) { id } }`, manage},
			{"remove member", "DELETE", "/members/" + victim.ID, "", http.StatusNoContent,
				`mutation($o: ID!, $t: ID!, $v: ID!) { removeTeamMember(organizationId: $o, teamId: $t, userId: $v) }`, manage},
			{"delete", "DELETE", "", "", http.StatusNoContent, `mutation($o: ID!, $t: ID!) { deleteTeam(organizationId: $o, teamId: $t) }`, manage},
		}
		for _, c := range []struct {
			name      string
			who       account
			canView   bool
			canManage bool
			denied    int // the status when not allowed
		}{
			{"organization admin", o.admin, true, true, 0},
			{"team owner", owner, true, true, 0},
			{"team creator", lead, true, true, 0},
			{"plain team member", plain, true, false, http.StatusForbidden},
			{"member outside the team", outside, true, false, http.StatusForbidden},
			{"guest in the team", guest, false, false, http.StatusForbidden},
			{"outsider", stranger, false, false, http.StatusNotFound},
			{"other organization's admin", otherAdmin, false, false, http.StatusNotFound},
		} {
			// REST.
			id := fresh()
			before := o.members(id)
			for _, op := range ops {
				allowed := c.canManage || (op.kind == view && c.canView)
				var body any
				if op.body != "" {
					body = op.body
				}
				res := e.call(c.who.Token, op.method, o.url("/"+id+op.suffix), body)
				if allowed {
					if res.Status != op.ok {
						t.Errorf("%s: REST %s = %d, want %d (%s)", c.name, op.name, res.Status, op.ok, res.Body)
					}
				} else {
					res.wantError(c.denied)
				}
			}
			if !c.canManage {
				if diff := cmp.Diff(before, o.members(id)); diff != "" || o.get(o.admin.Token, id).Title != "Team" {
					t.Errorf("%s: refused REST calls changed the team (-before +after):\n%s", c.name, diff)
				}
			} else {
				e.call(o.admin.Token, "GET", o.url("/"+id), nil).wantError(http.StatusNotFound)
			}

			// GraphQL.
			id = fresh()
			before = o.members(id)
			deniedCode := map[int]string{http.StatusForbidden: "FORBIDDEN", http.StatusNotFound: "NOT_FOUND"}[c.denied]
			for _, op := range ops {
				allowed := c.canManage || (op.kind == view && c.canView)
				g := e.gql(c.who.Token, op.gql, map[string]any{"o": o.id, "t": id, "v": victim.ID, "x": extra.ID})
				want := ""
				if !allowed {
					want = deniedCode
				}
				if got := teamsCode(g); got != want {
					t.Errorf("%s: GraphQL %s code %q, want %q (%+v)", c.name, op.name, got, want, g.Errors)
				}
			}
			if !c.canManage {
				if diff := cmp.Diff(before, o.members(id)); diff != "" || o.get(o.admin.Token, id).Title != "Team" {
					t.Errorf("%s: refused GraphQL calls changed the team (-before +after):\n%s", c.name, diff)
				}
			} else {
				e.call(o.admin.Token, "GET", o.url("/"+id), nil).wantError(http.StatusNotFound)
			}
		}

		// An owner who is demoted manages no more; a member who is promoted does.
		id := fresh()
		o.setRole(id, owner.ID, "member")
		e.call(owner.Token, "PATCH", o.url("/"+id), `{"title":"Mine"}`).wantError(http.StatusForbidden)
		if o.get(owner.Token, id).Permissions.Admin {
			t.Error("a demoted owner still has permissions.admin")
		}
		o.setRole(id, plain.ID, "owner")
		e.call(plain.Token, "PATCH", o.url("/"+id), `{"title":"Ours"}`).want(http.StatusOK)
		// Owners manage the team, not the organization's other teams.
		otherTeam := o.create(lead.Token, "Other Team", plain.ID)
		e.call(plain.Token, "PATCH", o.url("/"+otherTeam.ID), `{"title":"Mine"}`).wantError(http.StatusForbidden)
		// Owners may set roles, including demoting other owners.
		e.call(plain.Token, "PUT", o.url("/"+id+"/members"), map[string]any{"memberships": map[string]any{lead.ID: map[string]string{"role": "member"}}}).want(http.StatusNoContent)
		if got := o.members(id)[lead.Email]; got != "member" {
			t.Errorf("lead's role after the owner's demotion = %q", got)
		}
	})
}

// Any member may leave a team, guests included: they can be put in teams (and see their own
// teams), so they must be able to get out of them.
func TestGuestsMayLeaveTheirTeams(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		guest := e.member(o.id, "guest@acme.test", "guest")
		other := e.member(o.id, "other@acme.test", "guest")
		tm := o.create(o.admin.Token, "Writers", guest.ID, other.ID)
		// A guest still manages nobody else.
		e.call(guest.Token, "DELETE", o.url("/"+tm.ID+"/members/"+other.ID), nil).wantError(http.StatusForbidden)
		e.call(guest.Token, "DELETE", o.url("/"+tm.ID+"/members/"+guest.ID), nil).want(http.StatusNoContent)
		o.wantMembers("the guest left", tm.ID, map[string]string{o.admin.Email: "owner", other.Email: "member"})
		var removed struct{ RemoveTeamMember bool }
		e.gql(other.Token, `mutation($o: ID!, $t: ID!, $u: ID!) { removeTeamMember(organizationId: $o, teamId: $t, userId: $u) }`,
			map[string]any{"o": o.id, "t": tm.ID, "u": other.ID}).ok(&removed)
		if !removed.RemoveTeamMember {
			t.Error("GraphQL: a guest leaving = false, want true")
		}
		o.wantMembers("both guests left", tm.ID, map[string]string{o.admin.Email: "owner"})
	})
}

// Removing someone from a team that does not exist is a DELETE of something that does not exist:
// 204, like deleting the team itself (API-SPEC, rule 1), as long as the organization is visible.
func TestRemovingFromAMissingTeamIsIdempotent(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		alice := e.member(o.id, "alice@acme.test", "read")
		stranger := e.member("", "stranger@acme.test", "")
		tm := o.create(o.admin.Token, "Writers", alice.ID)
		e.call(o.admin.Token, "DELETE", o.url("/"+tm.ID), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", o.url("/"+tm.ID), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", o.url("/"+tm.ID+"/members/"+alice.ID), nil).want(http.StatusNoContent)
		e.call(alice.Token, "DELETE", o.url("/"+tm.ID+"/members/"+alice.ID), nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", o.url("/nope/members/"+alice.ID), nil).want(http.StatusNoContent)
		e.call(stranger.Token, "DELETE", o.url("/nope/members/"+stranger.ID), nil).wantError(http.StatusNotFound)
		var removed struct{ RemoveTeamMember bool }
		e.gql(o.admin.Token, `mutation($o: ID!, $t: ID!, $u: ID!) { removeTeamMember(organizationId: $o, teamId: $t, userId: $u) }`,
			map[string]any{"o": o.id, "t": tm.ID, "u": alice.ID}).ok(&removed)
		if removed.RemoveTeamMember {
			t.Error("GraphQL removeTeamMember from a deleted team = true")
		}
	})
}

// The team a mutation answers with carries the caller's permissions as they are after it.
func TestTeamMutationAnswersShowCurrentPermissions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		owner := e.member(o.id, "owner@acme.test", "read")
		tm := o.create(o.admin.Token, "Writers", owner.ID)
		o.setRole(tm.ID, owner.ID, "owner")
		var data struct {
			UpdateTeamMembers struct {
				Members     int
				Permissions struct{ Admin, View bool }
			}
		}
		e.gql(owner.Token, `mutation($o: ID!, $t: ID!, $u: ID!) { updateTeamMembers(organizationId: $o, teamId: $t, input: {roles: [{user: $u, role: MEMBER}]}) { members permissions { admin view } } }`,
			map[string]any{"o": o.id, "t": tm.ID, "u": owner.ID}).ok(&data)
		if got := data.UpdateTeamMembers; got.Members != 2 || got.Permissions.Admin || !got.Permissions.View {
			t.Errorf("owner demoting themself gets %+v, want admin false", got)
		}
		if o.get(owner.Token, tm.ID).Permissions.Admin {
			t.Error("after demoting themself the former owner still manages the team")
		}
		// The admin makes them owner again; they demote themself through setTeamMember.
		o.setRole(tm.ID, owner.ID, "owner")
		var set struct {
			SetTeamMember struct{ Permissions struct{ Admin bool } }
		}
		e.gql(owner.Token, `mutation($o: ID!, $t: ID!, $u: ID!) { setTeamMember(organizationId: $o, teamId: $t, userId: $u, input: {role: MEMBER}) { permissions { admin } } }`,
			map[string]any{"o": o.id, "t": tm.ID, "u": owner.ID}).ok(&set)
		if set.SetTeamMember.Permissions.Admin {
			t.Error("setTeamMember: an owner demoting themself gets permissions.admin true")
		}
	})
}

// Listing teams and team members costs the same statements whatever their number.
func TestTeamListStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := teamsNewOrg(e)
		tm := o.create(o.admin.Token, "Team 00")
		s := o.space("Shared")
		count := func() [4]int64 {
			var c [4]int64
			for i, req := range []func(*atomic.Int64){
				func(n *atomic.Int64) {
					e.callCounted(o.admin.Token, "GET", o.url("?limit=1000"), nil, n).want(http.StatusOK)
				},
				func(n *atomic.Int64) {
					e.callCounted(o.admin.Token, "GET", o.url("/"+tm.ID+"/members?limit=1000"), nil, n).want(http.StatusOK)
				},
				func(n *atomic.Int64) {
					e.callCounted(o.admin.Token, "GET", "/orgs/"+o.id+"/members/"+o.admin.ID+"/teams?limit=1000", nil, n).want(http.StatusOK)
				},
				func(n *atomic.Int64) {
					e.gqlCounted(o.admin.Token, `query($o: ID!, $t: ID!) { organization(id: $o) {
						teams(first: 1000) { nodes { id members spaces permissions { admin view } } }
						team(id: $t) { memberList(first: 1000) { nodes { organization { teams spaces user { email } } team { role } } } } } }`,
						map[string]any{"o": o.id, "t": tm.ID}, n).ok(nil)
				},
			} {
				var n atomic.Int64
				req(&n)
				c[i] = n.Load()
			}
			return c
		}
		few := count()
		var ids []string
		for i := 1; i < 40; i++ {
			m := e.member(o.id, fmt.Sprintf("m%02d@acme.test", i), "read")
			ids = append(ids, m.ID)
			other := o.create(o.admin.Token, fmt.Sprintf("Team %02d", i), m.ID)
			o.grant(s, "read", other.ID)
		}
		e.call(o.admin.Token, "PUT", o.url("/"+tm.ID+"/members"), map[string]any{"add": ids}).want(http.StatusNoContent)
		many := count()
		for i, name := range []string{"REST teams", "REST team members", "REST member teams", "GraphQL teams and members"} {
			if many[i] != few[i] {
				t.Errorf("%s: statements grew with teams and members: %d → %d", name, few[i], many[i])
			}
		}
	})
}

func TestCreateTeamNamesMembersByEmail(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		ada := e.member(orgID, "ada@acme.test", "read")
		team := e.call(admin.Token, "PUT", "/orgs/"+orgID+"/teams", `{"title":"Writers","members":["ADA@acme.test"]}`).want(http.StatusCreated).object()
		if team["members"] != float64(2) {
			t.Errorf("members = %v, want the creator and ada", team["members"])
		}
		var list struct {
			Items []struct{ Organization struct{ ID string } }
		}
		e.call(admin.Token, "GET", "/orgs/"+orgID+"/teams/"+team["id"].(string)+"/members", nil).want(http.StatusOK).decode(&list)
		found := false
		for _, m := range list.Items {
			found = found || m.Organization.ID == ada.ID
		}
		if !found {
			t.Errorf("ada is not in the team: %+v", list.Items)
		}
		if msg := e.call(admin.Token, "PUT", "/orgs/"+orgID+"/teams", `{"title":"Ghosts","members":["ghost@acme.test"]}`).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "members[0]") {
			t.Errorf("unknown member message = %q", msg)
		}
		var data struct{ CreateTeam struct{ Members int } }
		e.gql(admin.Token, `mutation($o: ID!) { createTeam(organizationId: $o, input: {title: "Via GraphQL", members: ["ada@acme.test"]}) { members } }`, map[string]any{"o": orgID}).ok(&data)
		if data.CreateTeam.Members != 2 {
			t.Errorf("GraphQL team members = %d, want 2", data.CreateTeam.Members)
		}
	})
}
