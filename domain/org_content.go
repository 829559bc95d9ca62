package domain

import (
	"context"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
)

// Organization-wide reads that lists and counts share, each read once per request and
// organization, so that nested lists (collections → spaces, teams → members, members with
// their counts) cost the same statements whatever their size.

// orgSpaces returns the organization's live spaces.
func (r *App) orgSpaces(ctx context.Context, orgID string) ([]*storage.Space, error) {
	return stateOf(ctx).orgSpaces.get(orgID, func() ([]*storage.Space, error) {
		return r.Store.SpacesIn(ctx, orgID)
	})
}

// orgGrants is every grant of an organization and who is in which team.
type orgGrants struct {
	grants  []authz.Grant
	teamsOf map[string]map[string]bool // user id → their teams
}

// allGrants returns the organization's grants and team memberships.
func (r *App) allGrants(ctx context.Context, orgID string) (*orgGrants, error) {
	return stateOf(ctx).orgGrants.get(orgID, func() (*orgGrants, error) {
		grants, err := r.Store.GrantsIn(ctx, orgID, nil)
		if err != nil {
			return nil, err
		}
		members, err := r.Store.TeamMembershipsIn(ctx, orgID, nil)
		if err != nil {
			return nil, err
		}
		out := &orgGrants{grants: toGrants(grants), teamsOf: map[string]map[string]bool{}}
		for _, m := range members {
			if out.teamsOf[m.UserID] == nil {
				out.teamsOf[m.UserID] = map[string]bool{}
			}
			out.teamsOf[m.UserID][m.TeamID] = true
		}
		return out, nil
	})
}
