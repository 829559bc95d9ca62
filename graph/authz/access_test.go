package authz

import (
	"testing"

	"github.com/bindery/bindery/graph/model"
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
