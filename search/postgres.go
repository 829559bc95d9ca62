package search

import (
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// PostgreSQL's side of search: the weighted tsvector matched through its GIN index, ranked with
// ts_rank, and the bounded scans that keep common words cheap.

// pgMatches selects the ids of the filter's pages that match its query (PostgreSQL), through
// the GIN indexes (pgMatch).
func (ix *Index) pgMatches(f Filter) *bun.SelectQuery {
	return pgInSpaces(ix.rdb.NewSelect().TableExpr("search_pages AS sp").Column("sp.id"), f).
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
func pgInSpaces(q *bun.SelectQuery, f Filter) *bun.SelectQuery {
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
func (ix *Index) pgFirstMatches(f Filter, cond, index schema.QueryWithArgs, limit, head int) *bun.SelectQuery {
	return ix.pgFirstMatchesSample(f, cond, index, limit, head, limit)
}

// pgFirstMatchesSample is pgFirstMatches taking only the first sample matches when the head
// (the matches are common) is read.
func (ix *Index) pgFirstMatchesSample(f Filter, cond, index schema.QueryWithArgs, limit, head, sample int) *bun.SelectQuery {
	pages := func(n int) *bun.SelectQuery {
		return ix.rdb.NewSelect().TableExpr("search_pages AS p").ColumnExpr("p.id, p.tsv, p.title_tsv").
			Where("p.organization_id = ?", f.OrganizationID).
			Where("p.space_id IN (?)", bun.List(f.SpaceIDs)).
			OrderExpr("p.space_id, p.page_id").Limit(int64(n))
	}
	probe := ix.rdb.NewSelect().TableExpr("(?) AS sp", pages(probeRows)).ColumnExpr("count(*) AS n").Where("?", cond)
	// The head may read twice as far as the probe's share promises limit matches: a head that
	// falls short has its work thrown away for the GIN index (at a threshold of head pages it
	// did half the time: `japa`'s other matches, 86 of 100 in 3,000 pages, 5 ms, then the
	// index). And the threshold is 1.5 × head rather than head: the GIN scan of a phrase or
	// word on a fifth to a third of the pages builds a bitmap of tens of thousands of them,
	// which PostgreSQL may run in parallel workers (the count of `"mositoti hugo"`, 27,555
	// pages of 100,000 and 55 of the probe's 200: 19 ms serial, 68–90 ms in parallel on a
	// loaded machine, 5–9 ms from the head).
	reach := 3 * head
	first := ix.rdb.NewSelect().TableExpr("(?) AS sp", pages(reach)).Column("sp.id").Where("?", cond).Limit(int64(limit))
	all := pgInSpaces(ix.rdb.NewSelect().TableExpr("search_pages AS sp").Column("sp.id"), f).Where("?", index)
	enough := (2*limit*probeRows + reach - 1) / reach
	return ix.rdb.NewSelect().
		WithQuery(bun.NewWithQuery("probe", probe).Materialized()).
		WithQuery(bun.NewWithQuery("head", first).Materialized()).
		WithQuery(bun.NewWithQuery("m", all).Materialized()).
		TableExpr(`(SELECT h.id FROM (SELECT head.id FROM head LIMIT ?) AS h WHERE (SELECT n FROM probe) >= ? AND (SELECT count(*) FROM head) >= ?
			UNION ALL
			SELECT g.id FROM (SELECT m.id FROM m LIMIT ?) AS g WHERE (SELECT n FROM probe) < ? OR (SELECT count(*) FROM head) < ?) AS f`,
			sample, enough, limit, limit, enough, limit).
		Column("f.id")
}

// pgAnyWordCandidates are the candidates of an AnyWord query (PostgreSQL): for each term, its
// matches (without the exclusions) up to ExactTotal, or, for a term on most pages, the first
// commonTitles+commonOthers of them (pgFirstMatches). So every page of a rare term is ranked
// (coverage puts the pages holding the most, and rarest, terms first), and a common term costs
// a few hundred rows. The first matches of the whole query in heap order (a title scan and a
// scan, each under a LIMIT, which PostgreSQL ran as sequential scans) left out the one page
// holding both words of "topic 99999" and read 4,000 candidates' tsvectors.
func (ix *Index) pgAnyWordCandidates(f Filter) *bun.SelectQuery {
	var parts []string
	var args []any
	for _, c := range f.Query.units() {
		one := Query{Groups: [][]Clause{append([]Clause{c}, f.Query.exclusions()...)}}
		cond := bun.SafeQuery("sp.tsv @@ ?", one.tsquery(false))
		parts = append(parts, "SELECT t.id FROM (?) AS t")
		args = append(args, ix.pgFirstMatchesSample(f, cond, one.pgMatch(), ExactTotal, 3*ExactTotal, commonTitles+commonOthers))
	}
	return ix.rdb.NewSelect().TableExpr("("+strings.Join(parts, " UNION ")+") AS c", args...).Column("c.id")
}

// tsquery renders the query as a PostgreSQL tsquery expression: plainto_tsquery and
// phraseto_tsquery values (which never fail, whatever their text; the words are bound as
// arguments) joined with tsquery operators. With positiveOnly the exclusions are left out:
// ts_rank scores any query holding a negation close to zero.
func (q Query) tsquery(positiveOnly bool) schema.QueryWithArgs {
	var b tsBuilder
	if q.AnyWord {
		// Parenthesised whole: `tsv @@ (a || b) && !!c` reads as `(tsv @@ (a || b)) && !!c`.
		b.sql.WriteString("((")
		for i, c := range q.units() {
			if i > 0 {
				b.sql.WriteString(" || ")
			}
			b.clause(c)
		}
		b.sql.WriteString(")")
		if !positiveOnly {
			for _, c := range q.exclusions() {
				b.sql.WriteString(" && !!")
				b.clause(c)
			}
		}
		b.sql.WriteString(")")
		return bun.SafeQuery(b.sql.String(), b.args...)
	}
	b.sql.WriteString("(")
	for i, g := range q.Groups {
		if i > 0 {
			b.sql.WriteString(" || ")
		}
		b.sql.WriteString("(")
		n := 0
		for _, c := range g {
			if c.Negated && positiveOnly {
				continue
			}
			if n > 0 {
				b.sql.WriteString(" && ")
			}
			if c.Negated {
				b.sql.WriteString("!!")
			}
			b.clause(c)
			n++
		}
		b.sql.WriteString(")")
	}
	b.sql.WriteString(")")
	return bun.SafeQuery(b.sql.String(), b.args...)
}

// pgMatch is the condition that the page sp matches the query, for a scan through the GIN
// indexes (PostgreSQL). GIN keeps no positions, so a phrase's candidates from the words' index
// are every page holding its words, each rechecked on the heap (`"palomo rukezesa"`: 18,925
// candidates for 484 matches, 50–60 ms). When every positive clause is a phrase with adjacent
// words, the pages are found through the index of adjacent-word pairs instead
// (search_pages_space_pairs, migration 20261127023001_search_pg_pairs): every page matching the
// phrase holds its pairs, and the exact match is tested on the candidates' rows (IS TRUE keeps it
// out of the index scan: a BitmapAnd with the words' index rechecked the pair condition on every
// candidate, computing its pairs, 54 ms). Whether a phrase has pairs (two adjacent words that
// are not stop words) is the database's call, with the same analyser: search_phrase_pairs is
// IMMUTABLE and its argument a constant (Bun inlines arguments into the SQL; a generic plan of a
// prepared statement would keep the CASE and pair every row), so the planner folds the CASE to
// one of its branches, and a phrase without pairs (or a query with a single word beside its
// phrases, whose words' index is the narrower) takes the words' index as before. The condition
// must not filter rows read otherwise (pairing a page's words costs ~0.1 ms): pgFirstMatches'
// probe and head test the plain match.
func (q Query) pgMatch() schema.QueryWithArgs {
	match := bun.SafeQuery("sp.tsv @@ ?", q.tsquery(false))
	phrases := q.pairPhrases()
	if len(phrases) == 0 {
		return match
	}
	var has, pairs []string
	args := make([]any, 0, 2*len(phrases)+2)
	for _, p := range phrases {
		has = append(has, "search_phrase_pairs(?) IS NOT NULL")
		args = append(args, p)
	}
	for _, p := range phrases {
		pairs = append(pairs, "search_phrase_pairs(?)")
		args = append(args, p)
	}
	args = append(args, match, match)
	return bun.SafeQuery("CASE WHEN "+strings.Join(has, " AND ")+" THEN search_pairs(sp.tsv) @@ ("+
		strings.Join(pairs, " && ")+") AND (?) IS TRUE ELSE ? END", args...)
}

// pairPhrases are the texts of the query's phrases when it is one conjunction whose positive
// clauses are all phrases (of two words or more): the queries pgMatch finds through their
// adjacent-word pairs. Nil otherwise.
func (q Query) pairPhrases() []string {
	if q.AnyWord || len(q.Groups) != 1 {
		return nil
	}
	var out []string
	for _, c := range q.Groups[0] {
		if c.Negated {
			continue
		}
		if len(c.Words) < 2 || len(c.Or) > 0 {
			return nil
		}
		out = append(out, phraseText(c.Words))
	}
	return out
}

// tsClause renders one clause as a tsquery value.
func tsClause(c Clause) schema.QueryWithArgs {
	var b tsBuilder
	b.clause(c)
	return bun.SafeQuery(b.sql.String(), b.args...)
}

type tsBuilder struct {
	sql  strings.Builder
	args []any
}

func (b *tsBuilder) clause(c Clause) {
	b.sql.WriteString("(phraseto_tsquery('english', ?)")
	b.args = append(b.args, phraseText(c.Words))
	for _, w := range c.Or {
		b.sql.WriteString(" || plainto_tsquery('english', ?)")
		b.args = append(b.args, phraseText([]string{w}))
	}
	b.sql.WriteString(")")
}
