package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// commonAnyWord are the candidates of an AnyWord query with a common term, ranked by coverage
// (SQLite). The exact AnyWord ranking (coverage over ftsRanked's 4,000 candidates) reads a
// common term's whole posting list three times: bm25 counts its pages, and coverage's
// `id IN (SELECT rowid … MATCH term)` lists every page holding it, in the body and in the title
// (`topic 99999` over 100,000 pages: seconds). Here the candidates are bounded and no statement
// reads a common term's whole posting list:
//
//   - every match of the rare terms (each held by at most ExactTotal pages), up to
//     searchCandidates;
//   - the first commonTitles matches of the whole query whose title holds a searched term, and
//     the first commonOthers others (per space in an organization search of at most
//     perSpaceScans spaces, as commonMatches).
//
// Each candidate's coverage is exact: a rare term is looked up in its own short posting list
// (`id IN`, the list read once), a common term by the candidate's rowid (FTS5 seeks to it
// through the doclist index instead of reading the list; ~8 µs a seek in C SQLite). No bm25: it would read every
// phrase's whole posting list; pages of equal coverage are ordered by title.
func (ix *Index) commonAnyWord(f Filter, perSpace int) *bun.SelectQuery {
	var rare []Clause
	for _, c := range f.Query.units() {
		if f.TermCounts[strings.Join(c.Words, " ")] <= ExactTotal {
			rare = append(rare, c)
		}
	}
	var sql []string
	var args []any
	if len(rare) > 0 {
		r := Query{Groups: [][]Clause{append(rare, f.Query.exclusions()...)}, AnyWord: true}
		sql = append(sql, "SELECT * FROM (?) AS a")
		args = append(args, ix.ftsScan(f, fts5InSpaces(f.SpaceIDs, r.fts5()), searchCandidates))
	}
	titles, others, groups := ix.commonScanGroups(f, perSpace)
	for _, ids := range groups {
		g := f
		g.SpaceIDs = ids
		sql = append(sql, "SELECT * FROM (?) AS t", "SELECT * FROM (?) AS o")
		args = append(args, ix.ftsScan(g, fts5InSpaces(ids, f.Query.fts5Titled()), titles), ix.ftsScan(g, fts5InSpaces(ids, f.Query.fts5()), others))
	}
	var rank strings.Builder
	var rankArgs []any
	for _, c := range f.Query.units() {
		key := strings.Join(c.Words, " ")
		w := f.Weights[key]
		if w == 0 {
			w = 1
		}
		clause := fts5Clause(c)
		if f.TermCounts[key] <= ExactTotal {
			rank.WriteString("(CASE WHEN fts.id IN (SELECT rowid FROM search_pages_fts WHERE search_pages_fts MATCH ?) " +
				"THEN ? * (1 + 2 * (fts.id IN (SELECT rowid FROM search_pages_fts WHERE search_pages_fts MATCH ?))) ELSE 0 END) + ")
			rankArgs = append(rankArgs, fts5InSpaces(f.SpaceIDs, clause), w, fts5InSpaces(f.SpaceIDs, "{title} : "+clause))
			continue
		}
		// One seek: the row is there when the page holds the term, and highlight marks the
		// term in its title (half the time of a second seek for the title alone).
		rank.WriteString("COALESCE((SELECT ? * (1 + 2 * (instr(h.marked, char(1)) > 0)) FROM (SELECT highlight(search_pages_fts, 0, char(1), '') AS marked " +
			"FROM search_pages_fts WHERE search_pages_fts MATCH ? AND rowid = fts.id) AS h), 0) + ")
		rankArgs = append(rankArgs, w, clause)
	}
	rank.WriteString("0")
	return ix.rdb.NewSelect().TableExpr("("+strings.Join(sql, " UNION ")+") AS fts", args...).
		ColumnExpr("CAST(? AS REAL) AS rank, fts.space_id, fts.page_id, fts.content_id, fts.title", bun.SafeQuery(rank.String(), rankArgs...))
}

