package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Grant gives a user or a team a role on a space or a collection.
type Grant struct {
	bun.BaseModel `bun:"table:content_grants,alias:g"`

	OrganizationID string
	TargetKind     string `bun:"target_kind,pk"` // "space" or "collection"
	TargetID       string `bun:"target_id,pk"`
	PrincipalKind  string `bun:"principal_kind,pk"` // "user" or "team"
	PrincipalID    string `bun:"principal_id,pk"`
	Role           string
	CreatedAt      time.Time
}

// The kinds of grant targets and principals.
const (
	TargetSpace      = "space"
	TargetCollection = "collection"
	PrincipalUser    = "user"
	PrincipalTeam    = "team"
)

// GrantsIn returns an organization's grants, narrowed to those that reach userIDs (directly or
// through their teams) when userIDs is not nil: one statement.
func (s *Store) GrantsIn(ctx context.Context, orgID string, userIDs []string) ([]*Grant, error) {
	var grants []*Grant
	q := s.rdb.NewSelect().Model(&grants).Where("g.organization_id = ?", orgID)
	if userIDs != nil {
		if len(userIDs) == 0 {
			return grants, nil
		}
		q = q.Where(`((g.principal_kind = 'user' AND g.principal_id IN (?)) OR
			(g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE organization_id = ? AND user_id IN (?))))`,
			bun.List(userIDs), orgID, bun.List(userIDs))
	}
	err := q.Scan(ctx)
	return grants, translate(err)
}

// SetGrants gives each principal role on a target, replacing earlier grants: one statement.
func (s *Store) SetGrants(ctx context.Context, orgID, targetKind, targetID, principalKind string, principals []string, role string, now time.Time) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if len(principals) == 0 {
			return nil
		}
		// One upsert may not touch a row twice (PostgreSQL refuses): name each principal once.
		seen := make(map[string]bool, len(principals))
		rows := make([]*Grant, 0, len(principals))
		for _, p := range principals {
			if !seen[p] {
				seen[p] = true
				rows = append(rows, &Grant{OrganizationID: orgID, TargetKind: targetKind, TargetID: targetID, PrincipalKind: principalKind, PrincipalID: p, Role: role, CreatedAt: now})
			}
		}
		_, err := upsert(db.NewInsert().Model(&rows), "target_kind, target_id, principal_kind, principal_id", "role").Exec(ctx)
		if err != nil {
			return fmt.Errorf("set grants: %w", translate(err))
		}
		return nil
	})
}

// RemoveGrants removes the grants of several principals of one kind on a target: one statement.
func (s *Store) RemoveGrants(ctx context.Context, targetKind, targetID, principalKind string, principals []string) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if len(principals) == 0 {
			return nil
		}
		_, err := db.NewDelete().Model((*Grant)(nil)).
			Where("target_kind = ? AND target_id = ? AND principal_kind = ? AND principal_id IN (?)", targetKind, targetID, principalKind, bun.List(principals)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("remove grants: %w", translate(err))
		}
		return nil
	})
}

// RemoveGrant removes a principal's grant on a target; it reports whether there was one.
func (s *Store) RemoveGrant(ctx context.Context, targetKind, targetID, principalKind, principalID string) (bool, error) {
	return s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		res, err := db.NewDelete().Model((*Grant)(nil)).
			Where("target_kind = ? AND target_id = ? AND principal_kind = ? AND principal_id = ?", targetKind, targetID, principalKind, principalID).Exec(ctx)
		if err != nil {
			return false, fmt.Errorf("remove grant: %w", translate(err))
		}
		n, _ := res.RowsAffected()
		return n > 0, nil
	})
}

// grantAdmin gives userID (when set) the admin role on new content.
func grantAdmin(ctx context.Context, db bun.IDB, orgID, kind, id, userID string, now time.Time) error {
	if userID == "" {
		return nil
	}
	g := &Grant{OrganizationID: orgID, TargetKind: kind, TargetID: id, PrincipalKind: PrincipalUser, PrincipalID: userID, Role: "admin", CreatedAt: now}
	if _, err := db.NewInsert().Model(g).Exec(ctx); err != nil {
		return fmt.Errorf("grant creator admin: %w", translate(err))
	}
	return nil
}

// GrantsOn returns every grant on the given spaces and collections (ids are unique across
// both): one statement for any number of targets.
func (s *Store) GrantsOn(ctx context.Context, targetIDs []string) ([]*Grant, error) {
	var grants []*Grant
	if len(targetIDs) == 0 {
		return grants, nil
	}
	err := s.rdb.NewSelect().Model(&grants).Where("g.target_id IN (?)", bun.List(targetIDs)).Scan(ctx)
	return grants, translate(err)
}
