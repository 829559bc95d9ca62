package storage

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/uptrace/bun"
)

// viewPage is a page version tagged with the view (its index) that shows it.
type viewPage struct {
	PageVersion
	ViewIndex int
}

// PagesOfViews is PagesOf for several views at once (the page trees of a list of spaces or
// change requests): one statement, a UNION ALL of one branch per view, each tagged with its view.
func (s *Store) PagesOfViews(ctx context.Context, views []View) (map[View][]*PageVersion, error) {
	out := make(map[View][]*PageVersion, len(views))
	if len(views) == 0 {
		return out, nil
	}
	if len(views) == 1 {
		rows, err := s.PagesOf(ctx, views[0])
		out[views[0]] = rows
		return out, err
	}
	var q *bun.SelectQuery
	for i, v := range views {
		cond, args := v.where(pageVersions, "pv")
		branch := s.rdb.NewSelect().TableExpr("page_versions AS pv").ColumnExpr("pv.*").ColumnExpr("? AS view_index", i).
			Where(cond, args...).Where("NOT pv.deleted")
		if q == nil {
			q = branch
		} else {
			q = q.UnionAll(branch)
		}
	}
	var rows []*viewPage
	if err := q.Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("pages of %d views: %w", len(views), translate(err))
	}
	// As PagesOf orders them; SQLite takes no ORDER BY inside a UNION's branches.
	slices.SortFunc(rows, func(a, b *viewPage) int {
		return cmp.Or(cmp.Compare(a.ViewIndex, b.ViewIndex), cmp.Compare(a.Position, b.Position), cmp.Compare(a.PageID, b.PageID))
	})
	for _, r := range rows {
		v := views[r.ViewIndex]
		page := r.PageVersion
		out[v] = append(out[v], &page)
	}
	return out, nil
}
