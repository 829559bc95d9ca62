package authz

import (
	"context"
	"testing"

	"github.com/bindery/bindery/domain/model"
)

func role(r model.MemberRole) *model.MemberRole      { return &r }
func level(l model.DefaultLevel) *model.DefaultLevel { return &l }

func TestEffectiveRolePrecedence(t *testing.T) {
	inherit := level(model.DefaultLevelInherit)
	// collection outer ⊃ collection inner ⊃ space s; space root sits at the organization's root.
	tree := func(outer, inner *model.DefaultLevel) map[string]*Node {
		return map[string]*Node{
			"outer": {ID: "outer", DefaultLevel: outer},
			"inner": {ID: "inner", Parent: "outer", DefaultLevel: inner},
		}
	}
	nested := Node{ID: "s", Parent: "inner", DefaultLevel: inherit}
	user := func(target string, r model.MemberRole) Grant { return Grant{"space", target, "user", "u", r} }
	team := func(kind, target, id string, r model.MemberRole) Grant { return Grant{kind, target, "team", id, r} }

	for _, tt := range []struct {
		name  string
		acc   Access
		space Node
		want  *model.MemberRole
	}{
		{"not a member", Access{}, nested, nil},
		{"the organization role, inherited through two collections", Access{Member: true, OrgRole: role("edit")}, nested, role("edit")},
		{"admins are admins whatever the grants", Access{UserID: "u", Member: true, OrgRole: role("admin"), Grants: []Grant{user("s", "read")}}, nested, role("admin")},
		{"a lower direct grant wins over the organization role", Access{UserID: "u", Member: true, OrgRole: role("edit"), Grants: []Grant{user("s", "read")}}, nested, role("read")},
		{"a direct grant wins over a higher team grant", Access{UserID: "u", Member: true, OrgRole: role("read"), Teams: map[string]bool{"t": true},
			Grants: []Grant{team("space", "s", "t", "admin"), user("s", "comment")}}, nested, role("comment")},
		{"the highest of the user's team grants", Access{UserID: "u", Member: true, OrgRole: role("read"), Teams: map[string]bool{"t1": true, "t2": true},
			Grants: []Grant{team("space", "s", "t1", "review"), team("space", "s", "t2", "edit"), team("space", "s", "t3", "admin")}}, nested, role("edit")},
		{"the space's own default level beats its collections", Access{Member: true, OrgRole: role("read"), Collections: tree(level("admin"), inherit)},
			Node{ID: "s", Parent: "inner", DefaultLevel: level("comment")}, role("comment")},
		{"a closed space (null default) hides from members without a grant", Access{Member: true, OrgRole: role("edit")}, Node{ID: "s", DefaultLevel: nil}, nil},
		{"a collection's default level flows down two levels", Access{Member: true, OrgRole: role("read"), Collections: tree(level("edit"), inherit)}, nested, role("edit")},
		{"the nearest collection decides", Access{Member: true, OrgRole: role("read"), Collections: tree(level("edit"), level("review"))}, nested, role("review")},
		{"a closed collection closes what inherits from it", Access{Member: true, OrgRole: role("edit"), Collections: tree(inherit, nil)}, nested, nil},
		{"a team grant on the outer collection reaches the space", Access{UserID: "u", Member: true, OrgRole: role("read"), Teams: map[string]bool{"t": true},
			Collections: tree(inherit, inherit), Grants: []Grant{team("collection", "outer", "t", "create")}}, nested, role("create")},
		{"guests see nothing by default", Access{UserID: "u", Member: true, Collections: tree(level("edit"), inherit)}, nested, nil},
		{"guests see what is granted to them on a collection", Access{UserID: "u", Member: true, Collections: tree(inherit, inherit),
			Grants: []Grant{{"collection", "outer", "user", "u", "comment"}}}, nested, role("comment")},
		{"guests ignore closed default levels on the way to a grant", Access{UserID: "u", Member: true, Collections: tree(inherit, nil),
			Grants: []Grant{{"collection", "outer", "user", "u", "read"}}}, nested, role("read")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.acc.Collections == nil {
				tt.acc.Collections = tree(inherit, inherit)
			}
			got := tt.acc.SpaceRole(tt.space)
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("SpaceRole = %v, want %v", show(got), show(tt.want))
			}
		})
	}
}

