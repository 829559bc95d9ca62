package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Collection groups spaces (and other collections) and passes its access down to them.
type Collection struct {
	bun.BaseModel `bun:"table:collections,alias:c"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	ParentID       *string
	Title          string
	Description    *string
	DefaultLevel   *string // "inherit", a role, or nil: no access beyond grants
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CollectionField is a field of a Collection that UpdateCollection writes.
type CollectionField uint32

// The collection fields.
const (
	CollectionTitle CollectionField = 1 << iota
	CollectionDescription
	CollectionDefaultLevel
)

var collectionColumns = map[CollectionField][]string{
	CollectionTitle: {"title"}, CollectionDescription: {"description"}, CollectionDefaultLevel: {"default_level"},
}

// CreateCollection inserts a collection and, when adminID is set, an admin grant for that user.
func (s *Store) CreateCollection(ctx context.Context, c *Collection, adminID string) error {
	if c.ID == "" {
		c.ID = NewID()
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(c).Exec(ctx); err != nil {
			return fmt.Errorf("create collection: %w", translate(err))
		}
		if err := refreshOpen(ctx, tx, []string{c.ID}, nil); err != nil {
			return err
		}
		return grantAdmin(ctx, tx, c.OrganizationID, TargetCollection, c.ID, adminID, c.CreatedAt)
	})
}

// FindCollectionByID returns a collection; callers decide who may see it. Errors: ErrNotFound.
func (s *Store) FindCollectionByID(ctx context.Context, id string) (*Collection, error) {
	c := new(Collection)
	if err := s.rdb.NewSelect().Model(c).Where("c.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return c, nil
}

// CollectionsIn returns every collection of an organization: access flows down the collection
// tree, so deciding any access needs the whole (small) tree. One statement.
func (s *Store) CollectionsIn(ctx context.Context, orgID string) ([]*Collection, error) {
	var cs []*Collection
	err := s.rdb.NewSelect().Model(&cs).Where("c.organization_id = ?", orgID).Scan(ctx)
	return cs, translate(err)
}

// UpdateCollection writes the fields set of c, and its update time; a new default level changes what members see
// beneath it (open_to_members) in the same transaction. Errors: ErrNotFound.
func (s *Store) UpdateCollection(ctx context.Context, c *Collection, set CollectionField) error {
	update := func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewUpdate().Model(c).Column(append(columnsOf(set, collectionColumns), "updated_at")...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update collection %s: %w", c.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	}
	if set&CollectionDefaultLevel == 0 {
		return s.exec(ctx, update)
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := update(ctx, tx); err != nil {
			return err
		}
		return refreshOpen(ctx, tx, []string{c.ID}, nil)
	})
}

// DeleteCollection removes a collection: its spaces and sub-collections move up to its parent
// (or the organization's root) and the grants on it go. It reports whether it existed.
func (s *Store) DeleteCollection(ctx context.Context, c *Collection) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		// What moves up inherits from its new parent: its visibility is refreshed below.
		var spaces, collections []string
		if err := tx.NewSelect().Model((*Space)(nil)).Column("s.id").Where("s.collection_id = ?", c.ID).Scan(ctx, &spaces); err != nil {
			return translate(err)
		}
		if err := tx.NewSelect().Model((*Collection)(nil)).Column("c.id").Where("c.parent_id = ?", c.ID).Scan(ctx, &collections); err != nil {
			return translate(err)
		}
		if _, err := tx.NewUpdate().Model((*Space)(nil)).Set("collection_id = ?", c.ParentID).Where("collection_id = ?", c.ID).Exec(ctx); err != nil {
			return translate(err)
		}
		if _, err := tx.NewUpdate().Model((*Collection)(nil)).Set("parent_id = ?", c.ParentID).Where("parent_id = ?", c.ID).Exec(ctx); err != nil {
			return translate(err)
		}
		if _, err := tx.NewDelete().Model((*Grant)(nil)).Where("target_kind = ? AND target_id = ?", TargetCollection, c.ID).Exec(ctx); err != nil {
			return translate(err)
		}
		res, err := tx.NewDelete().Model((*Collection)(nil)).Where("id = ?", c.ID).Exec(ctx)
		if err != nil {
			return translate(err)
		}
		n, _ := res.RowsAffected()
		removed = n > 0
		return refreshOpen(ctx, tx, collections, spaces)
	})
	return removed, err
}