// ftsMatches reads the pages of the filter's spaces matching an FTS5 expression, in the index's
// order (SQLite): search_pages_fts joined to its rows in search_pages (sp), for the caller to add
// its columns and limit. CROSS JOIN keeps the FTS5 scan outermost, and the spaces are filtered
// on the joined rows rather than in the MATCH (see ftsRanked).
func (ix *Index) ftsMatches(f Filter, match string) *bun.SelectQuery {
	return ix.rdb.NewSelect().TableExpr("search_pages_fts").
		Join("CROSS JOIN search_pages AS sp ON sp.id = search_pages_fts.rowid").
		Where("search_pages_fts MATCH ?", match).
		Where("sp.organization_id = ?", f.OrganizationID).
		Where("sp.space_id IN (?)", bun.List(f.SpaceIDs))
}

// ftsScan reads up to limit pages of the filter's spaces matching an FTS5 expression, in index
// order, without ranking them (SQLite): (id, space_id, page_id, content_id, title).
func (ix *Index) ftsScan(f Filter, match string, limit int) *bun.SelectQuery {
	return ix.ftsMatches(f, match).ColumnExpr("sp.id, sp.space_id, sp.page_id, sp.content_id, sp.title").Limit(int64(limit))
}

// phraseWords are the words of the clauses' phrases that are not clauses themselves (SQLite's
// planning count counts them too). A phrase of common words is ranked as a common word is
// (commonMatches), however few pages hold the phrase: bm25 counts the pages holding a phrase
// by reading its words' whole posting lists with their positions, in each of the two ranked
// scans (`"palomo rukezesa"`, 700 pages of two words on 30,000 and 15,000 of 100,000: 180 ms).
func phraseWords(clauses []Clause) []Clause {
	seen := map[string]bool{}
	for _, c := range clauses {
		if len(c.Words) == 1 && len(c.Or) == 0 {
			seen[c.Words[0]] = true
		}
	}
	var out []Clause
	for _, c := range clauses {
		if len(c.Words) < 2 {
			continue
		}
		for _, w := range c.Words {
			if !seen[w] {
				seen[w] = true
				out = append(out, Clause{Words: []string{w}})
			}
		}
	}
	return out
}

// searchSegments is how many b-trees (segments) the FTS5 index may hold before
// Optimize merges them.
const searchSegments = 4

// Optimize merges the SQLite full-text index into one b-tree when writes have left it
// in more than searchSegments (PostgreSQL: nothing to do). FTS5 looks each term up in every
// segment, so a query's cost grows with their number: the 200,000 pages of the search benchmark,
// written 1,000 at a time, left 14, and an organization search of 10 spaces with a typed word
// (25 terms per scan, 20 scans) took 24 ms of C SQLite in them, 5 ms in one. Merging rewrites
// the index (2 s for those 200,000 pages in C SQLite) and holds the writer meanwhile: it runs
// after bulk loads (Analyze) and hourly (the search_optimize job), not on each write.
func (ix *Index) Optimize(ctx context.Context) error {
	if !ix.sqlite {
		return nil
	}
	var segments int
	if err := ix.db.NewRaw("SELECT count(DISTINCT segid) FROM search_pages_fts_idx").Scan(ctx, &segments); err != nil {
		return fmt.Errorf("optimize search index: %w", err)
	}
	if segments <= searchSegments {
		return nil
	}
	if _, err := ix.db.ExecContext(ctx, "INSERT INTO search_pages_fts (search_pages_fts) VALUES ('optimize')"); err != nil {
		return fmt.Errorf("optimize search index: %w", err)
	}
	return nil
}

// commonFewMatches is the most matches a Common search ranks all of in one scan (commonFew):
// beyond, reading and marking every match cost more than the two bounded scans
// (`liloreru -sanu`, about 800 pages: 6 ms in the bounded scans, 11 ms all marked).
const commonFewMatches = 300

// commonFew are the candidates of a Common search whose query matches at most commonFewMatches
// pages (the planning count, Filter.Matches; SQLite): every match, read in one scan of all the
// searched spaces and ranked by the searched words its title holds (highlight), as
// commonMatches ranks its sample. A query of common words matching few pages together (a
// phrase, an exclusion: `hugo -mositoti`, 214 pages) had its title scan read the words' whole
// posting lists for want of 100 title hits, and then a second scan for the others; an
// organization search did both per space (20 FTS5 cursors for 10 spaces). One scan reads the
// lists once, and every space with a match is listed: ranked statement 24–42 → 12 ms for
// `hugo -mositoti` (space), 16–30 → 6–8 ms for `topic 77` (organization, 10 pages).
func (ix *Index) commonFew(f Filter) *bun.SelectQuery {
	scan := ix.ftsMatches(f, fts5InSpaces(f.SpaceIDs, f.Query.fts5())).
		ColumnExpr("sp.space_id, sp.page_id, sp.content_id, sp.title, highlight(search_pages_fts, 0, char(1), '') AS marked").
		Limit(int64(commonFewMatches + 1))
	return ix.rdb.NewSelect().TableExpr("(?) AS fts", scan).
		ColumnExpr("CAST(length(fts.marked) - length(replace(fts.marked, char(1), '')) AS REAL) AS rank, fts.space_id, fts.page_id, fts.content_id, fts.title")
}

