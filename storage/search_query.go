package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// MatchQuery is what a search matches, as the graph decided it (graph/text reads the user's
// query): alternatives (OR), each a conjunction of clauses. Storage only renders it for each
// database. Words hold only letters, digits and combining marks, so no rendering can make a
// syntax error or reach the databases' own operators.
type MatchQuery struct {
	Groups [][]MatchClause
	// AnyWord matches a page holding any of the query's positive clauses (exclusions still
	// exclude), ranked by how much of the query it covers: the fallback when few pages hold every
	// word.
	AnyWord bool
}

// MatchClause is a word or phrase of a query, possibly excluded.
type MatchClause struct {
	Words   []string // lowercase; a phrase when more than one
	Or      []string // for a single word: other words accepted in its place (completions, corrections)
	Negated bool
}

// Empty reports whether the query has nothing to look for.
func (q MatchQuery) Empty() bool { return len(q.Groups) == 0 }

// terms are the query's single words and phrases that pages must (or may, in AnyWord) hold,
// each once: the units of coverage.
func (q MatchQuery) terms() []MatchClause {
	seen := map[string]bool{}
	var out []MatchClause
	for _, g := range q.Groups {
		for _, c := range g {
			key := strings.Join(c.Words, " ") + "|" + strings.Join(c.Or, " ")
			if !c.Negated && !seen[key] {
				seen[key] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// clauses are the query's words and phrases, positive and excluded, each once.
func (q MatchQuery) clauses() []MatchClause {
	seen := map[string]bool{}
	var out []MatchClause
	for _, g := range q.Groups {
		for _, c := range g {
			key := strings.Join(c.Words, " ") + "|" + strings.Join(c.Or, " ")
			if !seen[key] {
				seen[key] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// anyPositive is the query matching any of its positive clauses.
func (q MatchQuery) anyPositive() MatchQuery {
	return MatchQuery{Groups: [][]MatchClause{q.terms()}, AnyWord: true}
}

// exclusions are the query's excluded clauses, across alternatives (AnyWord only).
func (q MatchQuery) exclusions() []MatchClause {
	var out []MatchClause
	for _, g := range q.Groups {
		for _, c := range g {
			if c.Negated {
				out = append(out, c)
			}
		}
	}
	return out
}

// fingerprint identifies the query in page tokens, so a token of one query is refused by another.
func (q MatchQuery) fingerprint() string {
	var b strings.Builder
	if q.AnyWord {
		b.WriteString("any:")
	}
	for _, g := range q.Groups {
		for _, c := range g {
			if c.Negated {
				b.WriteByte('-')
			}
			b.WriteString(strings.Join(c.Words, " ") + "|" + strings.Join(c.Or, " ") + ";")
		}
		b.WriteString(" or ")
	}
	h := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(h[:6])
}

// fts5 renders the query as an SQLite FTS5 MATCH expression. Every word or phrase is a
// double-quoted string (words never hold a quote), so no input can make an FTS5 syntax error or
// reach its operators (NEAR, column filters, prefixes).
func (q MatchQuery) fts5() string {
	if q.AnyWord {
		var pos []string
		for _, c := range q.terms() {
			pos = append(pos, fts5Clause(c))
		}
		return fts5Group(pos, q.exclusions())
	}
	groups := make([]string, len(q.Groups))
	for i, g := range q.Groups {
		var pos []string
		var neg []MatchClause
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
func (q MatchQuery) fts5Titled() string {
	terms := q.terms()
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
func fts5Group(pos []string, neg []MatchClause) string {
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

func fts5Clause(c MatchClause) string {
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

// tsquery renders the query as a PostgreSQL tsquery expression: plainto_tsquery and
// phraseto_tsquery values (which never fail, whatever their text; the words are bound as
// arguments) joined with tsquery operators. With positiveOnly the exclusions are left out:
// ts_rank scores any query holding a negation close to zero.
func (q MatchQuery) tsquery(positiveOnly bool) schema.QueryWithArgs {
	var b tsBuilder
	if q.AnyWord {
		// Parenthesised whole: `tsv @@ (a || b) && !!c` reads as `(tsv @@ (a || b)) && !!c`.
		b.sql.WriteString("((")
		for i, c := range q.terms() {
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
func (q MatchQuery) pgMatch() schema.QueryWithArgs {
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
func (q MatchQuery) pairPhrases() []string {
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
func tsClause(c MatchClause) schema.QueryWithArgs {
	var b tsBuilder
	b.clause(c)
	return bun.SafeQuery(b.sql.String(), b.args...)
}

type tsBuilder struct {
	sql  strings.Builder
	args []any
}

func (b *tsBuilder) clause(c MatchClause) {
	b.sql.WriteString("(phraseto_tsquery('english', ?)")
	b.args = append(b.args, phraseText(c.Words))
	for _, w := range c.Or {
		b.sql.WriteString(" || plainto_tsquery('english', ?)")
		b.args = append(b.args, phraseText([]string{w}))
	}
	b.sql.WriteString(")")
}

// phraseText joins words with spaces, keeping only their letters, digits and combining marks:
// whatever a caller passes, nothing else reaches a database's query syntax.
func phraseText(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range w {
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
