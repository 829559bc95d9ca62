package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Team is a named group of members that can be granted access together.
type Team struct {
	bun.BaseModel `bun:"table:teams,alias:tm"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Title          string
	TitleKey       string // the folded title that title filters match
	CreatedAt      time.Time
	// Members is counted by the queries that list teams.
	Members int `bun:",scanonly"`
	// MemberRole is a listed member's role in the team, when a query lists one member's teams.
	MemberRole string `bun:",scanonly"`
	// MemberUserID is that member, when a query lists several members' teams.
	MemberUserID string `bun:",scanonly"`
}

// TeamMember is a user's membership of a team, as owner or member.
type TeamMember struct {
	bun.BaseModel `bun:"table:team_members,alias:tmm"`

	TeamID         string `bun:"team_id,pk"`
	OrganizationID string
	UserID         string `bun:"user_id,pk"`
	Role           string
	CreatedAt      time.Time

	Member *Member `bun:"rel:belongs-to,join:organization_id=organization_id,join:user_id=user_id"`
}

// withTeamCounts selects a team's columns with its member count, so a page of teams costs one
// statement whatever its size. (How many spaces a team reaches depends on the collection tree:
// the API layer counts it with the permission engine.)
func withTeamCounts(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr("tm.*").
		ColumnExpr("(SELECT COUNT(*) FROM team_members AS c1 WHERE c1.team_id = tm.id) AS members")
}

// CreateTeam inserts a team with its first members: owners as owners, the others as members.
func (s *Store) CreateTeam(ctx context.Context, t *Team, owners, members []string) error {
	if t.ID == "" {
		t.ID = NewID()
	}
	t.TitleKey = fold(t.Title)
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(t).Exec(ctx); err != nil {
			return fmt.Errorf("create team: %w", translate(err))
		}
		return setTeamMembers(ctx, tx, t.OrganizationID, t.ID, roleMap(owners, members), t.CreatedAt)
	})
}

func roleMap(owners, members []string) map[string]string {
	out := map[string]string{}
	for _, m := range members {
		out[m] = "member"
	}
	for _, o := range owners {
		out[o] = "owner"
	}
	return out
}

// setTeamMembers upserts memberships: one statement for any number of users.
func setTeamMembers(ctx context.Context, db bun.IDB, orgID, teamID string, roles map[string]string, now time.Time) error {
	if len(roles) == 0 {
		return nil
	}
	rows := make([]*TeamMember, 0, len(roles))
	for user, role := range roles {
		rows = append(rows, &TeamMember{TeamID: teamID, OrganizationID: orgID, UserID: user, Role: role, CreatedAt: now})
	}
	_, err := upsert(db.NewInsert().Model(&rows), "team_id, user_id", "role").Exec(ctx)
	if err != nil {
		return fmt.Errorf("set team members: %w", translate(err))
	}
	return nil
}

// TeamFilter narrows a team list.
type TeamFilter struct {
	Title   string // case-insensitive substring
	OwnerID string // teams this user owns
}

// FindTeams lists an organization's teams by title, with counts. Errors: ErrInvalidCursor.
func (s *Store) FindTeams(ctx context.Context, orgID string, f TeamFilter, page Window) (List[*Team], error) {
	key := sortKey{name: "teams", column: "tm.title", idCol: "tm.id"}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.Where("tm.organization_id = ?", orgID)
		if f.Title != "" {
			q = q.Where(`tm.title_key LIKE ? ESCAPE '\'`, containsPattern(f.Title))
		}
		if f.OwnerID != "" {
			q = q.Where("EXISTS (SELECT 1 FROM team_members AS o WHERE o.team_id = tm.id AND o.user_id = ? AND o.role = 'owner')", f.OwnerID)
		}
		return q
	}
	return paginate(ctx, s.rdb, key, page, func(q *bun.SelectQuery) *bun.SelectQuery { return withTeamCounts(filter(q)) },
		func(t *Team) (time.Time, string, string) { return time.Time{}, t.Title, t.ID })
}

// FindTeam returns one of an organization's teams with its counts. Errors: ErrNotFound.
func (s *Store) FindTeam(ctx context.Context, orgID, id string) (*Team, error) {
	t := new(Team)
	if err := withTeamCounts(s.rdb.NewSelect().Model(t)).Where("tm.organization_id = ? AND tm.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return t, nil
}

// TeamsByIDs returns an organization's teams with those ids and their counts, keyed by id.
func (s *Store) TeamsByIDs(ctx context.Context, orgID string, ids []string) (map[string]*Team, error) {
	out := map[string]*Team{}
	if len(ids) == 0 {
		return out, nil
	}
	var teams []*Team
	if err := withTeamCounts(s.rdb.NewSelect().Model(&teams)).Where("tm.organization_id = ? AND tm.id IN (?)", orgID, bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, t := range teams {
		out[t.ID] = t
	}
	return out, nil
}

// RenameTeam changes a team's title. Errors: ErrNotFound.
func (s *Store) RenameTeam(ctx context.Context, orgID, id, title string) error {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model((*Team)(nil)).Set("title = ?, title_key = ?", title, fold(title)).Where("organization_id = ? AND id = ?", orgID, id)
	})
	if err != nil {
		return fmt.Errorf("rename team: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteTeam removes a team, its memberships and its grants. It reports whether it existed.
func (s *Store) DeleteTeam(ctx context.Context, orgID, id string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*Grant)(nil)).Where("organization_id = ? AND principal_kind = ? AND principal_id = ?", orgID, PrincipalTeam, id).Exec(ctx); err != nil {
			return translate(err)
		}
		res, err := tx.NewDelete().Model((*Team)(nil)).Where("organization_id = ? AND id = ?", orgID, id).Exec(ctx)
		if err != nil {
			return translate(err)
		}
		n, _ := res.RowsAffected()
		if removed = n > 0; !removed {
			noEvent(ctx)
		}
		return nil
	})
	return removed, err
}

