package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bindery/bindery/storage/paging"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// Filter is what a search looks for and where: the current content of the given spaces
// of one organization (the caller decides which spaces may be read).
type Filter struct {
	OrganizationID string
	SpaceIDs       []string
	Query          Query
	// Weights gives each positive term of an AnyWord query (its words joined by a space) its
	// weight in the coverage ranking, from TermFrequencies; PostgreSQL only (SQLite's bm25
	// weighs terms by rarity itself).
	Weights map[string]float64
	// TermCounts gives each positive term of an AnyWord query the number of pages holding it,
	// up to ExactTotal+1 (TermFrequencies): a term held by more is common, and an AnyWord query
	// with a common term is ranked over bounded candidates (SQLite: commonAnyWord; PostgreSQL:
	// pgAnyWordCandidates), so its total is counted apart.
	TermCounts map[string]int
	// Matches and Common are what the planning count found (CountMatches): how many pages match
	// (up to ExactTotal+1), and whether some word or phrase of the query is common (held by
	// more than ExactTotal pages). A Common search is ranked without the databases' full-text
	// rank (commonMatches); its total is Matches.
	Matches int
	Common  bool
}

// Hit is a page that matches a search, with its relevance (higher is better).
type Hit struct {
	SpaceID   string
	PageID    string
	ContentID *string
	Title     string
	Rank      float64
}

// SpaceHits is a space's best matching pages, best first.
type SpaceHits struct {
	SpaceID string
	Pages   []*Hit
}

// Search bounds: a search ranks at most searchCandidates pages (the pages whose title holds a
// searched word first, then the first others found), so a common word costs what a rare one
// does; totals are exact up to ExactTotal and lower bounds beyond. Because searchCandidates
// exceeds ExactTotal, the candidates are every match whenever there are at most ExactTotal of
// them, so a page of results counts its candidates rather than matching a second time (a
// separate count with LIMIT tempted PostgreSQL into a sequential scan: 1.1 s for 25 matches).
const (
	titleCandidates  = 1000
	searchCandidates = 3000
	ExactTotal       = 1000
)

// Common searches rank at most commonTitles pages whose title holds a searched word and
// commonOthers other matches; an organization search of at most perSpaceScans spaces bounds
// each space's candidates instead (three times its listed pages with a title hit, as many
// others), so that every space with matches is listed.
const (
	commonTitles  = 100
	commonOthers  = 100
	perSpaceScans = 100
)

