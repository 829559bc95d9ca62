package domain

import (
	"context"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// orgAccess is what decides one user's roles in one organization, with the rows it was built
// from that lists reuse (the collection tree, the user's team roles).
type orgAccess struct {
	*authz.Access
	collections []*storage.Collection
	teamRoles   map[string]string // team id → "owner" or "member"
}

// viewerAccess loads the caller's access to an organization once per request: their membership,
// then their grants, teams and the collection tree in one statement. A non-member gets an
// access that grants nothing.
func (r *App) viewerAccess(ctx context.Context, orgID string) (*orgAccess, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	return stateOf(ctx).access.get(orgID, func() (*orgAccess, error) {
		m, err := loader.For(ctx, r.Store).Membership.Find(ctx, orgID)
		if err != nil && apperr.KindOf(err) != apperr.NotFound {
			return nil, err
		}
		if !actor.Limit.InOrganization(orgID) || ssoBarred(actor, m) {
			m = nil // a token confined to another organization is a stranger here, and so is a
			// session that did not come through the single sign-on the membership requires
		}
		a, err := r.accessOf(ctx, orgID, actor.UserID, m)
		if a != nil {
			a.Limit = actor.Limit
		}
		return a, err
	})
}

// accessOf builds userID's access to an organization from their membership (nil: not a member).
func (r *App) accessOf(ctx context.Context, orgID, userID string, m *storage.Member) (*orgAccess, error) {
	a := &orgAccess{Access: &authz.Access{UserID: userID, Teams: map[string]bool{}, Collections: map[string]*authz.Node{}}, teamRoles: map[string]string{}}
	if m == nil {
		return a, nil
	}
	a.Member, a.OrgRole = true, (*model.MemberRole)(m.Role)
	// Admins are admins everywhere: their grants cannot change anything.
	admin := authz.AtLeast(a.OrgRole, model.MemberRoleAdmin)
	collections, teams, grants, err := r.Store.AccessRowsIn(ctx, orgID, userID, !admin)
	if err != nil {
		return nil, err
	}
	a.collections = collections
	for _, c := range collections {
		n := collectionNode(c)
		a.Collections[c.ID] = &n
	}
	for _, t := range teams {
		a.Teams[t.TeamID], a.teamRoles[t.TeamID] = true, t.Role
	}
	a.Grants = toGrants(grants)
	return a, nil
}

// ssoBarred reports whether a membership is out of the actor's reach because the organization
// enforces single sign-on (or marked the member as signing in through it) and the actor is a
// browser session that signed in otherwise.
func ssoBarred(actor *authz.Actor, m *storage.Member) bool {
	return m != nil && !actor.SignedInThroughSSO(m.OrganizationID) && (m.SSO || m.Organization != nil && m.Organization.SSO)
}

// errSSORequired answers a member whose session did not come through the single sign-on their
// organization requires.
var errSSORequired = apperr.Forbiddenf("this organization requires single sign-on: sign out and sign in through your identity provider")

func toGrants(rows []*storage.Grant) []authz.Grant {
	out := make([]authz.Grant, len(rows))
	for i, g := range rows {
		out[i] = authz.Grant{TargetKind: g.TargetKind, TargetID: g.TargetID, PrincipalKind: g.PrincipalKind, PrincipalID: g.PrincipalID, Role: model.MemberRole(g.Role)}
	}
	return out
}

func spaceNode(s *storage.Space) authz.Node {
	return authz.Node{ID: s.ID, Parent: deref(s.CollectionID), DefaultLevel: (*model.DefaultLevel)(s.DefaultLevel)}
}

func collectionNode(c *storage.Collection) authz.Node {
	return authz.Node{ID: c.ID, Parent: deref(c.ParentID), DefaultLevel: (*model.DefaultLevel)(c.DefaultLevel)}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// canRead reports whether a role lets its holder see content.
func canRead(role *model.MemberRole) bool { return authz.AtLeast(role, model.MemberRoleRead) }

// require fails with Forbidden unless role is at least min.
func require(role *model.MemberRole, min model.MemberRole, what string) error {
	if !authz.AtLeast(role, min) {
		return apperr.Forbiddenf("you need the %s role on this %s", min, what)
	}
	return nil
}
