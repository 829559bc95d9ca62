package authz

import (
	"testing"

	"github.com/bindery/bindery/domain/model"
)

func TestRolesAreOrdered(t *testing.T) {
	for i, higher := range model.MemberRoles {
		for _, lower := range model.MemberRoles[i:] {
			if !AtLeast(&higher, lower) {
				t.Errorf("%s should grant at least %s", higher, lower)
			}
		}
		if AtLeast(nil, model.MemberRoleRead) {
			t.Error("a guest should not rank as a reader")
		}
	}
	read := model.MemberRoleRead
	if AtLeast(&read, model.MemberRoleComment) {
		t.Error("read should not grant comment")
	}
}

func TestOrganizationPermissions(t *testing.T) {
	role := func(r model.MemberRole) *model.MemberRole { return &r }
	for _, tt := range []struct {
		name   string
		member bool
		role   *model.MemberRole
		want   model.OrganizationPermissions
	}{
		{"not a member", false, nil, model.OrganizationPermissions{}},
		{"guest", true, nil, model.OrganizationPermissions{View: true}},
		{"reader", true, role(model.MemberRoleRead), model.OrganizationPermissions{View: true, ListMembers: true, ListTeams: true, ListIntegrations: true}},
		{"creator", true, role(model.MemberRoleCreate), model.OrganizationPermissions{View: true, ListMembers: true, ListTeams: true, ListIntegrations: true, OwnTeam: true, CreateContent: true, CreateOpenAPISpec: true}},
		{"admin", true, role(model.MemberRoleAdmin), model.OrganizationPermissions{View: true, Admin: true, OwnTeam: true, CreateContent: true, CreateOpenAPISpec: true, IngestConversations: true, ViewBilling: true, ListMembers: true, ListTeams: true, ListIntegrations: true, ListInstallations: true, InstallIntegration: true}},
	} {
		if got := OrganizationPermissions(tt.member, tt.role); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