// searchMatches is the dialect-specific part of search, in one place: the bounded candidates
// with their rank (space_id, page_id, content_id, title, rank). PostgreSQL matches the weighted
// tsvector (title A, body B) through its GIN index and ranks with ts_rank normalised by
// document length (the query without its exclusions). SQLite scans the FTS5 matches twice,
// bounded (the title hits, then any), and ranks with bm25 in the scans (ftsRanked). An AnyWord query is ranked by coverage on both
// (coverage), with those ranks only breaking ties.
func (ix *Index) searchMatches(f Filter, perSpace int) *bun.SelectQuery {
	if f.Common && !f.Query.AnyWord {
		return ix.commonMatches(f, perSpace)
	}
	if ix.sqlite && f.commonTerm() {
		return ix.commonAnyWord(f, perSpace)
	}
	if !ix.sqlite {
		// On PostgreSQL a query is common only beyond ExactTotal matches (CountMatches), so here
		// its matches are all candidates: one index scan (a title scan beside it read the words'
		// posting lists, and rechecked a phrase's candidates, twice). Materialized: under a LIMIT
		// PostgreSQL may prefer a sequential scan (pgFirstMatches).
		rank := bun.SafeQuery("ts_rank(sp.tsv, ?, 1)", f.Query.tsquery(true))
		if f.Query.AnyWord {
			return ix.rdb.NewSelect().WithQuery(bun.NewWithQuery("cand", ix.pgAnyWordCandidates(f)).Materialized()).
				TableExpr("cand").Join("JOIN search_pages AS sp ON sp.id = cand.id").
				ColumnExpr("? AS rank, sp.space_id, sp.page_id, sp.content_id, sp.title", ix.coverage(f, rank, 1))
		}
		// The rows are ranked as the index scan reads them: joined again by id, each cost
		// three more index pages.
		cand := ix.pgMatches(f).ColumnExpr("? AS rank, sp.space_id, sp.page_id, sp.content_id, sp.title", rank).
			Limit(searchCandidates)
		return ix.rdb.NewSelect().WithQuery(bun.NewWithQuery("cand", cand).Materialized()).
			TableExpr("cand").ColumnExpr("cand.rank, cand.space_id, cand.page_id, cand.content_id, cand.title")
	}
	var titles []string
	for _, c := range f.Query.units() {
		titles = append(titles, fts5Clause(c))
	}
	titled := ix.ftsRanked(f, "{title} : ("+strings.Join(titles, " OR ")+") AND ("+f.Query.fts5()+")", titleCandidates)
	any := ix.ftsRanked(f, f.Query.fts5(), searchCandidates)
	rank := bun.SafeQuery("fts.bm25")
	if f.Query.AnyWord {
		rank = ix.coverage(f, bun.SafeQuery("fts.bm25"), 0.05)
	}
	// A page found by both scans keeps its title scan's score (its title phrases add to it), so
	// every title hit among the candidates is scored alike. SQLite takes the bare columns from
	// the row holding the max.
	return ix.rdb.NewSelect().TableExpr("(SELECT id, max(bm25) AS bm25, space_id, page_id, content_id, title FROM (? UNION ALL ?) GROUP BY id) AS fts", titled, any).
		ColumnExpr("? AS rank, fts.space_id, fts.page_id, fts.content_id, fts.title", rank)
}

// commonMatches are the candidates of a search with a common word or phrase, ranked by how many
// of the query's words their title holds, without the full-text rank: SQLite's bm25 reads the
// whole posting list of every phrase of its query to count its pages (a word on 90,000 pages
// cost ~100 ms a statement), and PostgreSQL's ts_rank reads each candidate's whole tsvector.
// The candidates are the first pages (in index order) whose title holds a searched word, then
// the first others: among thousands of matches of a common word the order is a sample anyway,
// and the scans stop at their limits. With perSpace (an organization search of at most
// perSpaceScans spaces) each space is scanned on its own, bounded to 3 × perSpace title hits
// and perSpace others, so every space with a match is among the results; SQLite finds a space's
// pages through the FTS5 space_id column (fts5InSpaces), skipping the other spaces' postings.
func (ix *Index) commonMatches(f Filter, perSpace int) *bun.SelectQuery {
	if ix.sqlite && f.Matches <= commonFewMatches {
		return ix.commonFew(f)
	}
	titles, others, groups := ix.commonScanGroups(f, perSpace)
	var sql []string
	var args []any
	for _, ids := range groups {
		g := f
		g.SpaceIDs = ids
		sql = append(sql, "SELECT * FROM (?) AS t", "SELECT * FROM (?) AS o")
		args = append(args, ix.commonScan(g, true, titles), ix.commonScan(g, false, others))
	}
	return ix.rdb.NewSelect().TableExpr("(SELECT max(u.rank) AS rank, u.space_id, u.page_id, u.content_id, u.title FROM ("+
		strings.Join(sql, " UNION ALL ")+") AS u GROUP BY u.id, u.space_id, u.page_id, u.content_id, u.title) AS fts", args...).
		ColumnExpr("fts.rank, fts.space_id, fts.page_id, fts.content_id, fts.title")
}

// commonScanGroups is how a search with a common term scans its spaces: all together, bounded
// to commonTitles title hits and commonOthers others, or, when perSpaceScans, each space on its
// own, bounded to 3 × perSpace title hits and perSpace others.
func (ix *Index) commonScanGroups(f Filter, perSpace int) (titles, others int, groups [][]string) {
	if !ix.perSpaceScans(f, perSpace) {
		return commonTitles, commonOthers, [][]string{f.SpaceIDs}
	}
	for _, id := range f.SpaceIDs {
		groups = append(groups, []string{id})
	}
	return 3 * perSpace, perSpace, groups
}