func show(r *model.MemberRole) string {
	if r == nil {
		return "none"
	}
	return string(*r)
}

func TestContentPermissionsFollowRoles(t *testing.T) {
	if p := SpacePermissions(nil); p != (model.SpacePermissions{}) {
		t.Errorf("no role: %+v", p)
	}
	p := SpacePermissions(role("review"))
	if !p.View || !p.Comment || !p.Review || p.Edit || p.Merge || p.Admin {
		t.Errorf("review: %+v", p)
	}
	if c := CollectionPermissions(role("create")); !c.View || !c.Create || c.Admin {
		t.Errorf("create on a collection: %+v", c)
	}
}

// An Access that carries its token's limit gives the capped role on spaces, collections and the
// organization; without a limit, the user's own.
func TestAccessAppliesItsTokenLimit(t *testing.T) {
	admin := Access{UserID: "u", Member: true, OrgRole: role("admin")}
	space, collection := Node{ID: "s", DefaultLevel: level(model.DefaultLevelInherit)}, Node{ID: "c", DefaultLevel: level(model.DefaultLevelInherit)}
	for _, tt := range []struct {
		name                  string
		limit                 *Limit
		space, coll, orgRoles *model.MemberRole
	}{
		{"no limit", nil, role("admin"), role("admin"), role("admin")},
		{"read scope", &Limit{Scopes: []string{ScopeRead}}, role("read"), role("read"), role("read")},
		{"content write scope", &Limit{Scopes: []string{ScopeSpaceContentWrite}}, role("edit"), role("read"), nil},
		{"confined to another space", &Limit{Scopes: []string{ScopeSpaceContentWrite}, Spaces: map[string]bool{"other": true}}, nil, nil, nil},
		{"no scope that reaches content", &Limit{Scopes: []string{ScopeOpenAPIRead}}, nil, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := admin
			a.Limit = tt.limit
			for _, got := range []struct {
				what      string
				got, want *model.MemberRole
			}{{"space", a.SpaceRole(space), tt.space}, {"collection", a.CollectionRole(collection), tt.coll}, {"organization", a.OrganizationRole(), tt.orgRoles}} {
				if (got.got == nil) != (got.want == nil) || (got.got != nil && *got.got != *got.want) {
					t.Errorf("%s role = %v, want %v", got.what, deref(got.got), deref(got.want))
				}
			}
		})
	}
}

// A corrupt collection tree (a cycle) ends the walk up the parents instead of recursing forever.
func TestEffectiveRoleSurvivesACollectionCycle(t *testing.T) {
	inherit := level(model.DefaultLevelInherit)
	a := Access{Member: true, OrgRole: role("comment"), Collections: map[string]*Node{
		"a": {ID: "a", Parent: "b", DefaultLevel: inherit},
		"b": {ID: "b", Parent: "a", DefaultLevel: inherit},
	}}
	if got := a.SpaceRole(Node{ID: "s", Parent: "a", DefaultLevel: inherit}); got == nil || *got != "comment" {
		t.Errorf("role under a cycle = %v, want the organization role", deref(got))
	}
}

func TestRequireActor(t *testing.T) {
	if _, err := RequireActor(context.Background()); err == nil {
		t.Error("no actor: no error")
	}
	want := &Actor{UserID: "u"}
	if got, err := RequireActor(WithActor(context.Background(), want)); err != nil || got != want {
		t.Errorf("RequireActor = %v, %v", got, err)
	}
	if !(*Limit)(nil).Allows(ScopeOpenAPIWrite) || (&Limit{Scopes: []string{ScopeRead}}).Allows(ScopeOpenAPIWrite) {
		t.Error("Allows: an unlimited token is limited, or a read token may write")
	}
}

func deref(r *model.MemberRole) string {
	if r == nil {
		return "none"
	}
	return string(*r)
}
