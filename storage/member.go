package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Member is a user's membership of an organization. Role nil is a guest.
type Member struct {
	bun.BaseModel `bun:"table:organization_members,alias:m"`

	OrganizationID string `bun:"organization_id,pk"`
	UserID         string `bun:"user_id,pk"`
	Role           *string
	Disabled       bool
	SSO            bool `bun:"sso"`
	JoinedAt       time.Time
	LastSeenAt     *time.Time

	User         *User         `bun:"rel:belongs-to,join:user_id=id"`
	Organization *Organization `bun:"rel:belongs-to,join:organization_id=id"`
}

// MemberFilter narrows and orders an organization's member list.
type MemberFilter struct {
	Role      *string // a role name, or "guest" for members without one
	Search    string  // case-insensitive substring of display name or e-mail
	LastSeen  bool    // sort by last-seen time (and list only members seen at least once)
	Ascending bool
	// CommentersOf keeps the members who wrote a comment or a reply in a thread.
	CommentersOf *Thread
}

// FindMembers lists an organization's members with their users: two statements per page.
// Errors: ErrInvalidCursor.
func (s *Store) FindMembers(ctx context.Context, orgID string, f MemberFilter, page Window) (List[*Member], error) {
	key := sortKey{name: "members.joinedAt", column: "m.joined_at", idCol: "m.user_id", desc: !f.Ascending, isTime: true}
	if f.LastSeen {
		key.name, key.column = "members.lastSeenAt", "m.last_seen_at"
	}
	if f.Ascending {
		key.name += ".asc"
	}
	if f.CommentersOf != nil {
		key.name = "commenters." + key.name // a commenter token pages no member list
	}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.Relation("User").Where("m.organization_id = ?", orgID)
		switch {
		case f.Role == nil:
		case *f.Role == "guest":
			q = q.Where("m.role IS NULL")
		default:
			q = q.Where("m.role = ?", *f.Role)
		}
		if f.Search != "" {
			q = q.Where(`"user"."search_key" LIKE ? ESCAPE '\'`, containsPattern(f.Search))
		}
		if f.LastSeen {
			q = q.Where("m.last_seen_at IS NOT NULL")
		}
		if f.CommentersOf != nil {
			q = q.Where("m.user_id IN (?)", f.CommentersOf.commenters(s.rdb))
		}
		return q
	}
	return paginate(ctx, s.rdb, key, page, filter, func(m *Member) (time.Time, string, string) {
		if f.LastSeen && m.LastSeenAt != nil {
			return *m.LastSeenAt, "", m.UserID
		}
		return m.JoinedAt, "", m.UserID
	})
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// FindMembership returns userID's membership of orgID with its user and organization: one
// statement, and the check that decides whether the organization exists for that user.
// Errors: ErrNotFound.
func (s *Store) FindMembership(ctx context.Context, orgID, userID string) (*Member, error) {
	m := new(Member)
	err := s.rdb.NewSelect().Model(m).Relation("User").Relation("Organization").
		Where("m.organization_id = ? AND m.user_id = ?", orgID, userID).Scan(ctx)
	if err != nil {
		return nil, translate(err)
	}
	return m, nil
}

// MembersByUserIDs returns an organization's members among userIDs (without their user and
// organization), keyed by user id: one statement.
func (s *Store) MembersByUserIDs(ctx context.Context, orgID string, userIDs []string) (map[string]*Member, error) {
	out := make(map[string]*Member, len(userIDs))
	if len(userIDs) == 0 {
		return out, nil
	}
	var rows []*Member
	if err := s.rdb.NewSelect().Model(&rows).Where("m.organization_id = ? AND m.user_id IN (?)", orgID, bun.List(userIDs)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	for _, m := range rows {
		out[m.UserID] = m
	}
	return out, nil
}

// FindMemberships lists the organizations userID belongs to, oldest organization first.
// Errors: ErrInvalidCursor.
func (s *Store) FindMemberships(ctx context.Context, userID string, page Window) (List[*Member], error) {
	key := sortKey{name: "organizations", column: `"organization"."created_at"`, idCol: "m.organization_id", isTime: true}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Relation("User").Relation("Organization").Where("m.user_id = ?", userID)
	}
	return paginate(ctx, s.rdb, key, page, filter, func(m *Member) (time.Time, string, string) {
		return m.Organization.CreatedAt, "", m.OrganizationID
	})
}