// perSpaceScans reports whether a Common organization search scans each space on its own:
// SQLite only, where FTS5 skips to a space's postings. PostgreSQL's GIN index knows no space, so
// each space's scan read the word's whole posting list again (2.5 s for 10 spaces); it scans
// the spaces together, and lists those its candidates fall in.
func (ix *Index) perSpaceScans(f Filter, perSpace int) bool {
	return ix.sqlite && perSpace > 0 && len(f.SpaceIDs) > 1 && len(f.SpaceIDs) <= perSpaceScans
}

// commonScan reads up to limit matches of a Common search in the filter's spaces (with titled,
// only those whose title holds a searched word), each ranked by the searched words its title
// holds: PostgreSQL's ts_rank of the title's own small tsvector, SQLite's count of the title's
// matches (highlight marks them, from the row's position list).
func (ix *Index) commonScan(f Filter, titled bool, limit int) *bun.SelectQuery {
	if !ix.sqlite {
		// The first matches, in index order when they are common, else through the GIN index
		// (pgFirstMatches): under a plain LIMIT PostgreSQL, overestimating a word's completions,
		// scanned the whole table for the first matches (3 s for "topic 77" at 200,000 pages).
		anyq := f.Query.anyPositive().tsquery(true)
		cond := bun.SafeQuery("sp.tsv @@ ?", f.Query.tsquery(false))
		index := f.Query.pgMatch()
		if titled {
			cond = bun.SafeQuery("sp.title_tsv @@ ? AND ?", anyq, cond)
			index = cond
		}
		return ix.rdb.NewSelect().TableExpr("(?) AS l", ix.pgFirstMatches(f, cond, index, limit, commonHead)).
			Join("JOIN search_pages AS sp ON sp.id = l.id").
			ColumnExpr("sp.id, sp.space_id, sp.page_id, sp.content_id, sp.title, ts_rank(sp.title_tsv, ?) AS rank", anyq)
	}
	match := f.Query.fts5()
	if titled {
		match = f.Query.fts5Titled()
	}
	match = fts5InSpaces(f.SpaceIDs, match)
	// Only the title scan's rows are ranked: a title hit the other scan finds beyond it ranks
	// with the pages whose title holds no searched word.
	marked := "''"
	if titled {
		marked = "highlight(search_pages_fts, 0, char(1), '')"
	}
	scan := ix.ftsMatches(f, match).
		ColumnExpr("sp.id, sp.space_id, sp.page_id, sp.content_id, sp.title, ? AS marked", bun.Safe(marked)).
		Limit(int64(limit))
	return ix.rdb.NewSelect().TableExpr("(?) AS c", scan).
		ColumnExpr("c.id, c.space_id, c.page_id, c.content_id, c.title, CAST(length(c.marked) - length(replace(c.marked, char(1), '')) AS REAL) AS rank")
}

// commonTerm reports whether an AnyWord query has a positive term held by more than ExactTotal
// of the searched pages (TermCounts).
func (f Filter) commonTerm() bool {
	if !f.Query.AnyWord {
		return false
	}
	for _, c := range f.Query.units() {
		if f.TermCounts[strings.Join(c.Words, " ")] > ExactTotal {
			return true
		}
	}
	return false
}

