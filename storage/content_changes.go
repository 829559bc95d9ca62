package storage

import (
	"context"

	"github.com/uptrace/bun"
)

// What changed between two revisions, read page by page from the versions a line keeps: a
// revision's own changes are the versions its line started or ended at its sequence, a change
// request's are its line's versions; either way the cost follows the pages changed, never the
// size of the space.

// PagesChangedAt returns the ids of the pages whose versions on line started or ended at seq:
// what the revision at seq of that line changed. One statement.
func (s *Store) PagesChangedAt(ctx context.Context, line string, seq int64) ([]string, error) {
	var ids []string
	err := s.rdb.NewSelect().Model((*PageVersion)(nil)).ColumnExpr("DISTINCT pv.page_id").
		// Written as two lookups, each an index's (line, from_seq) and (line, to_seq).
		Where("(pv.line = ? AND pv.from_seq = ?) OR (pv.line = ? AND pv.to_seq = ?)", line, seq, line, seq).
		OrderExpr("pv.page_id").Scan(ctx, &ids)
	return ids, translate(err)
}

// PagesOverlaid returns the ids of the pages a change request's line holds a version of at seq
// (tombstones included): what it changes over its space. One statement.
func (s *Store) PagesOverlaid(ctx context.Context, changeRequestID string, seq int64) ([]string, error) {
	var ids []string
	err := s.rdb.NewSelect().Model((*PageVersion)(nil)).ColumnExpr("DISTINCT pv.page_id").
		Where(visibleAt("pv"), changeRequestID, seq, seq).OrderExpr("pv.page_id").Scan(ctx, &ids)
	return ids, translate(err)
}

// PagesIn returns the live pages of a view among ids: one statement.
func (s *Store) PagesIn(ctx context.Context, v View, ids []string) ([]*PageVersion, error) {
	var rows []*PageVersion
	if len(ids) == 0 {
		return rows, nil
	}
	err := pagesQuery(s.rdb, v, &rows).Where("pv.page_id IN (?)", bun.List(ids)).OrderExpr("pv.page_id").Scan(ctx)
	return rows, translate(err)
}

// PageHolding returns a live page of a view whose content is contentID: one statement over the
// view's current pages. Errors: ErrNotFound.
func (s *Store) PageHolding(ctx context.Context, v View, contentID string) (*PageVersion, error) {
	p := new(PageVersion)
	if err := pagesQuery(s.rdb, v, p).Where("pv.content_id = ?", contentID).OrderExpr("pv.page_id").Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return p, nil
}
