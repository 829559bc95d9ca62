package domain

import (
	"context"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
)

// announceMemberLists tells the loaders that each of members is about to read its teams or its
// accessible spaces, when the request asks for them, so that each level leaves as one batch
// (see loader.Batch).
func (r *App) announceMemberLists(ctx context.Context, members []*model.Member) {
	if len(members) < 2 {
		return
	}
	l := loader.For(ctx, r.Store)
	if Wants(ctx, WantMemberTeams) {
		l.MemberTeams.Expect(len(members))
	}
	if Wants(ctx, WantMemberSpaces) {
		viewer := authz.ActorFrom(ctx)
		others := 0
		for _, m := range members {
			if viewer == nil || m.ID != viewer.UserID {
				others++ // the viewer's own spaces need no member read
			}
		}
		l.Members.Expect(others)
	}
}

// memberAccess is what decides userID's roles in an organization, as MemberSpaces shows them.
// Alone (a REST read of one member), it reads that member's grants and teams; under a list of
// members, every member's is built from the organization's grants and team memberships, read once
// for all of them, as fillMemberCounts does. Errors: NotFound.
func (r *App) memberAccess(ctx context.Context, orgID string, viewer *orgAccess, userID string) (*authz.Access, error) {
	row, err := loader.For(ctx, r.Store).Members.Find(ctx, loader.MemberKey{OrganizationID: orgID, UserID: userID})
	if err != nil {
		return nil, notFound(err, "member")
	}
	if loader.Alone(ctx) {
		a, err := r.accessOf(ctx, orgID, userID, row)
		if err != nil {
			return nil, err
		}
		return a.Access, nil
	}
	org, err := r.allGrants(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &authz.Access{UserID: userID, Member: true, OrgRole: (*model.MemberRole)(row.Role), Teams: org.teamsOf[userID], Grants: org.grants,
		Collections: viewer.Collections}, nil
}
