package authz

import "github.com/bindery/bindery/domain/model"

// The permission engine: one function decides a user's effective role on a space or collection,
// and every permissions object and every resolver guard asks it. docs/permissions.md explains
// the rules; in short, the most specific decision wins (not the highest role):
//
//  1. Organization admins are admins of all content.
//  2. A grant on the content itself: the user's own grant, else the highest of their teams'.
//  3. The content's default level, unless it is "inherit" (members with a role only).
//  4. The same questions of the parent collection, up the tree.
//  5. The member's organization role (guests have none).

// Node is a space or collection as access sees it.
type Node struct {
	ID           string
	Parent       string // collection id, "" at the organization's root
	DefaultLevel *model.DefaultLevel
}

// Grant is a role given to a user or team on a space or collection.
type Grant struct {
	TargetKind, TargetID       string // "space" or "collection"
	PrincipalKind, PrincipalID string // "user" or "team"
	Role                       model.MemberRole
}

// Access holds what decides one user's roles in one organization.
type Access struct {
	UserID      string
	Member      bool
	OrgRole     *model.MemberRole
	Teams       map[string]bool  // the user's teams
	Grants      []Grant          // grants that reach the user (their own and their teams')
	Collections map[string]*Node // the organization's collection tree
	// Limit caps the roles below for a scoped token (nil: none). Only the viewer's access
	// carries one; another user's access, computed to show their roles, never does.
	Limit *Limit
}

// SpaceRole is the user's effective role on a space (nil: no access).
func (a *Access) SpaceRole(space Node) *model.MemberRole {
	role := a.roleOn("space", space, 0)
	if a != nil && a.Limit != nil {
		return a.Limit.SpaceRole(space.ID, role)
	}
	return role
}

// CollectionRole is the user's effective role on a collection (nil: no access).
func (a *Access) CollectionRole(c Node) *model.MemberRole {
	role := a.roleOn("collection", c, 0)
	if a != nil && a.Limit != nil {
		return a.Limit.CollectionRole(role)
	}
	return role
}

// OrganizationRole is the member's organization role as the token may use it, for rules that
// ask the organization role directly.
func (a *Access) OrganizationRole() *model.MemberRole {
	if a.Limit != nil {
		return a.Limit.OrganizationRole(a.OrgRole)
	}
	return a.OrgRole
}

func (a *Access) roleOn(kind string, n Node, depth int) *model.MemberRole {
	if a == nil || !a.Member {
		return nil
	}
	if AtLeast(a.OrgRole, model.MemberRoleAdmin) {
		admin := model.MemberRoleAdmin
		return &admin
	}
	if r := a.grantOn(kind, n.ID); r != nil {
		return r
	}
	guest := a.OrgRole == nil
	if !guest && n.DefaultLevel != nil && *n.DefaultLevel != model.DefaultLevelInherit {
		role := model.MemberRole(*n.DefaultLevel)
		return &role
	}
	if !guest && n.DefaultLevel == nil {
		return nil // the content is closed to members without a grant
	}
	if parent, ok := a.Collections[n.Parent]; ok && depth < 64 { // depth guards a corrupt cycle
		return a.roleOn("collection", *parent, depth+1)
	}
	return a.OrgRole
}

// grantOn returns the user's own grant on a target, else the highest of their teams' grants.
func (a *Access) grantOn(kind, id string) *model.MemberRole {
	var best *model.MemberRole
	for i := range a.Grants {
		g := &a.Grants[i]
		if g.TargetKind != kind || g.TargetID != id {
			continue
		}
		if g.PrincipalKind == "user" && g.PrincipalID == a.UserID {
			return &g.Role
		}
		if g.PrincipalKind == "team" && a.Teams[g.PrincipalID] && (best == nil || rank[g.Role] > rank[*best]) {
			best = &g.Role
		}
	}
	return best
}

// SpacePermissions are what a role allows on a space.
func SpacePermissions(role *model.MemberRole) model.SpacePermissions {
	return model.SpacePermissions{
		View:               AtLeast(role, model.MemberRoleRead),
		Access:             AtLeast(role, model.MemberRoleRead),
		Admin:              AtLeast(role, model.MemberRoleAdmin),
		ViewInviteLinks:    AtLeast(role, model.MemberRoleAdmin),
		Edit:               AtLeast(role, model.MemberRoleEdit),
		TriggerGitSync:     AtLeast(role, model.MemberRoleEdit),
		Comment:            AtLeast(role, model.MemberRoleComment),
		Merge:              AtLeast(role, model.MemberRoleEdit),
		Review:             AtLeast(role, model.MemberRoleReview),
		InstallIntegration: AtLeast(role, model.MemberRoleAdmin),
	}
}

// CollectionPermissions are what a role allows on a collection.
func CollectionPermissions(role *model.MemberRole) model.CollectionPermissions {
	return model.CollectionPermissions{
		View:            AtLeast(role, model.MemberRoleRead),
		Admin:           AtLeast(role, model.MemberRoleAdmin),
		ViewInviteLinks: AtLeast(role, model.MemberRoleAdmin),
		Create:          AtLeast(role, model.MemberRoleCreate),
	}
}
