package authz

import (
	"context"
	"testing"

	"github.com/bindery/bindery/domain/model"
)

func TestLimitCapsRoles(t *testing.T) {
	admin := role(model.MemberRoleAdmin)
	read := &Limit{Scopes: []string{ScopeRead}}
	write := &Limit{Scopes: []string{ScopeSpaceContentWrite}, Organization: "o1", Spaces: map[string]bool{"s1": true}}
	none := &Limit{Scopes: []string{"site:views:read"}}
	cases := []struct {
		name string
		got  *model.MemberRole
		want *model.MemberRole
	}{
		{"unlimited keeps the role", (*Limit)(nil).SpaceRole("s1", admin), admin},
		{"read caps an admin to read", read.SpaceRole("s1", admin), role(model.MemberRoleRead)},
		{"read gives no role to someone without one", read.SpaceRole("s1", nil), nil},
		{"a write scope caps at edit", write.SpaceRole("s1", admin), role(model.MemberRoleEdit)},
		{"a write scope never raises a role", write.SpaceRole("s1", role(model.MemberRoleComment)), role(model.MemberRoleComment)},
		{"confined: other spaces are unseen", write.SpaceRole("s2", admin), nil},
		{"confined: collections are unseen", write.CollectionRole(admin), nil},
		{"read reads collections", read.CollectionRole(admin), role(model.MemberRoleRead)},
		{"a scope Bindery does not serve allows nothing", none.SpaceRole("s1", admin), nil},
		{"organization role under read", read.OrganizationRole(admin), role(model.MemberRoleRead)},
		{"organization role of a space token", write.OrganizationRole(admin), nil},
	}
	for _, c := range cases {
		if (c.got == nil) != (c.want == nil) || (c.got != nil && *c.got != *c.want) {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if write.InOrganization("o2") || !write.InOrganization("o1") || !read.InOrganization("o2") {
		t.Error("organization confinement")
	}
}

func TestLimitMasksOrganizationPermissions(t *testing.T) {
	all := OrganizationPermissions(true, role(model.MemberRoleAdmin))
	p := (&Limit{Scopes: []string{ScopeRead}}).OrganizationPermissions(all)
	if !p.View || !p.ListMembers || p.Admin || p.CreateContent || p.CreateOpenAPISpec || p.InstallIntegration || p.OwnTeam {
		t.Errorf("read: %+v", p)
	}
	p = (&Limit{Scopes: []string{ScopeOpenAPIWrite}}).OrganizationPermissions(all)
	if !p.View || p.ListMembers || !p.CreateOpenAPISpec || p.Admin {
		t.Errorf("openapi:write: %+v", p)
	}
	if (*Limit)(nil).OrganizationPermissions(all) != all {
		t.Error("unlimited tokens keep every permission")
	}
}

func TestOwnershipNeedsAnUnlimitedToken(t *testing.T) {
	ctx := WithActor(context.Background(), &Actor{UserID: "u"})
	if err := RequireUnlimited(ctx, "x"); err != nil {
		t.Errorf("unlimited: %v", err)
	}
	ctx = WithActor(context.Background(), &Actor{UserID: "u", Limit: &Limit{Scopes: []string{ScopeRead, ScopeSpaceContentWrite}}})
	if err := RequireUnlimited(ctx, "leaving a team"); err == nil {
		t.Error("a scoped token used an ownership rule")
	}
}

// SpaceReach, which lists decided in SQL use, must leave exactly the spaces SpaceRole leaves.
func TestSpaceReachAgreesWithSpaceRole(t *testing.T) {
	admin := role(model.MemberRoleAdmin)
	limits := []*Limit{nil, {Scopes: []string{ScopeRead}}, {Scopes: []string{"site:views:read"}}, {Scopes: []string{ScopeOpenAPIRead}},
		{Scopes: []string{ScopeSpaceMetadataRead}}, {Scopes: []string{ScopeSpaceContentWrite}, Spaces: map[string]bool{"s1": true}},
		{Scopes: []string{ScopeSpaceContentRead}, Spaces: map[string]bool{}}}
	for i, l := range limits {
		reads, only := l.SpaceReach()
		for _, id := range []string{"s1", "s2"} {
			want := l.SpaceRole(id, admin) != nil
			if got := reads && (only == nil || only[id]); got != want {
				t.Errorf("limit %d, space %s: SpaceReach reads %v, SpaceRole reads %v", i, id, got, want)
			}
		}
	}
}
