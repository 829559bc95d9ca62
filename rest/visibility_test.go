package rest_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// The spaces list is decided in SQL and a space read alone from its own chain
// (docs/permissions.md, "Deciding in SQL"); the engine, run over the whole organization as it
// was before, is the oracle. Random organizations (collection trees, default levels, user and
// team grants, guests, trashed spaces) are read by every kind of member through both, then
// changed in every way that moves visibility, and read again.

// oracleRoles runs the permission engine over the whole organization for one user, as access
// was decided before SQL did: every collection, the user's teams and grants, every live space.
func oracleRoles(t *testing.T, e *env, orgID, userID string) (order []string, roles map[string]string) {
	t.Helper()
	ctx := context.Background()
	members, err := e.store.MembershipsIn(ctx, userID, []string{orgID})
	if err != nil {
		t.Fatal(err)
	}
	a := &authz.Access{UserID: userID, Teams: map[string]bool{}, Collections: map[string]*authz.Node{}}
	if m := members[orgID]; m != nil {
		a.Member, a.OrgRole = true, (*model.MemberRole)(m.Role)
	}
	collections, err := e.store.CollectionsIn(ctx, orgID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range collections {
		parent := ""
		if c.ParentID != nil {
			parent = *c.ParentID
		}
		a.Collections[c.ID] = &authz.Node{ID: c.ID, Parent: parent, DefaultLevel: (*model.DefaultLevel)(c.DefaultLevel)}
	}
	teams, err := e.store.TeamMembershipsIn(ctx, orgID, []string{userID})
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range teams {
		a.Teams[tm.TeamID] = true
	}
	grants, err := e.store.GrantsIn(ctx, orgID, []string{userID})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range grants {
		a.Grants = append(a.Grants, authz.Grant{TargetKind: g.TargetKind, TargetID: g.TargetID, PrincipalKind: g.PrincipalKind, PrincipalID: g.PrincipalID, Role: model.MemberRole(g.Role)})
	}
	spaces, err := e.store.SpacesIn(ctx, orgID)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(spaces, func(x, y *storage.Space) int { // newest first, as the list
		if c := y.CreatedAt.Compare(x.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(y.ID, x.ID)
	})
	roles = map[string]string{}
	for _, s := range spaces {
		parent := ""
		if s.CollectionID != nil {
			parent = *s.CollectionID
		}
		if role := a.SpaceRole(authz.Node{ID: s.ID, Parent: parent, DefaultLevel: (*model.DefaultLevel)(s.DefaultLevel)}); role != nil {
			roles[s.ID] = string(*role)
			order = append(order, s.ID)
		}
	}
	return order, roles
}

// listedIDs reads every page of the organization's spaces through REST (pages of limit) and
// through GraphQL, checks the two agree with each other and with their counts, and returns the
// ids in order.
func listedIDs(t *testing.T, e *env, token, orgID string, limit int) []string {
	t.Helper()
	var ids []string
	url := fmt.Sprintf("/orgs/%s/spaces?limit=%d", orgID, limit)
	for range 50 {
		var l spaceList
		e.call(token, "GET", url, nil).want(http.StatusOK).decode(&l)
		for _, it := range l.Items {
			ids = append(ids, it.ID)
		}
		if l.Next == nil {
			if l.Count != len(ids) {
				t.Errorf("REST count = %d, listed %d", l.Count, len(ids))
			}
			break
		}
		url = fmt.Sprintf("/orgs/%s/spaces?limit=%d&page=%s", orgID, limit, l.Next.Page)
	}
	var data struct {
		Organization struct {
			Spaces struct {
				TotalCount int
				Nodes      []struct{ ID string }
			}
		}
	}
	e.gql(token, `query($o: ID!) { organization(id: $o) { spaces(first: 1000) { totalCount nodes { id } } } }`, map[string]any{"o": orgID}).ok(&data)
	var gql []string
	for _, n := range data.Organization.Spaces.Nodes {
		gql = append(gql, n.ID)
	}
	if !slices.Equal(gql, ids) || data.Organization.Spaces.TotalCount != len(ids) {
		t.Errorf("GraphQL lists %v (totalCount %d), REST %v", gql, data.Organization.Spaces.TotalCount, ids)
	}
	return ids
}

// randomOrg is an organization built at random, with the handles to change it.
type randomOrg struct {
	*contentOrg
	rnd         *rand.Rand
	users       []account
	teams       []string
	collections []string
	spaces      []string // every space, trashed ones too
	live        []string // the spaces not in the trash
}

var levels = []string{`"inherit"`, `"inherit"`, `"inherit"`, "null", `"read"`, `"comment"`, `"review"`, `"edit"`, `"admin"`}
var grantRoles = []string{"read", "comment", "review", "edit", "create", "admin"}

func (o *randomOrg) pick(ids []string) string { return ids[o.rnd.IntN(len(ids))] }

// randomLevel sets a random default level on content, or leaves it (inherit) half the time.
func (o *randomOrg) randomLevel(path string) {
	if o.rnd.IntN(2) == 0 {
		o.level(path, levels[o.rnd.IntN(len(levels))])
	}
}

// randomGrant gives a random user or team a random role on random content.
func (o *randomOrg) randomGrant() {
	path := "/spaces/" + o.pick(o.live)
	if o.rnd.IntN(2) == 0 && len(o.collections) > 0 {
		path = "/collections/" + o.pick(o.collections)
	}
	role := grantRoles[o.rnd.IntN(len(grantRoles))]
	if o.rnd.IntN(2) == 0 {
		o.grantTeams(path, role, o.pick(o.teams))
	} else {
		o.grantUsers(path, role, o.users[o.rnd.IntN(len(o.users))])
	}
}

func newRandomOrg(e *env, seed uint64) *randomOrg {
	o := &randomOrg{contentOrg: newContentOrg(e), rnd: rand.New(rand.NewPCG(seed, 11))}
	for i, role := range []string{"create", "edit", "comment", "read", "read", "guest", "guest"} {
		o.users = append(o.users, e.member(o.id, fmt.Sprintf("u%d@acme.test", i), role))
	}
	for i := range 4 {
		var in []account
		for _, u := range o.users {
			if o.rnd.IntN(3) == 0 {
				in = append(in, u)
			}
		}
		o.teams = append(o.teams, o.team(fmt.Sprintf("Team %d", i), in...))
	}
	for i := range 9 {
		parent := ""
		if len(o.collections) > 0 && o.rnd.IntN(3) > 0 {
			parent = o.pick(o.collections)
		}
		id := o.collection(parent, fmt.Sprintf("C%d", i))
		o.randomLevel("/collections/" + id)
		o.collections = append(o.collections, id)
	}
	for i := range 24 {
		parent := ""
		if o.rnd.IntN(4) > 0 {
			parent = o.pick(o.collections)
		}
		id := o.space(parent, fmt.Sprintf("S%d", i))
		o.randomLevel("/spaces/" + id)
		o.spaces = append(o.spaces, id)
	}
	o.live = slices.Clone(o.spaces)
	for range 24 {
		o.randomGrant()
	}
	for range 2 {
		gone := o.pick(o.live)
		e.call(o.admin.Token, "DELETE", "/spaces/"+gone, nil).want(http.StatusNoContent)
		o.live = slices.DeleteFunc(o.live, func(id string) bool { return id == gone })
	}
	return o
}

// check compares what every user lists and reads with the oracle; pointReads also reads every
// space alone, through both doors.
func (o *randomOrg) check(t *testing.T, what string, pointReads bool) {
	t.Helper()
	for _, u := range append([]account{o.admin}, o.users...) {
		order, roles := oracleRoles(t, o.e, o.id, u.ID)
		if got := listedIDs(t, o.e, u.Token, o.id, 5); !slices.Equal(got, order) {
			t.Errorf("%s: %s lists %v, the engine says %v", what, u.Email, got, order)
		}
		if pointReads {
			for _, id := range o.spaces {
				o.wantSpaceRole(t, u, what, id, roles[id])
			}
		}
	}
}

func TestSpaceVisibilityInSQLAgreesWithTheEngine(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			eachDB(t, func(t *testing.T, e *env) {
				o := newRandomOrg(e, seed)
				o.check(t, "built at random", true)

				// Every change that moves visibility: default levels up and down the tree, a
				// collection deleted (its content moves up), grants taken and given, team
				// membership, organization roles.
				for range 3 {
					o.randomLevel("/collections/" + o.pick(o.collections))
					o.randomLevel("/spaces/" + o.pick(o.live))
				}
				gone := o.pick(o.collections)
				e.call(o.admin.Token, "DELETE", "/collections/"+gone, nil).want(http.StatusNoContent)
				o.collections = slices.DeleteFunc(o.collections, func(id string) bool { return id == gone })
				for range 6 {
					o.randomGrant()
				}
				// A space back from the trash counts again (space_counts, kept by triggers).
				for _, id := range o.spaces {
					if !slices.Contains(o.live, id) {
						e.call(o.admin.Token, "POST", "/spaces/"+id+"/restore", nil).want(http.StatusOK)
						o.live = append(o.live, id)
						break
					}
				}
				u := o.users[o.rnd.IntN(len(o.users))]
				e.call(o.admin.Token, "DELETE", "/orgs/"+o.id+"/teams/"+o.pick(o.teams)+"/members/"+u.ID, nil)
				e.call(o.admin.Token, "PATCH", "/orgs/"+o.id+"/members/"+o.users[5].ID, `{"role":"read"}`).want(http.StatusOK)
				e.call(o.admin.Token, "PATCH", "/orgs/"+o.id+"/members/"+o.users[1].ID, `{"role":null}`).want(http.StatusOK)
				o.check(t, "after changes", true)

				// What storage keeps in step is what it would compute afresh.
				if err := e.store.RebuildVisibility(context.Background(), o.id); err != nil {
					t.Fatal(err)
				}
				o.check(t, "after a rebuild", false)
			})
		})
	}
}

func TestConfinedTokensListOnlyTheirSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		for i := range 3 {
			o.space("", fmt.Sprintf("S%d", i))
		}
		readToken, spaceToken := e.matrixTokens(o.admin, o.id)
		all := listedIDs(t, e, o.admin.Token, o.id, 2)
		if got := listedIDs(t, e, readToken.Token, o.id, 2); !slices.Equal(got, all) || len(all) != 4 {
			t.Errorf("a read-scoped token lists %v, its user %v (want 4)", got, all)
		}
		got := listedIDs(t, e, spaceToken.Token, o.id, 2)
		if len(got) != 1 || got[0] != all[0] { // the newest: the installation's own space
			t.Errorf("an installation token lists %v, want only its space %s", got, all[0])
		}
	})
}
