package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// InviteLink lets whoever holds its id join an organization with its role, or (with a target)
// join it as a guest with the role on one space or collection.
type InviteLink struct {
	bun.BaseModel `bun:"table:organization_invite_links,alias:il"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Role           *string
	TargetKind     *string // TargetSpace, TargetCollection, or nil for the organization
	TargetID       *string
	CreatedBy      string
	CreatedAt      time.Time
	// Redundant: an older link of the same organization grants the same role.
	Redundant bool `bun:",scanonly"`
}

// CreateInviteLink stores a new invite link.
func (s *Store) CreateInviteLink(ctx context.Context, link *InviteLink) error {
	if link.ID == "" {
		link.ID = NewID()
	}
	if _, err := s.write(ctx, func(db bun.IDB) execer { return db.NewInsert().Model(link) }); err != nil {
		return fmt.Errorf("create invite link: %w", translate(err))
	}
	return nil
}

// FindInviteLinks lists an organization's invite links, newest first: the links to the
// organization itself, or (content) those to its spaces and collections. Errors: ErrInvalidCursor.
func (s *Store) FindInviteLinks(ctx context.Context, orgID string, content bool, page Window) (List[*InviteLink], error) {
	key := sortKey{name: "inviteLinks", column: "il.created_at", idCol: "il.id", desc: true, isTime: true}
	if content {
		key.name = "inviteLinks.content"
	}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		q = withRedundant(q).Where("il.organization_id = ?", orgID)
		if content {
			return q.Where("il.target_kind IS NOT NULL")
		}
		return q.Where("il.target_kind IS NULL")
	}
	return paginate(ctx, s.rdb, key, page, filter, func(l *InviteLink) (time.Time, string, string) {
		return l.CreatedAt, "", l.ID
	})
}

func withRedundant(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr("il.*").ColumnExpr(`EXISTS (SELECT 1 FROM organization_invite_links AS older
		WHERE older.organization_id = il.organization_id AND older.role IS NOT DISTINCT FROM il.role
		AND older.target_id IS NOT DISTINCT FROM il.target_id
		AND (older.created_at, older.id) < (il.created_at, il.id)) AS redundant`)
}

// FindInviteLink returns one of an organization's invite links. Errors: ErrNotFound.
func (s *Store) FindInviteLink(ctx context.Context, orgID, id string) (*InviteLink, error) {
	l := new(InviteLink)
	if err := withRedundant(s.rdb.NewSelect().Model(l)).Where("il.organization_id = ? AND il.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return l, nil
}

// DeleteInviteLink removes an invite link; it reports whether there was one.
func (s *Store) DeleteInviteLink(ctx context.Context, orgID, id string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*InviteLink)(nil)).Where("organization_id = ? AND id = ?", orgID, id)
	})
	if err != nil {
		return false, fmt.Errorf("delete invite link: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// FindAgentInstructions returns an organization's agent instructions. Errors: ErrNotFound when
// none were ever written.
func (s *Store) FindAgentInstructions(ctx context.Context, orgID string) (*AgentInstructions, error) {
	a := new(AgentInstructions)
	if err := s.rdb.NewSelect().Model(a).Where("ai.organization_id = ?", orgID).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return a, nil
}

// SaveAgentInstructions creates or replaces an organization's agent instructions.
func (s *Store) SaveAgentInstructions(ctx context.Context, a *AgentInstructions) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return upsert(db.NewInsert().Model(a), "organization_id", "instructions", "updated_by", "updated_at")
	})
	if err != nil {
		return fmt.Errorf("save agent instructions: %w", translate(err))
	}
	return nil
}