// coverage ranks a page of an AnyWord query by the query it covers: the sum of the weights of
// the terms it holds (Weights: rarer terms weigh more), a term in the title counting three
// times; the database's own rank, scaled by tieBreak, orders pages of equal coverage.
func (ix *Index) coverage(f Filter, rank schema.QueryWithArgs, tieBreak float64) schema.QueryWithArgs {
	var sql strings.Builder
	var args []any
	for _, c := range f.Query.units() {
		w := f.Weights[strings.Join(c.Words, " ")]
		if w == 0 {
			w = 1
		}
		if !ix.sqlite {
			sql.WriteString("(CASE WHEN sp.tsv @@ ? THEN ? * (1 + 2 * (sp.title_tsv @@ ?)::int) ELSE 0 END) + ")
			args = append(args, tsClause(c), w, tsClause(c))
			continue
		}
		sql.WriteString("(CASE WHEN fts.id IN (SELECT rowid FROM search_pages_fts WHERE search_pages_fts MATCH ?) " +
			"THEN ? * (1 + 2 * (fts.id IN (SELECT rowid FROM search_pages_fts WHERE search_pages_fts MATCH ?))) ELSE 0 END) + ")
		args = append(args, fts5Clause(c), w, "{title} : "+fts5Clause(c))
	}
	sql.WriteString("? * ?")
	args = append(args, tieBreak, rank)
	return bun.SafeQuery(sql.String(), args...)
}

// matchTotal counts the pages matching a search, up to ExactTotal+1: beyond ExactTotal the
// count is a lower bound.
func (ix *Index) matchTotal(f Filter) *bun.SelectQuery {
	if !ix.sqlite {
		cond := bun.SafeQuery("sp.tsv @@ ?", f.Query.tsquery(false))
		return ix.rdb.NewSelect().TableExpr("(?) AS l", ix.pgFirstMatches(f, cond, f.Query.pgMatch(), ExactTotal+1, 3*(ExactTotal+1))).
			ColumnExpr("count(*)")
	}
	m := ix.ftsMatches(f, fts5InSpaces(f.SpaceIDs, f.Query.fts5())).Column("sp.id")
	return ix.rdb.NewSelect().TableExpr("(?) AS m", m.Limit(int64(ExactTotal+1))).ColumnExpr("count(*)")
}

// TermFrequencies returns, for each term of the filter's query (a word or a phrase's words
// joined by a space), how many of the filter's pages hold it, counted up to ExactTotal+1, and
// how many pages there are: what an AnyWord search weighs its terms by. One statement.
func (ix *Index) TermFrequencies(ctx context.Context, f Filter) (map[string]int, int, error) {
	terms := f.Query.units()
	q := ix.rdb.NewSelect().ColumnExpr("(?) AS n", ix.pageCount(f))
	for i, c := range terms {
		one := f
		one.Query = Query{Groups: [][]Clause{{c}}}
		q = q.ColumnExpr("(?) AS ?", ix.matchTotal(one), bun.Ident(fmt.Sprintf("t%d", i)))
	}
	rows, err := q.Rows(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("search term frequencies: %w", err)
	}
	defer rows.Close()
	counts := make([]int, len(terms)+1)
	ptrs := make([]any, len(counts))
	for i := range counts {
		ptrs[i] = &counts[i]
	}
	if rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, 0, fmt.Errorf("search term frequencies: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("search term frequencies: %w", err)
	}
	out := make(map[string]int, len(terms))
	for i, c := range terms {
		out[strings.Join(c.Words, " ")] = counts[i+1]
	}
	return out, counts[0], nil
}

// pageCount counts the filter's pages, what term weights take as the number of documents. On
// PostgreSQL the count stops at pageCountLimit, read from the (space, page) index alone
// (counting a space of 100,000 pages was a parallel scan of the whole table, 120 ms; 10,010
// index entries take 2 ms); beyond, the weights of the query's terms still order them by rarity.
func (ix *Index) pageCount(f Filter) *bun.SelectQuery {
	// The spaces are the organization's (Filter), and the count decides no page's access,
	// only the terms' weights: without the organization's column it reads the (space_id,
	// page_id) index alone (SQLite: 36 ms instead of 5 ms for 100,000 pages).
	pages := ix.rdb.NewSelect().TableExpr("search_pages AS sp").ColumnExpr("1").
		Where("sp.space_id IN (?)", bun.List(f.SpaceIDs))
	if !ix.sqlite {
		pages = pages.OrderExpr("sp.space_id, sp.page_id").Limit(pageCountLimit)
	}
	return ix.rdb.NewSelect().TableExpr("(?) AS p", pages).ColumnExpr("count(*)")
}