// ftsRanked scans the FTS5 matches of an expression in the filter's spaces, up to limit of them,
// each with its bm25 (title weighted 10 to the body's 1), highest best (SQLite). bm25 works only
// in the statement that scans the FTS5 table, and only in one scan: restricting the scan with
// `rowid IN (candidates)` runs the MATCH once per candidate and recounts each phrase's documents
// each time (3 s for 133 pages of a 100,000-page space). The spaces are filtered by joining the
// index rows, not inside the MATCH: a space id phrase is on every page of the space, so bm25
// would read its whole posting list on every search. SQLite takes no LIMIT inside a UNION's
// parts unless each is a subquery.
func (ix *Index) ftsRanked(f Filter, match string, limit int) *bun.SelectQuery {
	return ix.rdb.NewSelect().TableExpr("(?) AS c", ix.ftsMatches(f, match).
		ColumnExpr("sp.id, -bm25(search_pages_fts, 10.0, 1.0, 0.0) AS bm25, sp.space_id, sp.page_id, sp.content_id, sp.title").
		Limit(int64(limit))).Column("c.*")
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
		ids[i] = fts5String(phraseText(strings.FieldsFunc(id, func(r rune) bool { return !isWordRune(r) })))
	}
	return "{space_id} : (" + strings.Join(ids, " OR ") + ") AND (" + match + ")"
}

// fts5String quotes s as an FTS5 string.
func fts5String(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// fts5 renders the query as an SQLite FTS5 MATCH expression. Every word or phrase is a
// double-quoted string (words never hold a quote), so no input can make an FTS5 syntax error or
// reach its operators (NEAR, column filters, prefixes).
func (q Query) fts5() string {
	if q.AnyWord {
		var pos []string
		for _, c := range q.units() {
			pos = append(pos, fts5Clause(c))
		}
		return fts5Group(pos, q.exclusions())
	}
	groups := make([]string, len(q.Groups))
	for i, g := range q.Groups {
		var pos []string
		var neg []Clause
		for _, c := range g {
			if c.Negated {
				neg = append(neg, c)
			} else {
				pos = append(pos, fts5Clause(c))
			}
		}
		groups[i] = fts5Group([]string{strings.Join(pos, " AND ")}, neg)
	}
	return strings.Join(groups, " OR ")
}

// fts5Titled renders the query's matches whose title holds one of its words or phrases. A query
// of one word or phrase (with exclusions) puts the column filter on it: FTS5 would otherwise
// read its postings twice, once filtered to the title and once not.
func (q Query) fts5Titled() string {
	terms := q.units()
	if len(q.Groups) == 1 && len(terms) == 1 && !q.AnyWord {
		return fts5Group([]string{"{title} : " + fts5Clause(terms[0])}, q.exclusions())
	}
	titles := make([]string, len(terms))
	for i, c := range terms {
		titles[i] = fts5Clause(c)
	}
	return "{title} : (" + strings.Join(titles, " OR ") + ") AND (" + q.fts5() + ")"
}

// fts5Group is (any of pos) without any of neg.
func fts5Group(pos []string, neg []Clause) string {
	expr := "(" + strings.Join(pos, " OR ") + ")"
	if len(neg) > 0 {
		ns := make([]string, len(neg))
		for i, c := range neg {
			ns[i] = fts5Clause(c)
		}
		expr = "(" + expr + " NOT (" + strings.Join(ns, " OR ") + "))"
	}
	return expr
}

func fts5Clause(c Clause) string {
	s := `"` + phraseText(c.Words) + `"`
	if len(c.Or) == 0 {
		return s
	}
	alts := []string{s}
	for _, w := range c.Or {
		alts = append(alts, `"`+phraseText([]string{w})+`"`)
	}
	return "(" + strings.Join(alts, " OR ") + ")"
}
