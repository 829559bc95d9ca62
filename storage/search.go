package storage

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// SearchFilter is what a search looks for and where: the current content of the given spaces
// of one organization (the caller decides which spaces may be read).
type SearchFilter struct {
	OrganizationID string
	SpaceIDs       []string
	Query          MatchQuery
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
func (s *Store) searchMatches(f SearchFilter, perSpace int) *bun.SelectQuery {
	if f.Common && !f.Query.AnyWord {
		return s.commonMatches(f, perSpace)
	}
	if s.dialect == SQLite && f.commonTerm() {
		return s.commonAnyWord(f, perSpace)
	}
	if s.dialect == Postgres {
		// On PostgreSQL a query is common only beyond ExactTotal matches (CountMatches), so here
		// its matches are all candidates: one index scan (a title scan beside it read the words'
		// posting lists, and rechecked a phrase's candidates, twice). Materialized: under a LIMIT
		// PostgreSQL may prefer a sequential scan (pgFirstMatches).
		rank := bun.SafeQuery("ts_rank(sp.tsv, ?, 1)", f.Query.tsquery(true))
		if f.Query.AnyWord {
			return s.rdb.NewSelect().WithQuery(bun.NewWithQuery("cand", s.pgAnyWordCandidates(f)).Materialized()).
				TableExpr("cand").Join("JOIN search_pages AS sp ON sp.id = cand.id").
				ColumnExpr("? AS rank, sp.space_id, sp.page_id, sp.content_id, sp.title", s.coverage(f, rank, 1))
		}
		// The rows are ranked as the index scan reads them: joined again by id, each cost
		// three more index pages.
		cand := s.pgMatches(f).ColumnExpr("? AS rank, sp.space_id, sp.page_id, sp.content_id, sp.title", rank).
			Limit(searchCandidates)
		return s.rdb.NewSelect().WithQuery(bun.NewWithQuery("cand", cand).Materialized()).
			TableExpr("cand").ColumnExpr("cand.rank, cand.space_id, cand.page_id, cand.content_id, cand.title")
	}
	var titles []string
	for _, c := range f.Query.terms() {
		titles = append(titles, fts5Clause(c))
	}
	titled := s.ftsRanked(f, "{title} : ("+strings.Join(titles, " OR ")+") AND ("+f.Query.fts5()+")", titleCandidates)
	any := s.ftsRanked(f, f.Query.fts5(), searchCandidates)
	rank := bun.SafeQuery("fts.bm25")
	if f.Query.AnyWord {
		rank = s.coverage(f, bun.SafeQuery("fts.bm25"), 0.05)
	}
	// A page found by both scans keeps its title scan's score (its title phrases add to it), so
	// every title hit among the candidates is scored alike. SQLite takes the bare columns from
	// the row holding the max.
	return s.rdb.NewSelect().TableExpr("(SELECT id, max(bm25) AS bm25, space_id, page_id, content_id, title FROM (? UNION ALL ?) GROUP BY id) AS fts", titled, any).
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
func (s *Store) commonMatches(f SearchFilter, perSpace int) *bun.SelectQuery {
	if s.dialect == SQLite && f.Matches <= commonFewMatches {
		return s.commonFew(f)
	}
	titles, others, groups := s.commonScanGroups(f, perSpace)
	var sql []string
	var args []any
	for _, ids := range groups {
		g := f
		g.SpaceIDs = ids
		sql = append(sql, "SELECT * FROM (?) AS t", "SELECT * FROM (?) AS o")
		args = append(args, s.commonScan(g, true, titles), s.commonScan(g, false, others))
	}
	return s.rdb.NewSelect().TableExpr("(SELECT max(u.rank) AS rank, u.space_id, u.page_id, u.content_id, u.title FROM ("+
		strings.Join(sql, " UNION ALL ")+") AS u GROUP BY u.id, u.space_id, u.page_id, u.content_id, u.title) AS fts", args...).
		ColumnExpr("fts.rank, fts.space_id, fts.page_id, fts.content_id, fts.title")
}

// commonScanGroups is how a search with a common term scans its spaces: all together, bounded
// to commonTitles title hits and commonOthers others, or, when perSpaceScans, each space on its
// own, bounded to 3 × perSpace title hits and perSpace others.
func (s *Store) commonScanGroups(f SearchFilter, perSpace int) (titles, others int, groups [][]string) {
	if !s.perSpaceScans(f, perSpace) {
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
func (s *Store) perSpaceScans(f SearchFilter, perSpace int) bool {
	return s.dialect == SQLite && perSpace > 0 && len(f.SpaceIDs) > 1 && len(f.SpaceIDs) <= perSpaceScans
}

// commonScan reads up to limit matches of a Common search in the filter's spaces (with titled,
// only those whose title holds a searched word), each ranked by the searched words its title
// holds: PostgreSQL's ts_rank of the title's own small tsvector, SQLite's count of the title's
// matches (highlight marks them, from the row's position list).
func (s *Store) commonScan(f SearchFilter, titled bool, limit int) *bun.SelectQuery {
	if s.dialect == Postgres {
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
		return s.rdb.NewSelect().TableExpr("(?) AS l", s.pgFirstMatches(f, cond, index, limit, commonHead)).
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
	scan := s.ftsMatches(f, match).
		ColumnExpr("sp.id, sp.space_id, sp.page_id, sp.content_id, sp.title, ? AS marked", bun.Safe(marked)).
		Limit(int64(limit))
	return s.rdb.NewSelect().TableExpr("(?) AS c", scan).
		ColumnExpr("c.id, c.space_id, c.page_id, c.content_id, c.title, CAST(length(c.marked) - length(replace(c.marked, char(1), '')) AS REAL) AS rank")
}

// pgMatches selects the ids of the filter's pages that match its query (PostgreSQL), through
// the GIN indexes (pgMatch).
func (s *Store) pgMatches(f SearchFilter) *bun.SelectQuery {
	return pgInSpaces(s.rdb.NewSelect().TableExpr("search_pages AS sp").Column("sp.id"), f).
		Where("?", f.Query.pgMatch())
}

// pgInSpaces restricts a scan of search_pages AS sp through its GIN indexes to the filter's
// spaces (PostgreSQL). The indexes hold each page's organization and space beside its words, so
// the index scan intersects one of them with the words' pages; the other is tested on the rows
// (IS TRUE is no index condition). For one space, the space: the organization's entries add
// nothing to it, and intersecting them too doubled the scan of a word on most pages (24 → 13 ms
// for "hugo -mositoti"). Across spaces, the organization: a list of spaces is one GIN scan per
// space, each reading the words' posting lists again (106 ms against 17 ms for the 8 words of
// "mosa" in 10 spaces); an organization search covers most of its spaces anyway.
func pgInSpaces(q *bun.SelectQuery, f SearchFilter) *bun.SelectQuery {
	if len(f.SpaceIDs) == 1 {
		return q.Where("(sp.organization_id = ?) IS TRUE", f.OrganizationID).Where("sp.space_id = ?", f.SpaceIDs[0])
	}
	return q.Where("sp.organization_id = ?", f.OrganizationID).Where("(sp.space_id IN (?)) IS TRUE", bun.List(f.SpaceIDs))
}

// PostgreSQL's bounded scans (pgFirstMatches): a probe of the first probeRows pages of the
// searched spaces, and the head read when the probe finds the matches common enough; a common
// search's candidate scans read a head of commonHead pages.
const (
	probeRows  = 200
	commonHead = 3000
)

// pgFirstMatches selects the ids of up to limit of the filter's pages where cond holds (cond
// names the row sp and its tsv and title_tsv), PostgreSQL; index is cond as the GIN scan tests
// it (pgMatch: a phrase through its adjacent-word pairs), the probe and the head test cond. A
// GIN index scan cannot stop early: it builds the bitmap of every match before the first row is
// read (20–30 ms for a word on most of 100,000 pages, the tail of common words, phrases and
// counts). So the first probeRows
// pages of the spaces, in index order (search_pages_page), are tested first: when enough of them
// match for 1.5 × head pages to hold limit matches, up to 3 × head pages are read in order and
// the first limit matches taken, which for a common word stops after a few hundred rows, and at
// the threshold share after 1.5 × head (about 2 µs a page). A rare word (or a head that found
// fewer than limit) takes the GIN index (a materialized CTE read as far as the limit:
// under a plain LIMIT PostgreSQL, overestimating a word's completions, scanned the whole table
// for the first matches, 1.1 s for 25 matches). The gates are InitPlans, so the branch not taken
// is never run.
func (s *Store) pgFirstMatches(f SearchFilter, cond, index schema.QueryWithArgs, limit, head int) *bun.SelectQuery {
	return s.pgFirstMatchesSample(f, cond, index, limit, head, limit)
}

// pgFirstMatchesSample is pgFirstMatches taking only the first sample matches when the head
// (the matches are common) is read.
func (s *Store) pgFirstMatchesSample(f SearchFilter, cond, index schema.QueryWithArgs, limit, head, sample int) *bun.SelectQuery {
	pages := func(n int) *bun.SelectQuery {
		return s.rdb.NewSelect().TableExpr("search_pages AS p").ColumnExpr("p.id, p.tsv, p.title_tsv").
			Where("p.organization_id = ?", f.OrganizationID).
			Where("p.space_id IN (?)", bun.List(f.SpaceIDs)).
			OrderExpr("p.space_id, p.page_id").Limit(int64(n))
	}
	probe := s.rdb.NewSelect().TableExpr("(?) AS sp", pages(probeRows)).ColumnExpr("count(*) AS n").Where("?", cond)
	// The head may read twice as far as the probe's share promises limit matches: a head that
	// falls short has its work thrown away for the GIN index (at a threshold of head pages it
	// did half the time: `japa`'s other matches, 86 of 100 in 3,000 pages, 5 ms, then the
	// index). And the threshold is 1.5 × head rather than head: the GIN scan of a phrase or
	// word on a fifth to a third of the pages builds a bitmap of tens of thousands of them,
	// which PostgreSQL may run in parallel workers (the count of `"mositoti hugo"`, 27,555
	// pages of 100,000 and 55 of the probe's 200: 19 ms serial, 68–90 ms in parallel on a
	// loaded machine, 5–9 ms from the head).
	reach := 3 * head
	first := s.rdb.NewSelect().TableExpr("(?) AS sp", pages(reach)).Column("sp.id").Where("?", cond).Limit(int64(limit))
	all := pgInSpaces(s.rdb.NewSelect().TableExpr("search_pages AS sp").Column("sp.id"), f).Where("?", index)
	enough := (2*limit*probeRows + reach - 1) / reach
	return s.rdb.NewSelect().
		WithQuery(bun.NewWithQuery("probe", probe).Materialized()).
		WithQuery(bun.NewWithQuery("head", first).Materialized()).
		WithQuery(bun.NewWithQuery("m", all).Materialized()).
		TableExpr(`(SELECT h.id FROM (SELECT head.id FROM head LIMIT ?) AS h WHERE (SELECT n FROM probe) >= ? AND (SELECT count(*) FROM head) >= ?
			UNION ALL
			SELECT g.id FROM (SELECT m.id FROM m LIMIT ?) AS g WHERE (SELECT n FROM probe) < ? OR (SELECT count(*) FROM head) < ?) AS f`,
			sample, enough, limit, limit, enough, limit).
		Column("f.id")
}

// commonTerm reports whether an AnyWord query has a positive term held by more than ExactTotal
// of the searched pages (TermCounts).
func (f SearchFilter) commonTerm() bool {
	if !f.Query.AnyWord {
		return false
	}
	for _, c := range f.Query.terms() {
		if f.TermCounts[strings.Join(c.Words, " ")] > ExactTotal {
			return true
		}
	}
	return false
}

// pgAnyWordCandidates are the candidates of an AnyWord query (PostgreSQL): for each term, its
// matches (without the exclusions) up to ExactTotal, or, for a term on most pages, the first
// commonTitles+commonOthers of them (pgFirstMatches). So every page of a rare term is ranked
// (coverage puts the pages holding the most, and rarest, terms first), and a common term costs
// a few hundred rows. The first matches of the whole query in heap order (a title scan and a
// scan, each under a LIMIT, which PostgreSQL ran as sequential scans) left out the one page
// holding both words of "topic 99999" and read 4,000 candidates' tsvectors.
func (s *Store) pgAnyWordCandidates(f SearchFilter) *bun.SelectQuery {
	var parts []string
	var args []any
	for _, c := range f.Query.terms() {
		one := MatchQuery{Groups: [][]MatchClause{append([]MatchClause{c}, f.Query.exclusions()...)}}
		cond := bun.SafeQuery("sp.tsv @@ ?", one.tsquery(false))
		parts = append(parts, "SELECT t.id FROM (?) AS t")
		args = append(args, s.pgFirstMatchesSample(f, cond, one.pgMatch(), ExactTotal, 3*ExactTotal, commonTitles+commonOthers))
	}
	return s.rdb.NewSelect().TableExpr("("+strings.Join(parts, " UNION ")+") AS c", args...).Column("c.id")
}

// ftsRanked scans the FTS5 matches of an expression in the filter's spaces, up to limit of them,
// each with its bm25 (title weighted 10 to the body's 1), highest best (SQLite). bm25 works only
// in the statement that scans the FTS5 table, and only in one scan: restricting the scan with
// `rowid IN (candidates)` runs the MATCH once per candidate and recounts each phrase's documents
// each time (3 s for 133 pages of a 100,000-page space). The spaces are filtered by joining the
// index rows, not inside the MATCH: a space id phrase is on every page of the space, so bm25
// would read its whole posting list on every search. SQLite takes no LIMIT inside a UNION's
// parts unless each is a subquery.
func (s *Store) ftsRanked(f SearchFilter, match string, limit int) *bun.SelectQuery {
	return s.rdb.NewSelect().TableExpr("(?) AS c", s.ftsMatches(f, match).
		ColumnExpr("sp.id, -bm25(search_pages_fts, 10.0, 1.0, 0.0) AS bm25, sp.space_id, sp.page_id, sp.content_id, sp.title").
		Limit(int64(limit))).Column("c.*")
}

// coverage ranks a page of an AnyWord query by the query it covers: the sum of the weights of
// the terms it holds (Weights: rarer terms weigh more), a term in the title counting three
// times; the database's own rank, scaled by tieBreak, orders pages of equal coverage.
func (s *Store) coverage(f SearchFilter, rank schema.QueryWithArgs, tieBreak float64) schema.QueryWithArgs {
	var sql strings.Builder
	var args []any
	for _, c := range f.Query.terms() {
		w := f.Weights[strings.Join(c.Words, " ")]
		if w == 0 {
			w = 1
		}
		if s.dialect == Postgres {
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

// fts5InSpaces restricts an FTS5 expression to the pages of up to perSpaceScans spaces through
// the space_id column (SQLite), where no bm25 is computed (it would read the spaces' whole
// posting lists). The index rows are joined and filtered by space all the same; this lets FTS5
// skip the other spaces' postings instead of reading them in rowid order: counting 1,001 pages
// of a word in the last of 200,000 pages' spaces read the 100,000 pages of another
// organization first (146 ms in C SQLite; 7 ms with the space ids in the MATCH).
func fts5InSpaces(spaceIDs []string, match string) string {
	if len(spaceIDs) == 0 || len(spaceIDs) > perSpaceScans {
		return match
	}
	ids := make([]string, len(spaceIDs))
	for i, id := range spaceIDs {
		// The tokenizer splits an id where phraseText would join it: quote its parts as a phrase.
		ids[i] = fts5String(phraseText(strings.FieldsFunc(id, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
		})))
	}
	return "{space_id} : (" + strings.Join(ids, " OR ") + ") AND (" + match + ")"
}

// fts5String quotes s as an FTS5 string.
func fts5String(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// matchTotal counts the pages matching a search, up to ExactTotal+1: beyond ExactTotal the
// count is a lower bound.
func (s *Store) matchTotal(f SearchFilter) *bun.SelectQuery {
	if s.dialect == Postgres {
		cond := bun.SafeQuery("sp.tsv @@ ?", f.Query.tsquery(false))
		return s.rdb.NewSelect().TableExpr("(?) AS l", s.pgFirstMatches(f, cond, f.Query.pgMatch(), ExactTotal+1, 3*(ExactTotal+1))).
			ColumnExpr("count(*)")
	}
	m := s.ftsMatches(f, fts5InSpaces(f.SpaceIDs, f.Query.fts5())).Column("sp.id")
	return s.rdb.NewSelect().TableExpr("(?) AS m", m.Limit(int64(ExactTotal+1))).ColumnExpr("count(*)")
}

// TermFrequencies returns, for each term of the filter's query (a word or a phrase's words
// joined by a space), how many of the filter's pages hold it, counted up to ExactTotal+1, and
// how many pages there are: what an AnyWord search weighs its terms by. One statement.
func (s *Store) TermFrequencies(ctx context.Context, f SearchFilter) (map[string]int, int, error) {
	terms := f.Query.terms()
	q := s.rdb.NewSelect().ColumnExpr("(?) AS n", s.pageCount(f))
	for i, c := range terms {
		one := f
		one.Query = MatchQuery{Groups: [][]MatchClause{{c}}}
		q = q.ColumnExpr("(?) AS ?", s.matchTotal(one), bun.Ident(fmt.Sprintf("t%d", i)))
	}
	rows, err := q.Rows(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("search term frequencies: %w", translate(err))
	}
	defer rows.Close()
	counts := make([]int, len(terms)+1)
	ptrs := make([]any, len(counts))
	for i := range counts {
		ptrs[i] = &counts[i]
	}
	if rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, 0, fmt.Errorf("search term frequencies: %w", translate(err))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("search term frequencies: %w", translate(err))
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
func (s *Store) pageCount(f SearchFilter) *bun.SelectQuery {
	// The spaces are the organization's (SearchFilter), and the count decides no page's access,
	// only the terms' weights: without the organization's column it reads the (space_id,
	// page_id) index alone (SQLite: 36 ms instead of 5 ms for 100,000 pages).
	pages := s.rdb.NewSelect().TableExpr("search_pages AS sp").ColumnExpr("1").
		Where("sp.space_id IN (?)", bun.List(f.SpaceIDs))
	if s.dialect == Postgres {
		pages = pages.OrderExpr("sp.space_id, sp.page_id").Limit(pageCountLimit)
	}
	return s.rdb.NewSelect().TableExpr("(?) AS p", pages).ColumnExpr("count(*)")
}

// pageCountLimit bounds the count of pages that weighs an any-word query's terms (PostgreSQL).
const pageCountLimit = 10 * (ExactTotal + 1)

// searchOffset reads a search page token: the offset of the next result, for this query only.
func searchOffset(list string, f SearchFilter, page Window) (int, error) {
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

// SearchResults is a page of search results; Total is exact when TotalIsExact, and a lower
// bound (ExactTotal+1) otherwise.
type SearchResults[T any] struct {
	List[T]
	TotalIsExact bool
}

// SearchPages pages through the pages matching a search, most relevant first (ties by title,
// then id). One statement. Errors: ErrInvalidCursor.
func (s *Store) SearchPages(ctx context.Context, f SearchFilter, page Window) (SearchResults[*SearchHit], error) {
	out := SearchResults[*SearchHit]{TotalIsExact: true}
	offset, err := searchOffset("search", f, page)
	if err != nil || f.Query.Empty() || len(f.SpaceIDs) == 0 {
		out.Items, out.Cursors = []*SearchHit{}, []string{}
		return out, err
	}
	var rows []*searchRow
	total := bun.SafeQuery("count(*) OVER ()")
	if f.commonTerm() {
		// The candidates are a bounded few (a common term's are sampled on both databases):
		// count the matches (up to ExactTotal+1) instead.
		total = bun.SafeQuery("(?)", s.matchTotal(f))
	}
	q := s.rdb.NewSelect().TableExpr("(?) AS r", s.searchMatches(f, 0)).
		ColumnExpr("r.*, ? AS total", total).
		OrderExpr("r.rank DESC, r.title ASC, r.page_id ASC").Limit(int64(page.Limit + 1)).Offset(int64(offset))
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
	if f.Common && !f.Query.AnyWord {
		// The candidates are a bounded few: the planning count is the total.
		out.Total = f.Matches
	} else if len(rows) == 0 && offset > 0 {
		if err := s.matchTotal(f).Scan(ctx, &out.Total); err != nil {
			return out, fmt.Errorf("count search results: %w", translate(err))
		}
	}
	out.Total, out.TotalIsExact = min(out.Total, ExactTotal+1), out.Total <= ExactTotal
	out.Cursors = searchCursors("search", f, offset, len(rows))
	return out, nil
}

// SearchSpaces pages through the spaces holding pages that match a search, each with its
// perSpace best pages; spaces are ordered by their best page's relevance. One statement.
// Errors: ErrInvalidCursor.
func (s *Store) SearchSpaces(ctx context.Context, f SearchFilter, perSpace int, page Window) (SearchResults[*SpaceHits], error) {
	out := SearchResults[*SpaceHits]{TotalIsExact: true}
	offset, err := searchOffset("search.spaces", f, page)
	if err != nil || f.Query.Empty() || len(f.SpaceIDs) == 0 {
		out.Items, out.Cursors = []*SpaceHits{}, []string{}
		return out, err
	}
	var rows []*searchRow
	err = s.rdb.NewRaw(`SELECT space_id, page_id, content_id, title, rank, n, total FROM (
		SELECT m.*, row_number() OVER (PARTITION BY m.space_id ORDER BY m.rank DESC, m.title ASC, m.page_id ASC) AS n,
			max(m.rank) OVER (PARTITION BY m.space_id) AS best, count(*) OVER () AS total
		FROM (?) AS m) AS ranked
	WHERE n <= ? ORDER BY best DESC, space_id ASC, n ASC`, s.searchMatches(f, perSpace), perSpace).Scan(ctx, &rows)
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
		// The spaces are those of the ranked candidates: all of them when the matches were
		// few enough to rank every one, or when each space was scanned on its own.
		out.TotalIsExact = r.Total <= ExactTotal
	}
	if f.Common && !f.Query.AnyWord {
		// Exact when every space was scanned, or every match was a candidate.
		out.TotalIsExact = s.perSpaceScans(f, perSpace) || len(f.SpaceIDs) == 1 || f.Matches <= commonOthers ||
			(s.dialect == SQLite && f.Matches <= commonFewMatches)
	} else if f.commonTerm() {
		// Every space was scanned (SQLite's commonAnyWord), or its candidates are a sample.
		out.TotalIsExact = s.perSpaceScans(f, perSpace) || len(f.SpaceIDs) == 1
	}
	start := min(offset, len(all))
	end := min(start+page.Limit, len(all))
	out.Items, out.Total, out.HasMore = all[start:end], len(all), end < len(all)
	out.Cursors = searchCursors("search.spaces", f, start, len(out.Items))
	return out, nil
}

// PageKey names a page of a space.
type PageKey struct{ SpaceID, PageID string }

// CurrentPageChains returns, for pages of spaces' current content, each page's version followed
// by its ancestors, nearest first, keyed by space id + "/" + page id: one recursive statement for
// any number of pages. Pages no longer current are left out. The pages are looked up as (space,
// page) pairs: page ids repeat across spaces, and spaces × page ids found 990 pages for the 100
// results of an organization search of 10 spaces. "Current" is written
// COALESCE(to_seq, 0) = 0 (sequences start at 1) rather than to_seq IS NULL so that SQLite walks
// the (line, page_id) index: with to_seq IS NULL it picks (line, to_seq) and scans every current
// page of the space at each step (2 s instead of 9 ms at 100,000 pages). The versions are then
// read in the chain's order (joinInOrder): SQLite 3.51 otherwise scans every page version. A
// parent is found by a scalar subquery rather than a join: joined, SQLite built a Bloom filter
// over every page version at each step of the recursion (120 ms for the chains of 100 pages at
// 200,000 page versions in C SQLite; 2 ms looked up one by one). A page has one current version
// per line.
func (s *Store) CurrentPageChains(ctx context.Context, pages []PageKey) (map[string][]*PageVersion, error) {
	out := map[string][]*PageVersion{}
	if len(pages) == 0 {
		return out, nil
	}
	values := make([]string, len(pages))
	args := make([]any, 0, 2*len(pages))
	for i, p := range pages {
		values[i] = "(?, ?)"
		args = append(args, p.SpaceID, p.PageID)
	}
	var rows []struct {
		PageVersion
		StartPage string `bun:"start_page"`
	}
	err := s.rdb.NewRaw(`WITH RECURSIVE chain(start_page, version_id, depth) AS (
		SELECT pv.page_id, pv.id, 0 FROM page_versions pv
		WHERE (pv.line, pv.page_id) IN (VALUES ?) AND pv.line = pv.space_id AND COALESCE(pv.to_seq, 0) = 0 AND NOT pv.deleted
		UNION ALL
		SELECT chain.start_page, pv.id, chain.depth + 1 FROM chain
		JOIN page_versions child ON child.id = chain.version_id
		JOIN page_versions pv ON pv.id = (SELECT p.id FROM page_versions p
			WHERE p.line = child.line AND p.page_id = child.parent_id AND COALESCE(p.to_seq, 0) = 0 AND NOT p.deleted)
		WHERE chain.depth < 64
	) SELECT pv.*, chain.start_page FROM chain ? page_versions pv ON pv.id = chain.version_id
	ORDER BY chain.start_page, chain.depth`, bun.SafeQuery(strings.Join(values, ", "), args...), bun.Safe(s.dialect.joinInOrder())).Scan(ctx, &rows)
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

// CountAndSearchPages is CountMatches that, on PostgreSQL, also ranks in the same statement the
// page of results SearchPages would give for the filter as counted (not Common, not AnyWord),
// when at most ExactTotal pages match: the count then read every match through the GIN index,
// and the page read them again (`hugo -mositoti`: both words' posting lists, 10–13 ms each
// time). The page is ranked from the count's ids, joined by id, only when the count allows it
// (a one-time filter on the count, so a common query ranks nothing). hits is nil when no page
// was ranked (SQLite, more than ExactTotal matches, a page token of another query): the caller
// pages with SearchPages.
func (s *Store) CountAndSearchPages(ctx context.Context, f SearchFilter, page Window) (matches int, common bool, hits *SearchResults[*SearchHit], err error) {
	offset, cursorErr := searchOffset("search", f, page)
	if s.dialect != Postgres || f.Query.Empty() || f.Query.AnyWord || len(f.SpaceIDs) == 0 || cursorErr != nil {
		matches, common, err = s.CountMatches(ctx, f)
		return matches, common, nil, err
	}
	cond := bun.SafeQuery("sp.tsv @@ ?", f.Query.tsquery(false))
	ids := s.pgFirstMatches(f, cond, f.Query.pgMatch(), ExactTotal+1, 3*(ExactTotal+1))
	// The LIMIT keeps the planner's estimate of the ids within ExactTotal+1, so that it joins
	// them by id (a phrase's estimate of thousands could otherwise choose a hash join over the
	// whole table).
	ranked := s.rdb.NewSelect().TableExpr("(SELECT ids.id FROM ids LIMIT ?) AS c", ExactTotal+1).
		Join("JOIN search_pages AS sp ON sp.id = c.id").
		ColumnExpr("ts_rank(sp.tsv, ?, 1) AS rank, sp.space_id, sp.page_id, sp.content_id, sp.title", f.Query.tsquery(true)).
		Where("n.n <= ?", ExactTotal).
		OrderExpr("rank DESC, sp.title ASC, sp.page_id ASC").Limit(int64(page.Limit + 1)).Offset(int64(offset))
	var rows []*searchRow
	err = s.rdb.NewSelect().
		WithQuery(bun.NewWithQuery("ids", ids).Materialized()).
		WithQuery(bun.NewWithQuery("n", s.rdb.NewSelect().TableExpr("ids").ColumnExpr("count(*) AS n")).Materialized()).
		TableExpr("n").Join("LEFT JOIN LATERAL (?) AS r ON true", ranked).
		ColumnExpr("n.n AS total, coalesce(r.rank, 0) AS rank, coalesce(r.space_id, '') AS space_id, coalesce(r.page_id, '') AS page_id, r.content_id, coalesce(r.title, '') AS title").
		OrderExpr("r.rank DESC, r.title ASC, r.page_id ASC").
		Scan(ctx, &rows)
	if err != nil {
		return 0, false, nil, fmt.Errorf("count search matches: %w", translate(err))
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
	out := &SearchResults[*SearchHit]{TotalIsExact: true}
	if len(rows) > page.Limit {
		rows, out.HasMore = rows[:page.Limit], true
	}
	out.Items = make([]*SearchHit, len(rows))
	for i, r := range rows {
		out.Items[i] = r.hit()
	}
	out.Total = matches
	out.Cursors = searchCursors("search", f, offset, len(rows))
	return matches, false, out, nil
}

// CountMatches counts the pages matching a search, and each of its words and phrases (excluded
// ones too: SQLite's bm25 counts them as well), up to ExactTotal+1: whether a word is common
// decides how the search is ranked (SearchFilter.Common). One statement.
func (s *Store) CountMatches(ctx context.Context, f SearchFilter) (matches int, common bool, err error) {
	if f.Query.Empty() || len(f.SpaceIDs) == 0 {
		return 0, false, nil
	}
	clauses := f.Query.clauses()
	var words []MatchClause
	if s.dialect == SQLite {
		words = phraseWords(clauses)
	}
	if len(f.Query.Groups) == 1 && len(clauses) == 1 || s.dialect == Postgres {
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
	q := s.rdb.NewSelect().TableExpr("(SELECT (?) AS n LIMIT 1 OFFSET 0) AS q", s.matchTotal(f)).ColumnExpr("q.n")
	for i, c := range clauses {
		c.Negated = false
		one := f
		one.Query = MatchQuery{Groups: [][]MatchClause{{c}}}
		q = q.ColumnExpr("CASE WHEN q.n > ? THEN 0 ELSE (?) END AS ?", ExactTotal, s.matchTotal(one), bun.Ident(fmt.Sprintf("c%d", i)))
	}
	rows, err := q.Rows(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("count search matches: %w", translate(err))
	}
	defer rows.Close()
	counts := make([]int, len(clauses)+1)
	ptrs := make([]any, len(counts))
	for i := range counts {
		ptrs[i] = &counts[i]
	}
	if rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return 0, false, fmt.Errorf("count search matches: %w", translate(err))
		}
	}
	if err := rows.Err(); err != nil {
		return 0, false, fmt.Errorf("count search matches: %w", translate(err))
	}
	for _, n := range counts {
		common = common || n > ExactTotal
	}
	return counts[0], common, nil
}
