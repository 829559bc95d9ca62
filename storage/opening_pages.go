package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// OpeningPages returns, for each of spaces' current content, its first perSpace listed document
// pages: top-level pages before nested ones, each level in its order (what a reader meets
// first, and what recommended questions are drawn from). One statement for any number of
// spaces.
func (s *Store) OpeningPages(ctx context.Context, spaceIDs []string, perSpace int) ([]*PageVersion, error) {
	if len(spaceIDs) == 0 || perSpace < 1 {
		return nil, nil
	}
	var rows []struct {
		PageVersion
		OpeningRank int `bun:"opening_rank"`
	}
	err := s.rdb.NewRaw(`SELECT * FROM (
		SELECT pv.*, ROW_NUMBER() OVER (PARTITION BY pv.line ORDER BY CASE WHEN pv.parent_id IS NULL THEN 0 ELSE 1 END, pv.position, pv.page_id) AS opening_rank
		FROM page_versions pv
		WHERE pv.line IN (?) AND pv.line = pv.space_id AND COALESCE(pv.to_seq, 0) = 0 AND NOT pv.deleted AND NOT pv.hidden AND pv.type = 'document'
	) ranked WHERE opening_rank <= ? ORDER BY space_id, opening_rank`, bun.In(spaceIDs), perSpace).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read opening pages: %w", translate(err))
	}
	out := make([]*PageVersion, len(rows))
	for i := range rows {
		out[i] = &rows[i].PageVersion
	}
	return out, nil
}