// pageCountLimit bounds the count of pages that weighs an any-word query's terms (PostgreSQL).
const pageCountLimit = 10 * (ExactTotal + 1)

// searchOffset reads a search page token: the offset of the next result, for this query only.
func searchOffset(list string, f Filter, page paging.Window) (int, error) {
	if page.After == "" {
		return 0, nil
	}
	value, fp, err := paging.DecodeCursor(list, page.After)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 || fp != f.Query.fingerprint() {
		return 0, paging.ErrInvalidCursor
	}
	return n, nil
}

// searchCursors are the page tokens of results start… (each names the offset after it).
func searchCursors(list string, f Filter, start, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = paging.EncodeCursor(list, strconv.Itoa(start+i+1), f.Query.fingerprint())
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

func (r *searchRow) hit() *Hit {
	return &Hit{SpaceID: r.SpaceID, PageID: r.PageID, ContentID: r.ContentID, Title: r.Title, Rank: r.Rank}
}

// Results is a page of search results; Total is exact when TotalIsExact, and a lower
// bound (ExactTotal+1) otherwise.
type Results[T any] struct {
	paging.List[T]
	TotalIsExact bool
}

// SearchPages pages through the pages matching a search, most relevant first (ties by title,
// then id). One statement. Errors: paging.ErrInvalidCursor.
func (ix *Index) Pages(ctx context.Context, f Filter, page paging.Window) (Results[*Hit], error) {
	out := Results[*Hit]{TotalIsExact: true}
	offset, err := searchOffset("search", f, page)
	if err != nil || f.Query.Empty() || len(f.SpaceIDs) == 0 {
		out.Items, out.Cursors = []*Hit{}, []string{}
		return out, err
	}
	var rows []*searchRow
	total := bun.SafeQuery("count(*) OVER ()")
	if f.commonTerm() {
		// The candidates are a bounded few (a common term's are sampled on both databases):
		// count the matches (up to ExactTotal+1) instead.
		total = bun.SafeQuery("(?)", ix.matchTotal(f))
	}
	q := ix.rdb.NewSelect().TableExpr("(?) AS r", ix.searchMatches(f, 0)).
		ColumnExpr("r.*, ? AS total", total).
		OrderExpr("r.rank DESC, r.title ASC, r.page_id ASC").Limit(int64(page.Limit + 1)).Offset(int64(offset))
	if err := q.Scan(ctx, &rows); err != nil {
		return out, fmt.Errorf("search pages: %w", err)
	}
	if len(rows) > page.Limit {
		rows, out.HasMore = rows[:page.Limit], true
	}
	out.Items = make([]*Hit, len(rows))
	for i, r := range rows {
		out.Items[i], out.Total = r.hit(), r.Total
	}
	if f.Common && !f.Query.AnyWord {
		// The candidates are a bounded few: the planning count is the total.
		out.Total = f.Matches
	} else if len(rows) == 0 && offset > 0 {
		if err := ix.matchTotal(f).Scan(ctx, &out.Total); err != nil {
			return out, fmt.Errorf("count search results: %w", err)
		}
	}
	out.Total, out.TotalIsExact = min(out.Total, ExactTotal+1), out.Total <= ExactTotal
	out.Cursors = searchCursors("search", f, offset, len(rows))
	return out, nil
}

// SearchSpaces pages through the spaces holding pages that match a search, each with its
// perSpace best pages; spaces are ordered by their best page's relevance. One statement.
// Errors: paging.ErrInvalidCursor.
func (ix *Index) Spaces(ctx context.Context, f Filter, perSpace int, page paging.Window) (Results[*SpaceHits], error) {
	out := Results[*SpaceHits]{TotalIsExact: true}
	offset, err := searchOffset("search.spaces", f, page)
	if err != nil || f.Query.Empty() || len(f.SpaceIDs) == 0 {
		out.Items, out.Cursors = []*SpaceHits{}, []string{}
		return out, err
	}
	var rows []*searchRow
	err = ix.rdb.NewRaw(`SELECT space_id, page_id, content_id, title, rank, n, total FROM (
		SELECT m.*, row_number() OVER (PARTITION BY m.space_id ORDER BY m.rank DESC, m.title ASC, m.page_id ASC) AS n,
			max(m.rank) OVER (PARTITION BY m.space_id) AS best, count(*) OVER () AS total
		FROM (?) AS m) AS ranked
	WHERE n <= ? ORDER BY best DESC, space_id ASC, n ASC`, ix.searchMatches(f, perSpace), perSpace).Scan(ctx, &rows)
	if err != nil {
		return out, fmt.Errorf("search spaces: %w", err)
	}
	var all []*SpaceHits
	for _, r := range rows {
		if len(all) == 0 || all[len(all)-1].SpaceID != r.SpaceID {
			all = append(all, &SpaceHits{SpaceID: r.SpaceID})
		}
		last := all[len(all)-1]
		last.Pages = append(last.Pages, r.hit())
		// The spaces are those of the ranked candidates: all of them when the matches were
		// few enough to rank every one, or when each space was scanned on its own.
		out.TotalIsExact = r.Total <= ExactTotal
	}
	if f.Common && !f.Query.AnyWord {
		// Exact when every space was scanned, or every match was a candidate.
		out.TotalIsExact = ix.perSpaceScans(f, perSpace) || len(f.SpaceIDs) == 1 || f.Matches <= commonOthers ||
			(ix.sqlite && f.Matches <= commonFewMatches)
	} else if f.commonTerm() {
		// Every space was scanned (SQLite's commonAnyWord), or its candidates are a sample.
		out.TotalIsExact = ix.perSpaceScans(f, perSpace) || len(f.SpaceIDs) == 1
	}
	start := min(offset, len(all))
	end := min(start+page.Limit, len(all))
	out.Items, out.Total, out.HasMore = all[start:end], len(all), end < len(all)
	out.Cursors = searchCursors("search.spaces", f, start, len(out.Items))
	return out, nil
}

// CountAndSearchPages is CountMatches that, on PostgreSQL, also ranks in the same statement the
// page of results SearchPages would give for the filter as counted (not Common, not AnyWord),
// when at most ExactTotal pages match: the count then read every match through the GIN index,
// and the page read them again (`hugo -mositoti`: both words' posting lists, 10–13 ms each
// time). The page is ranked from the count's ids, joined by id, only when the count allows it
// (a one-time filter on the count, so a common query ranks nothing). hits is nil when no page
// was ranked (SQLite, more than ExactTotal matches, a page token of another query): the caller
// pages with SearchPages.
func (ix *Index) CountAndSearchPages(ctx context.Context, f Filter, page paging.Window) (matches int, common bool, hits *Results[*Hit], err error) {
	offset, cursorErr := searchOffset("search", f, page)
	if ix.sqlite || f.Query.Empty() || f.Query.AnyWord || len(f.SpaceIDs) == 0 || cursorErr != nil {
		matches, common, err = ix.CountMatches(ctx, f)
		return matches, common, nil, err
	}
	cond := bun.SafeQuery("sp.tsv @@ ?", f.Query.tsquery(false))
	ids := ix.pgFirstMatches(f, cond, f.Query.pgMatch(), ExactTotal+1, 3*(ExactTotal+1))
	// The LIMIT keeps the planner's estimate of the ids within ExactTotal+1, so that it joins
	// them by id (a phrase's estimate of thousands could otherwise choose a hash join over the
	// whole table).
	ranked := ix.rdb.NewSelect().TableExpr("(SELECT ids.id FROM ids LIMIT ?) AS c", ExactTotal+1).
		Join("JOIN search_pages AS sp ON sp.id = c.id").
		ColumnExpr("ts_rank(sp.tsv, ?, 1) AS rank, sp.space_id, sp.page_id, sp.content_id, sp.title", f.Query.tsquery(true)).
		Where("n.n <= ?", ExactTotal).
		OrderExpr("rank DESC, sp.title ASC, sp.page_id ASC").Limit(int64(page.Limit + 1)).Offset(int64(offset))
	var rows []*searchRow
	err = ix.rdb.NewSelect().
		WithQuery(bun.NewWithQuery("ids", ids).Materialized()).
		WithQuery(bun.NewWithQuery("n", ix.rdb.NewSelect().TableExpr("ids").ColumnExpr("count(*) AS n")).Materialized()).
		TableExpr("n").Join("LEFT JOIN LATERAL (?) AS r ON true", ranked).
		ColumnExpr("n.n AS total, coalesce(r.rank, 0) AS rank, coalesce(r.space_id, '') AS space_id, coalesce(r.page_id, '') AS page_id, r.content_id, coalesce(r.title, '') AS title").
		OrderExpr("r.rank DESC, r.title ASC, r.page_id ASC").
		Scan(ctx, &rows)
	if err != nil {
		return 0, false, nil, fmt.Errorf("count search matches: %w", err)
	}
	if len(rows) == 0 {
		return 0, false, nil, nil
	}
	matches = rows[0].Total
	if matches > ExactTotal {
		return matches, true, nil, nil
	}
	if rows[0].PageID == "" {
		rows = nil // the count's row alone: no match on this page
	}
	out := &Results[*Hit]{TotalIsExact: true}
	if len(rows) > page.Limit {
		rows, out.HasMore = rows[:page.Limit], true
	}
	out.Items = make([]*Hit, len(rows))
	for i, r := range rows {
		out.Items[i] = r.hit()
	}
	out.Total = matches
	out.Cursors = searchCursors("search", f, offset, len(rows))
	return matches, false, out, nil
}

// CountMatches counts the pages matching a search, and each of its words and phrases (excluded
// ones too: SQLite's bm25 counts them as well), up to ExactTotal+1: whether a word is common
// decides how the search is ranked (Filter.Common). One statement.
func (ix *Index) CountMatches(ctx context.Context, f Filter) (matches int, common bool, err error) {
	if f.Query.Empty() || len(f.SpaceIDs) == 0 {
		return 0, false, nil
	}
	clauses := f.Query.clauses()
	var words []Clause
	if ix.sqlite {
		words = phraseWords(clauses)
	}
	if len(f.Query.Groups) == 1 && len(clauses) == 1 || !ix.sqlite {
		// The query's own count is its word's. PostgreSQL counts the query alone: its exact
		// ranking reads the tsvectors of the at most ExactTotal matches, whatever their words'
		// pages (SQLite's bm25 reads every phrase's whole posting list), so only a query held by
		// more than ExactTotal pages is common.
		clauses = nil
	}
	clauses = append(clauses, words...)
	// A query held by more than ExactTotal pages is common whatever its words' counts, so they
	// are counted only when it is not (`zupa vot`: its two words' counts were two thirds of the
	// statement). OFFSET 0 keeps the query's count a subquery evaluated once (not flattened
	// into each CASE); both databases evaluate a CASE's branch only when taken.
	q := ix.rdb.NewSelect().TableExpr("(SELECT (?) AS n LIMIT 1 OFFSET 0) AS q", ix.matchTotal(f)).ColumnExpr("q.n")
	for i, c := range clauses {
		c.Negated = false
		one := f
		one.Query = Query{Groups: [][]Clause{{c}}}
		q = q.ColumnExpr("CASE WHEN q.n > ? THEN 0 ELSE (?) END AS ?", ExactTotal, ix.matchTotal(one), bun.Ident(fmt.Sprintf("c%d", i)))
	}
	rows, err := q.Rows(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("count search matches: %w", err)
	}
	defer rows.Close()
	counts := make([]int, len(clauses)+1)
	ptrs := make([]any, len(counts))
	for i := range counts {
		ptrs[i] = &counts[i]
	}
	if rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, false, fmt.Errorf("count search matches: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, false, fmt.Errorf("count search matches: %w", err)
	}
	for _, n := range counts {
		common = common || n > ExactTotal
	}
	return counts[0], common, nil
}
