package storage

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/uptrace/bun"
)

// Space is a unit of content with its own history and access.
type Space struct {
	bun.BaseModel `bun:"table:spaces,alias:s"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	CollectionID   *string
	Title          string
	Emoji          string
	IconURL        *string
	EditMode       string
	Language       *string
	DefaultLevel   *string // "inherit", a role, or nil: no access beyond grants
	MergeRules     string  // JSON, owned by the API layer
	RevisionID     string
	RevisionSeq    int64   // sequence of RevisionID on the space's line
	IsTemplate     bool    // offered as a template to the organization's spaces
	GitSync        *string // JSON: the Git Sync set-up (gitsync.go), nil until a sync
	CreatedAt      time.Time
	UpdatedAt      time.Time
	DeletedAt      *time.Time `bun:",nullzero"`
}

// SpaceField is a field of a Space that UpdateSpace writes.
type SpaceField uint32

// The space fields. SpaceIcon is the emoji and the icon URL together: they exclude each other.
const (
	SpaceTitle SpaceField = 1 << iota
	SpaceIcon
	SpaceEditMode
	SpaceDefaultLevel
	SpaceLanguage
	SpaceMergeRules
	SpaceIsTemplate
)

var spaceColumns = map[SpaceField][]string{
	SpaceTitle: {"title"}, SpaceIcon: {"emoji", "icon_url"}, SpaceEditMode: {"edit_mode"},
	SpaceDefaultLevel: {"default_level"}, SpaceLanguage: {"language"}, SpaceMergeRules: {"merge_rules"},
	SpaceIsTemplate: {"is_template"},
}

// CreateSpace inserts a space with its first, empty revision and, when adminID is set, an admin
// grant for that user, in one transaction.
func (s *Store) CreateSpace(ctx context.Context, sp *Space, adminID string) error {
	if sp.ID == "" {
		sp.ID = NewID()
	}
	sp.RevisionID, sp.RevisionSeq = NewID(), 1
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(sp).Exec(ctx); err != nil {
			return fmt.Errorf("create space: %w", translate(err))
		}
		rev := &Revision{ID: sp.RevisionID, OrganizationID: sp.OrganizationID, SpaceID: sp.ID, Line: sp.ID, Seq: 1, Type: "edits", Parents: "[]", CreatedAt: sp.CreatedAt}
		if _, err := tx.NewInsert().Model(rev).Exec(ctx); err != nil {
			return fmt.Errorf("create first revision: %w", translate(err))
		}
		if err := refreshOpen(ctx, tx, nil, []string{sp.ID}); err != nil {
			return err
		}
		return grantAdmin(ctx, tx, sp.OrganizationID, TargetSpace, sp.ID, adminID, sp.CreatedAt)
	})
}

// FindSpaceByID returns a space, deleted ones only when includeDeleted. Callers decide who may
// see it. Errors: ErrNotFound.
func (s *Store) FindSpaceByID(ctx context.Context, id string, includeDeleted bool) (*Space, error) {
	sp := new(Space)
	q := s.rdb.NewSelect().Model(sp).Where("s.id = ?", id)
	if !includeDeleted {
		q = q.Where("s.deleted_at IS NULL")
	}
	if err := q.Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return sp, nil
}

// SpacesIn returns every live space of an organization: access decisions and counts need all of
// them, and lists page through them in memory. One statement.
func (s *Store) SpacesIn(ctx context.Context, orgID string) ([]*Space, error) {
	var spaces []*Space
	err := s.rdb.NewSelect().Model(&spaces).Where("s.organization_id = ? AND s.deleted_at IS NULL", orgID).Scan(ctx)
	return spaces, translate(err)
}

// SpacesByIDs returns full rows of live spaces, in the order of ids.
func (s *Store) SpacesByIDs(ctx context.Context, ids []string) ([]*Space, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var spaces []*Space
	if err := s.rdb.NewSelect().Model(&spaces).Where("s.id IN (?) AND s.deleted_at IS NULL", bun.List(ids)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	pos := make(map[string]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	sort.Slice(spaces, func(i, j int) bool { return pos[spaces[i].ID] < pos[spaces[j].ID] })
	return spaces, nil
}

// UpdateSpace writes the fields set of sp, and its update time; a new default level changes what members see
// (open_to_members) in the same transaction. Errors: ErrNotFound.
func (s *Store) UpdateSpace(ctx context.Context, sp *Space, set SpaceField) error {
	update := func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model(sp).Column(append(columnsOf(set, spaceColumns), "updated_at")...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update space %s: %w", sp.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	}
	if set&SpaceDefaultLevel == 0 {
		return s.exec(ctx, update)
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := update(ctx, tx); err != nil {
			return err
		}
		return refreshOpen(ctx, tx, nil, []string{sp.ID})
	})
}

// SetSpaceDeleted moves a space to the trash (at non-nil) or restores it (nil). It reports
// whether the space changed state.
func (s *Store) SetSpaceDeleted(ctx context.Context, id string, at *time.Time) (bool, error) {
	return s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		q := db.NewUpdate().Model((*Space)(nil)).Set("deleted_at = ?", at).Where("id = ?", id)
		if at != nil {
			q = q.Where("deleted_at IS NULL")
		} else {
			q = q.Where("deleted_at IS NOT NULL")
		}
		res, err := q.Exec(ctx)
		if err != nil {
			return false, fmt.Errorf("delete space %s: %w", id, translate(err))
		}
		n, _ := res.RowsAffected()
		return n > 0, nil
	})
}

// PageInMemory pages through items already filtered in memory (by access rules SQL cannot
// express), ordered by (time, id), with the same cursors a SQL page of that list would issue.
// Errors: ErrInvalidCursor.
func PageInMemory[T any](list string, items []T, keyOf func(T) (time.Time, string), desc bool, page Window) (List[T], error) {
	var out List[T]
	if desc {
		list += ".desc"
	}
	// before reports whether key (ta, ia) comes before (tb, ib) in the list's order.
	before := func(ta time.Time, ia string, tb time.Time, ib string) bool {
		switch {
		case !ta.Equal(tb):
			return ta.Before(tb) != desc
		case ia == ib:
			return false
		}
		return (ia < ib) != desc
	}
	sorted := append([]T(nil), items...)
	sort.Slice(sorted, func(i, j int) bool {
		ti, ii := keyOf(sorted[i])
		tj, ij := keyOf(sorted[j])
		return before(ti, ii, tj, ij)
	})
	start := 0
	if page.After != "" {
		value, id, err := decodeCursor(list, page.After)
		if err != nil {
			return out, err
		}
		t, err := time.Parse(time.RFC3339Nano, value)
		if err != nil {
			return out, ErrInvalidCursor
		}
		start = sort.Search(len(sorted), func(i int) bool {
			ti, ii := keyOf(sorted[i])
			return before(t, id, ti, ii)
		})
	}
	end := min(start+page.Limit, len(sorted))
	out.Items, out.Total, out.HasMore = sorted[start:end], len(sorted), end < len(sorted)
	out.Cursors = make([]string, len(out.Items))
	for i, it := range out.Items {
		t, id := keyOf(it)
		out.Cursors[i] = encodeCursor(list, formatKeyTime(t), id)
	}
	return out, nil
}
