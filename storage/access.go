package storage

import (
	"context"
	"fmt"
	"time"
)

// accessRow is one row of AccessRowsIn: a collection, one of the user's team memberships or a
// grant, in one shape so that all three leave in one statement.
type accessRow struct {
	Kind           string // "collection", "team", "grant"
	ID             string // the collection's, the team's, the grant's target's
	OrganizationID string
	ParentID       *string
	Title          *string
	Description    *string
	DefaultLevel   *string
	TargetKind     *string
	Role           *string
	PrincipalKind  *string
	PrincipalID    *string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// AccessRowsIn returns what decides userID's roles in an organization: all its collections, the
// user's team memberships and, with grants, the grants to the user or to their teams (as GrantsIn
// for that one user). One statement (a UNION ALL): every request that decides access reads all
// three.
func (s *Store) AccessRowsIn(ctx context.Context, orgID, userID string, grants bool) ([]*Collection, []*TeamMember, []*Grant, error) {
	q := s.rdb.NewSelect().TableExpr("collections AS c").
		ColumnExpr("'collection' AS kind, c.id, c.organization_id, c.parent_id, c.title, c.description, c.default_level").
		ColumnExpr("NULL AS target_kind, NULL AS role, NULL AS principal_kind, NULL AS principal_id, c.created_at, c.updated_at").
		Where("c.organization_id = ?", orgID).
		UnionAll(s.rdb.NewSelect().TableExpr("team_members AS tmm").
			ColumnExpr("'team', tmm.team_id, tmm.organization_id, NULL, NULL, NULL, NULL").
			ColumnExpr("NULL, tmm.role, 'user', tmm.user_id, tmm.created_at, NULL").
			Where("tmm.organization_id = ? AND tmm.user_id = ?", orgID, userID))
	if grants {
		q = q.UnionAll(s.rdb.NewSelect().TableExpr("content_grants AS g").
			ColumnExpr("'grant', g.target_id, g.organization_id, NULL, NULL, NULL, NULL").
			ColumnExpr("g.target_kind, g.role, g.principal_kind, g.principal_id, g.created_at, NULL").
			Where("g.organization_id = ?", orgID).
			Where(`((g.principal_kind = 'user' AND g.principal_id = ?) OR
				(g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE organization_id = ? AND user_id = ?)))`,
				userID, orgID, userID))
	}
	var rows []*accessRow
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, nil, nil, fmt.Errorf("access of %s: %w", userID, translate(err))
	}
	var (
		collections []*Collection
		teams       []*TeamMember
		granted     []*Grant
	)
	for _, r := range rows {
		switch r.Kind {
		case "collection":
			collections = append(collections, &Collection{ID: r.ID, OrganizationID: r.OrganizationID, ParentID: r.ParentID, Title: deref(r.Title),
				Description: r.Description, DefaultLevel: r.DefaultLevel, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt})
		case "team":
			teams = append(teams, &TeamMember{TeamID: r.ID, OrganizationID: r.OrganizationID, UserID: deref(r.PrincipalID), Role: deref(r.Role), CreatedAt: r.CreatedAt})
		case "grant":
			granted = append(granted, &Grant{OrganizationID: r.OrganizationID, TargetKind: deref(r.TargetKind), TargetID: r.ID,
				PrincipalKind: deref(r.PrincipalKind), PrincipalID: deref(r.PrincipalID), Role: deref(r.Role), CreatedAt: r.CreatedAt})
		}
	}
	return collections, teams, granted, nil
}