// MembershipsIn returns userID's memberships of the given organizations with their organization
// (not their user: the caller named it), keyed by organization id: one statement for any number
// of organizations.
func (s *Store) MembershipsIn(ctx context.Context, userID string, orgIDs []string) (map[string]*Member, error) {
	var members []*Member
	if len(orgIDs) == 1 { // the common case: one organization's page, prepared
		p, err := s.statements(ctx)
		if err == nil {
			err = s.queryPreparedRows(ctx, p.membership, func(rows *sql.Rows) error { return scanMemberships(rows, &members) }, userID, orgIDs[0])
		}
		if err != nil {
			return nil, err
		}
	} else if len(orgIDs) > 0 {
		err := s.rdb.NewSelect().Model(&members).Relation("Organization").
			Where("m.user_id = ? AND m.organization_id IN (?)", userID, bun.List(orgIDs)).Scan(ctx)
		if err != nil {
			return nil, translate(err)
		}
	}
	out := make(map[string]*Member, len(members))
	for _, m := range members {
		out[m.OrganizationID] = m
	}
	return out, nil
}

// AddMember makes userID a member of orgID with role, unless they already are. It reports whether
// a membership was created.
func (s *Store) AddMember(ctx context.Context, orgID, userID string, role *string, now time.Time) (bool, error) {
	return s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		m := &Member{OrganizationID: orgID, UserID: userID, Role: role, JoinedAt: now}
		res, err := insertNew(db.NewInsert().Model(m), "").Exec(ctx)
		if err != nil {
			return false, fmt.Errorf("add member: %w", translate(err))
		}
		n, _ := res.RowsAffected()
		return n > 0, nil
	})
}

