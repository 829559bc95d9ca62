package domain

import (
	"context"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// fillMemberCounts sets each member's team and space counts from the organization-wide reads:
// a fixed number of statements for any number of members, the space count decided by the same
// engine as every access check.
func (r *App) fillMemberCounts(ctx context.Context, orgID string, members []*model.Member) error {
	if len(members) == 0 {
		return nil
	}
	r.announceMemberLists(ctx, members)
	viewer, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return err
	}
	org, err := r.allGrants(ctx, orgID)
	if err != nil {
		return err
	}
	spaces, err := r.orgSpaces(ctx, orgID)
	if err != nil {
		return err
	}
	for _, m := range members {
		acc := &authz.Access{UserID: m.ID, Member: true, OrgRole: m.Role, Teams: org.teamsOf[m.ID], Grants: org.grants, Collections: viewer.Collections}
		m.Teams, m.Spaces = len(org.teamsOf[m.ID]), 0
		for _, s := range spaces {
			if canRead(acc.SpaceRole(spaceNode(s))) {
				m.Spaces++
			}
		}
	}
	return nil
}

// canSeeMember lets members read their own views and insiders read anyone's. Seeing oneself is
// a grant by ownership: a scoped token uses it only with the read scope. Errors: Forbidden.
func canSeeMember(ctx context.Context, org *model.Organization, userID string) error {
	if org.Viewer != nil && org.Viewer.ID == userID && authz.LimitFrom(ctx).Allows(authz.ScopeRead) {
		return nil
	}
	return authz.CanListMembers(org)
}

// MemberTeams lists a member's teams with their role in each. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) MemberTeams(ctx context.Context, m *model.Member, first *int, after *string, title *string) (*model.MemberTeamConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	org, err := r.OrganizationByID(ctx, m.OrganizationID)
	if err != nil {
		return nil, err
	}
	if err := canSeeMember(ctx, org, m.ID); err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	page.NoTotal = !Wants(ctx, WantTotal)
	list, _, err := loader.For(ctx, r.Store).MemberTeams.Load(ctx, loader.MemberTeamsKey{OrganizationID: org.ID, UserID: m.ID, Title: deref(title), Window: page})
	if err != nil {
		return nil, err
	}
	spaces, err := r.teamSpaces(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(t *storage.Team) *model.MemberTeam {
		return &model.MemberTeam{Team: r.toTeam(t, acc, spaces), Member: model.TeamRole{Role: model.TeamMemberRole(t.MemberRole)}}
	}), nil
}

// MemberSpaces lists the spaces a member can access that the caller can read too, with the
// member's role. Errors: Invalid, NotFound, Forbidden.
func (r *App) MemberSpaces(ctx context.Context, m *model.Member, first *int, after *string, order *model.ListOrder) (*model.MemberSpaceConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if order != nil && !order.IsValid() {
		return nil, apperr.Invalidf("order", `must be "asc" or "desc"`)
	}
	org, err := r.OrganizationByID(ctx, m.OrganizationID)
	if err != nil {
		return nil, err
	}
	if err := canSeeMember(ctx, org, m.ID); err != nil {
		return nil, err
	}
	viewer, err := r.viewerAccess(ctx, org.ID)
	if err != nil {
		return nil, err
	}
	target := viewer.Access
	if m.ID != viewer.UserID {
		if target, err = r.memberAccess(ctx, org.ID, viewer, m.ID); err != nil {
			return nil, err
		}
	}
	targetRoles := map[string]*model.MemberRole{}
	keep := func(s *storage.Space) bool {
		role := target.SpaceRole(spaceNode(s))
		targetRoles[s.ID] = role
		return canRead(role)
	}
	spaces, err := r.readableSpaces(ctx, "member.spaces."+m.ID, org.ID, viewer, keep, page, order != nil && *order == model.ListOrderAsc)
	if err != nil {
		return nil, err
	}
	items := make([]*model.MemberSpace, len(spaces.Nodes))
	cursors := make([]string, len(spaces.Edges))
	for i, s := range spaces.Nodes {
		items[i], cursors[i] = &model.MemberSpace{Permission: *targetRoles[s.ID], Space: s}, spaces.Edges[i].Cursor
	}
	return model.NewConnection(items, cursors, spaces.TotalCount, spaces.PageInfo.HasNextPage), nil
}
