package storage

import (
	"context"
	"fmt"
	"strconv"

	"github.com/uptrace/bun"
)

// SearchFilter is what a search looks for and where: the current content of the given spaces
// of one organization (the caller decides which spaces may be read).
type SearchFilter struct {
	OrganizationID string
	SpaceIDs       []string
	Query          SearchQuery
}

// SearchHit is a page that matches a search, with its relevance (higher is better).
type SearchHit struct {
	SpaceID   string
	PageID    string
	ContentID *string
	Title     string
	Rank      float64
}

// SpaceHits is a space's best matching pages, best first.
type SpaceHits struct {
	SpaceID string
	Pages   []*SearchHit
}

// The dialect-specific part of search, in one place. PostgreSQL: the weighted tsvector (title A,
// body B) matched by websearch_to_tsquery through the GIN index and ranked by ts_rank (of the
// query without its exclusions) normalised by document length. SQLite: the FTS5 table matched by the same query rendered as an FTS5
// expression and ranked by bm25 with the title weighted 10 to the body's 1 (negated: bm25 is
// lower for better matches).
func (s *Store) searchMatches(f SearchFilter) *bun.SelectQuery {
	var q *bun.SelectQuery
	if s.dialect == Postgres {
		q = s.rdb.NewSelect().TableExpr("search_pages AS sp").
			ColumnExpr("ts_rank(sp.tsv, websearch_to_tsquery('english', ?), 1) AS rank", f.Query.rankingText()).
			Where("sp.tsv @@ websearch_to_tsquery('english', ?)", f.Query.websearch())
	} else {
		// bm25 only works in the statement that scans the FTS5 table: rank there, join after.
		// CROSS JOIN makes SQLite scan the matches first: with a plain JOIN it walks the space's
		// rows and runs the MATCH once per row (13 s instead of 6 ms at 100,000 pages).
		fts := s.rdb.NewSelect().TableExpr("search_pages_fts").
			ColumnExpr("search_pages_fts.rowid AS id, -bm25(search_pages_fts, 10.0, 1.0) AS rank").
			Where("search_pages_fts MATCH ?", f.Query.fts5())
		q = s.rdb.NewSelect().TableExpr("(?) AS fts", fts).
			Join("CROSS JOIN search_pages AS sp ON sp.id = fts.id").
			ColumnExpr("fts.rank AS rank")
	}
	return q.ColumnExpr("sp.space_id, sp.page_id, sp.content_id, sp.title").
		Where("sp.organization_id = ?", f.OrganizationID).
		Where("sp.space_id IN (?)", bun.List(f.SpaceIDs))
}

// searchOffset reads a search page token: the offset of the next result, for this query only.
func searchOffset(list string, f SearchFilter, page Page) (int, error) {
	if page.After == "" {
		return 0, nil
	}
	value, fp, err := decodeCursor(list, page.After)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 || fp != f.Query.fingerprint() {
		return 0, ErrInvalidCursor
	}
	return n, nil
}

// searchCursors are the page tokens of results start… (each names the offset after it).
func searchCursors(list string, f SearchFilter, start, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = encodeCursor(list, strconv.Itoa(start+i+1), f.Query.fingerprint())
	}
	return out
}

// searchRow is a matching page as the search statements read it.
type searchRow struct {
	SpaceID   string  `bun:"space_id"`
	PageID    string  `bun:"page_id"`
	ContentID *string `bun:"content_id"`
	Title     string  `bun:"title"`
	Rank      float64 `bun:"rank"`
	Total     int     `bun:"total"`
	N         int     `bun:"n"`
}

func (r *searchRow) hit() *SearchHit {
	return &SearchHit{SpaceID: r.SpaceID, PageID: r.PageID, ContentID: r.ContentID, Title: r.Title, Rank: r.Rank}
}

// SearchPages pages through the pages matching a search, most relevant first (ties by title,
// then id). One statement. Errors: ErrInvalidCursor.
func (s *Store) SearchPages(ctx context.Context, f SearchFilter, page Page) (List[*SearchHit], error) {
	var out List[*SearchHit]
	offset, err := searchOffset("search", f, page)
	if err != nil || f.Query.Empty() || len(f.SpaceIDs) == 0 {
		out.Items, out.Cursors = []*SearchHit{}, []string{}
		return out, err
	}
	var rows []*searchRow
	q := s.searchMatches(f).ColumnExpr("count(*) OVER () AS total").
		OrderExpr("rank DESC, sp.title ASC, sp.page_id ASC").Limit(int64(page.Limit + 1)).Offset(int64(offset))
	if err := q.Scan(ctx, &rows); err != nil {
		return out, fmt.Errorf("search pages: %w", translate(err))
	}
	if len(rows) > page.Limit {
		rows, out.HasMore = rows[:page.Limit], true
	}
	out.Items = make([]*SearchHit, len(rows))
	for i, r := range rows {
		out.Items[i], out.Total = r.hit(), r.Total
	}
	if len(rows) == 0 && offset > 0 {
		n, err := s.rdb.NewSelect().TableExpr("(?) AS m", s.searchMatches(f)).Count(ctx)
		if err != nil {
			return out, fmt.Errorf("count search results: %w", translate(err))
		}
		out.Total = int(n)
	}
	out.Cursors = searchCursors("search", f, offset, len(rows))
	return out, nil
}