// SetMemberRole changes a member's role (nil: guest). Errors: ErrNotFound, ErrLastAdmin.
func (s *Store) SetMemberRole(ctx context.Context, orgID, userID string, role *string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if role == nil || *role != "admin" {
			if err := s.keepAnAdmin(ctx, tx, orgID, userID); err != nil {
				return err
			}
		}
		res, err := tx.NewUpdate().Model((*Member)(nil)).Set("role = ?", role).
			Where("organization_id = ? AND user_id = ?", orgID, userID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("set member role: %w", translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// RemoveMember deletes a membership; it reports whether there was one. Errors: ErrLastAdmin.
func (s *Store) RemoveMember(ctx context.Context, orgID, userID string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := s.keepAnAdmin(ctx, tx, orgID, userID); err != nil {
			return err
		}
		res, err := tx.NewDelete().Model((*Member)(nil)).Where("organization_id = ? AND user_id = ?", orgID, userID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("remove member: %w", translate(err))
		}
		// What the membership brought goes with it: team places and direct grants.
		if _, err := tx.NewDelete().Model((*TeamMember)(nil)).Where("organization_id = ? AND user_id = ?", orgID, userID).Exec(ctx); err != nil {
			return translate(err)
		}
		if _, err := tx.NewDelete().Model((*Grant)(nil)).Where("organization_id = ? AND principal_kind = ? AND principal_id = ?", orgID, PrincipalUser, userID).Exec(ctx); err != nil {
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

// keepAnAdmin fails with ErrLastAdmin when userID is the organization's only admin. On Postgres
// it locks the organization row first, so two admins demoting each other cannot both succeed;
// SQLite transactions already hold the write lock from BEGIN IMMEDIATE.
func (s *Store) keepAnAdmin(ctx context.Context, tx bun.Tx, orgID, userID string) error {
	if err := s.lockRows(ctx, tx.NewSelect().Model((*Organization)(nil)).Column("o.id").Where("o.id = ?", orgID)); err != nil {
		return err
	}
	others, err := tx.NewSelect().Model((*Member)(nil)).
		Where("m.organization_id = ? AND m.role = 'admin' AND m.user_id <> ?", orgID, userID).Count(ctx)
	if err != nil {
		return translate(err)
	}
	if others > 0 {
		return nil
	}
	isAdmin, err := tx.NewSelect().Model((*Member)(nil)).
		Where("m.organization_id = ? AND m.role = 'admin' AND m.user_id = ?", orgID, userID).Exists(ctx)
	if err != nil {
		return translate(err)
	}
	if isAdmin {
		return ErrLastAdmin
	}
	return nil
}

// TouchMember records that a member was just seen. Errors: ErrNotFound.
func (s *Store) TouchMember(ctx context.Context, orgID, userID string, now time.Time) error {
	return s.updateMember(ctx, orgID, userID, "last_seen_at = ?", now)
}

// SetMemberSSO marks a member as signing in through the organization's SSO. Errors: ErrNotFound.
func (s *Store) SetMemberSSO(ctx context.Context, orgID, userID string) error {
	return s.updateMember(ctx, orgID, userID, "sso = ?", true)
}

// AdminEmails lists the e-mail addresses of an organization's admins.
func (s *Store) AdminEmails(ctx context.Context, orgID string) ([]string, error) {
	var out []string
	err := s.rdb.NewSelect().Model((*Member)(nil)).ColumnExpr("u.email").Join("JOIN users AS u ON u.id = m.user_id").
		Where("m.organization_id = ? AND m.role = ?", orgID, "admin").OrderExpr("u.email").Scan(ctx, &out)
	return out, translate(err)
}

func (s *Store) updateMember(ctx context.Context, orgID, userID, set string, arg any) error {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model((*Member)(nil)).Set(set, arg).Where("organization_id = ? AND user_id = ?", orgID, userID)
	})
	if err != nil {
		return fmt.Errorf("update member: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Invitation invites one e-mail address with a role (nil: guest).
type Invitation struct {
	Email string
	Role  *string
}

// InviteUsers makes each invited address a member of orgID, creating unverified users for
// addresses that have none. Existing members keep their role. It returns the ids of the users who
// became members, in input order. A fixed number of statements whatever the number of addresses.
// notify, when set, names jobs enqueued in the same transaction for the users added (mailing
// them), so that they are told exactly when they became members.
func (s *Store) InviteUsers(ctx context.Context, orgID string, invites []Invitation, sso bool, now time.Time, notify func(added []string) []JobArgs) ([]string, error) {
	added := []string{}
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		emails := make([]string, len(invites))
		for i, in := range invites {
			emails[i] = strings.ToLower(in.Email)
		}
		var existing []*User
		if err := tx.NewSelect().Model(&existing).Where("u.email IN (?)", bun.List(emails)).Scan(ctx); err != nil {
			return translate(err)
		}
		byEmail := make(map[string]string, len(emails))
		for _, u := range existing {
			byEmail[u.Email] = u.ID
		}
		var fresh []*User
		for _, e := range emails {
			if _, ok := byEmail[e]; !ok {
				u := newUser(NewUser{DisplayName: e[:strings.IndexByte(e, '@')], Email: e}, now)
				byEmail[e] = u.ID
				fresh = append(fresh, u)
			}
		}
		if len(fresh) > 0 {
			if _, err := tx.NewInsert().Model(&fresh).Exec(ctx); err != nil {
				return fmt.Errorf("create invited users: %w", translate(err))
			}
		}
		ids := make([]string, len(emails))
		for i, e := range emails {
			ids[i] = byEmail[e]
		}
		already, err := memberIDsIn(ctx, tx, orgID, ids)
		if err != nil {
			return err
		}
		var members []*Member
		for i, in := range invites {
			if !already[ids[i]] {
				members = append(members, &Member{OrganizationID: orgID, UserID: ids[i], Role: in.Role, SSO: sso, JoinedAt: now})
				added = append(added, ids[i])
			}
		}
		if len(members) == 0 {
			return nil
		}
		// DO NOTHING: a concurrent join of the same user is not an error.
		if _, err := insertNew(tx.NewInsert().Model(&members), "").Exec(ctx); err != nil {
			return fmt.Errorf("add invited members: %w", translate(err))
		}
		if notify != nil {
			return s.insertJobsTx(ctx, tx, notify(added))
		}
		return nil
	})
	return added, err
}

// MemberIDsIn reports which of userIDs are members of orgID: one statement.
func (s *Store) MemberIDsIn(ctx context.Context, orgID string, userIDs []string) (map[string]bool, error) {
	return memberIDsIn(ctx, s.rdb, orgID, userIDs)
}

func memberIDsIn(ctx context.Context, db bun.IDB, orgID string, userIDs []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(userIDs) == 0 {
		return out, nil
	}
	var ids []string
	err := db.NewSelect().Model((*Member)(nil)).Column("m.user_id").
		Where("m.organization_id = ? AND m.user_id IN (?)", orgID, bun.List(userIDs)).Scan(ctx, &ids)
	if err != nil {
		return nil, translate(err)
	}
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// ResolveMembers maps user ids and e-mail addresses to the ids of the organization's members they
// name; names that match no member are absent. One statement.
func (s *Store) ResolveMembers(ctx context.Context, orgID string, idsOrEmails []string) (map[string]string, error) {
	out := map[string]string{}
	if len(idsOrEmails) == 0 {
		return out, nil
	}
	lower := make([]string, len(idsOrEmails))
	for i, v := range idsOrEmails {
		lower[i] = strings.ToLower(v)
	}
	var rows []struct {
		ID    string `bun:"id"`
		Email string `bun:"email"`
	}
	err := s.rdb.NewSelect().Table("users").ColumnExpr("users.id, users.email").
		Join("JOIN organization_members AS om ON om.user_id = users.id AND om.organization_id = ?", orgID).
		Where("users.id IN (?) OR users.email IN (?)", bun.List(idsOrEmails), bun.List(lower)).Scan(ctx, &rows)
	if err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.ID], out[r.Email] = r.ID, r.ID
	}
	for i, v := range idsOrEmails {
		if id, ok := out[lower[i]]; ok {
			out[v] = id
		}
	}
	return out, nil
}