// TeamMembersOf returns the members of several teams, each team's oldest first, with their
// organization membership and user: one statement.
func (s *Store) TeamMembersOf(ctx context.Context, teamIDs []string) (map[string][]*TeamMember, error) {
	out := map[string][]*TeamMember{}
	if len(teamIDs) == 0 {
		return out, nil
	}
	var rows []*TeamMember
	err := s.rdb.NewSelect().Model(&rows).Relation("Member").Relation("Member.User").
		Where("tmm.team_id IN (?)", bun.List(teamIDs)).OrderExpr("tmm.created_at ASC, tmm.user_id ASC").Scan(ctx)
	for _, m := range rows {
		out[m.TeamID] = append(out[m.TeamID], m)
	}
	return out, translate(err)
}

// TeamsOfMembers lists the teams each of userIDs belongs to, by title, with counts and the user's
// role in each (MemberRole), a page per member keyed by user id: two statements whatever the
// number of members, one when page.NoTotal.
func (s *Store) TeamsOfMembers(ctx context.Context, orgID string, userIDs []string, title string, page Window) (map[string]List[*Team], error) {
	key := sortKey{name: "memberTeams", column: "tm.title", idCol: "tm.id"}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		q = withTeamCounts(q).ColumnExpr("mine.role AS member_role, mine.user_id AS member_user_id").
			Join("JOIN team_members AS mine ON mine.team_id = tm.id").
			Where("tm.organization_id = ?", orgID)
		if title != "" {
			q = q.Where(`tm.title_key LIKE ? ESCAPE '\'`, containsPattern(title))
		}
		return q
	}
	return paginateEach(ctx, s.rdb, key, page, "mine.user_id", userIDs, filter,
		func(t *Team) (time.Time, string, string) { return time.Time{}, t.Title, t.ID },
		func(t *Team) string { return t.MemberUserID })
}

// TeamUpdate changes a team's membership in one transaction: Add joins users as members
// (keeping the role of those already in), Set upserts roles, Remove goes last, so a user both
// added and removed ends removed.
type TeamUpdate struct {
	Add    []string
	Set    map[string]string // user id → "owner" or "member"
	Remove []string
}

// UpdateTeamMembers applies a TeamUpdate.
func (s *Store) UpdateTeamMembers(ctx context.Context, orgID, teamID string, u TeamUpdate, now time.Time) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if len(u.Add) > 0 {
			seen := map[string]bool{}
			var rows []*TeamMember
			for _, id := range u.Add {
				if !seen[id] {
					seen[id] = true
					rows = append(rows, &TeamMember{TeamID: teamID, OrganizationID: orgID, UserID: id, Role: "member", CreatedAt: now})
				}
			}
			if _, err := insertNew(tx.NewInsert().Model(&rows), "").Exec(ctx); err != nil {
				return fmt.Errorf("add team members: %w", translate(err))
			}
		}
		if err := setTeamMembers(ctx, tx, orgID, teamID, u.Set, now); err != nil {
			return err
		}
		if len(u.Remove) > 0 {
			if _, err := tx.NewDelete().Model((*TeamMember)(nil)).Where("team_id = ? AND user_id IN (?)", teamID, bun.List(u.Remove)).Exec(ctx); err != nil {
				return translate(err)
			}
		}
		return nil
	})
}

// RemoveTeamMember removes a user from a team; it reports whether they were in it.
func (s *Store) RemoveTeamMember(ctx context.Context, teamID, userID string) (bool, error) {
	return s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		res, err := db.NewDelete().Model((*TeamMember)(nil)).Where("team_id = ? AND user_id = ?", teamID, userID).Exec(ctx)
		if err != nil {
			return false, translate(err)
		}
		n, _ := res.RowsAffected()
		return n > 0, nil
	})
}

// TeamMembershipsIn returns the team memberships of the given users in an organization, or of
// everyone when userIDs is nil: one statement.
func (s *Store) TeamMembershipsIn(ctx context.Context, orgID string, userIDs []string) ([]*TeamMember, error) {
	var out []*TeamMember
	q := s.rdb.NewSelect().Model(&out).Where("tmm.organization_id = ?", orgID)
	if userIDs != nil {
		if len(userIDs) == 0 {
			return out, nil
		}
		q = q.Where("tmm.user_id IN (?)", bun.List(userIDs))
	}
	return out, translate(q.Scan(ctx))
}

// TeamRole returns userID's role in a team ("" when not in it).
func (s *Store) TeamRole(ctx context.Context, teamID, userID string) (string, error) {
	var role string
	err := s.rdb.NewSelect().Model((*TeamMember)(nil)).Column("tmm.role").Where("tmm.team_id = ? AND tmm.user_id = ?", teamID, userID).Scan(ctx, &role)
	if err != nil && translate(err) == ErrNotFound {
		return "", nil
	}
	return role, translate(err)
}