// SearchSpaces pages through the spaces holding pages that match a search, each with its
// perSpace best pages; spaces are ordered by their best page's relevance. One statement.
// Errors: ErrInvalidCursor.
func (s *Store) SearchSpaces(ctx context.Context, f SearchFilter, perSpace int, page Page) (List[*SpaceHits], error) {
	var out List[*SpaceHits]
	offset, err := searchOffset("search.spaces", f, page)
	if err != nil || f.Query.Empty() || len(f.SpaceIDs) == 0 {
		out.Items, out.Cursors = []*SpaceHits{}, []string{}
		return out, err
	}
	var rows []*searchRow
	err = s.rdb.NewRaw(`SELECT space_id, page_id, content_id, title, rank, n FROM (
		SELECT m.*, row_number() OVER (PARTITION BY m.space_id ORDER BY m.rank DESC, m.title ASC, m.page_id ASC) AS n,
			max(m.rank) OVER (PARTITION BY m.space_id) AS best
		FROM (?) AS m) AS ranked
	WHERE n <= ? ORDER BY best DESC, space_id ASC, n ASC`, s.searchMatches(f), perSpace).Scan(ctx, &rows)
	if err != nil {
		return out, fmt.Errorf("search spaces: %w", translate(err))
	}
	var all []*SpaceHits
	for _, r := range rows {
		if len(all) == 0 || all[len(all)-1].SpaceID != r.SpaceID {
			all = append(all, &SpaceHits{SpaceID: r.SpaceID})
		}
		last := all[len(all)-1]
		last.Pages = append(last.Pages, r.hit())
	}
	start := min(offset, len(all))
	end := min(start+page.Limit, len(all))
	out.Items, out.Total, out.HasMore = all[start:end], len(all), end < len(all)
	out.Cursors = searchCursors("search.spaces", f, start, len(out.Items))
	return out, nil
}

// CurrentPageChains returns, for pages of spaces' current content, each page's version followed
// by its ancestors, nearest first, keyed by space id + "/" + page id: one recursive statement for
// any number of pages. Pages no longer current are left out. "Current" is written
// COALESCE(to_seq, 0) = 0 (sequences start at 1) rather than to_seq IS NULL so that SQLite walks
// the (line, page_id) index: with to_seq IS NULL it picks (line, to_seq) and scans every current
// page of the space at each step (2 s instead of 9 ms at 100,000 pages).
func (s *Store) CurrentPageChains(ctx context.Context, spaceIDs, pageIDs []string) (map[string][]*PageVersion, error) {
	out := map[string][]*PageVersion{}
	if len(spaceIDs) == 0 || len(pageIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		PageVersion
		StartPage string `bun:"start_page"`
	}
	err := s.rdb.NewRaw(`WITH RECURSIVE chain(start_page, version_id, depth) AS (
		SELECT pv.page_id, pv.id, 0 FROM page_versions pv
		WHERE pv.line IN (?) AND pv.line = pv.space_id AND COALESCE(pv.to_seq, 0) = 0 AND NOT pv.deleted AND pv.page_id IN (?)
		UNION ALL
		SELECT chain.start_page, pv.id, chain.depth + 1 FROM chain
		JOIN page_versions child ON child.id = chain.version_id
		JOIN page_versions pv ON pv.line = child.line AND pv.page_id = child.parent_id AND COALESCE(pv.to_seq, 0) = 0 AND NOT pv.deleted
		WHERE chain.depth < 64
	) SELECT pv.*, chain.start_page FROM chain JOIN page_versions pv ON pv.id = chain.version_id
	ORDER BY chain.start_page, chain.depth`, bun.List(spaceIDs), bun.List(pageIDs)).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("read page chains: %w", translate(err))
	}
	for i := range rows {
		r := &rows[i]
		key := r.SpaceID + "/" + r.StartPage
		v := r.PageVersion
		out[key] = append(out[key], &v)
	}
	return out, nil
}
