package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
)

// SearchQuery is a parsed search query in web-search syntax: words, "quoted phrases", -exclusions
// and OR between alternatives. Words within an alternative are all required. Parsing never fails:
// characters that are not letters or digits only separate words, so any input is a valid query,
// perhaps an empty one.
type SearchQuery struct {
	groups [][]searchClause // alternatives (OR), each a conjunction of clauses
}

// searchClause is one word or quoted phrase of a query, possibly excluded.
type searchClause struct {
	words   []string // lowercase; letters, digits and combining marks only
	negated bool
}

// ParseSearchQuery reads a query in web-search syntax. A clause made only of stop words (the,
// and, of…) is dropped, as PostgreSQL's English configuration does, so both databases agree; an
// alternative with no required clause left (only exclusions) is dropped too.
func ParseSearchQuery(text string) SearchQuery {
	var q SearchQuery
	var group []searchClause
	flush := func() {
		for _, c := range group {
			if !c.negated {
				q.groups = append(q.groups, group)
				break
			}
		}
		group = nil
	}
	rs := []rune(text)
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		negated := false
		if rs[i] == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			negated = true
			i++
		}
		var raw string
		quoted := rs[i] == '"'
		if quoted {
			end := i + 1
			for end < len(rs) && rs[end] != '"' {
				end++
			}
			raw = string(rs[i+1 : end])
			i = end + 1
		} else {
			end := i
			for end < len(rs) && !unicode.IsSpace(rs[end]) && rs[end] != '"' {
				end++
			}
			raw = string(rs[i:end])
			i = end
		}
		if !quoted && !negated && strings.EqualFold(raw, "or") {
			if len(group) > 0 {
				flush()
			}
			continue
		}
		words := searchWords(raw)
		if allStopWords(words) {
			continue
		}
		group = append(group, searchClause{words: words, negated: negated})
	}
	flush()
	return q
}

// searchWords splits text into lowercase words: runs of letters, digits and combining marks.
func searchWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r)
	})
}

// allStopWords reports whether words holds nothing but stop words (or nothing at all).
func allStopWords(words []string) bool {
	for _, w := range words {
		if !stopWords[w] {
			return false
		}
	}
	return true
}

// Empty reports whether the query has nothing to look for: it matches no page.
func (q SearchQuery) Empty() bool { return len(q.groups) == 0 }

// Words returns the words the query looks for (not the excluded ones), each once.
func (q SearchQuery) Words() []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range q.groups {
		for _, c := range g {
			for _, w := range c.words {
				if !c.negated && !seen[w] && !stopWords[w] {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// websearch renders the query for PostgreSQL's websearch_to_tsquery. Words hold only letters,
// digits and marks, so the rendering is exactly the parsed query.
func (q SearchQuery) websearch() string { return q.render(true) }

// rankingText is the query without its exclusions, for ranking: ts_rank scores a query holding
// a negation close to zero for every document.
func (q SearchQuery) rankingText() string { return q.render(false) }

func (q SearchQuery) render(exclusions bool) string {
	groups := make([]string, len(q.groups))
	for i, g := range q.groups {
		clauses := make([]string, 0, len(g))
		for _, c := range g {
			if c.negated && !exclusions {
				continue
			}
			s := strings.Join(c.words, " ")
			if len(c.words) > 1 {
				s = `"` + s + `"`
			}
			if c.negated {
				s = "-" + s
			}
			clauses = append(clauses, s)
		}
		groups[i] = strings.Join(clauses, " ")
	}
	return strings.Join(groups, " or ")
}

// fts5 renders the query as an SQLite FTS5 MATCH expression. Every clause is a double-quoted
// string (words never hold a quote), so no input can make an FTS5 syntax error or reach its
// operators (NEAR, column filters, prefixes).
func (q SearchQuery) fts5() string {
	groups := make([]string, len(q.groups))
	for i, g := range q.groups {
		var pos, neg []string
		for _, c := range g {
			s := `"` + strings.Join(c.words, " ") + `"`
			if c.negated {
				neg = append(neg, s)
			} else {
				pos = append(pos, s)
			}
		}
		expr := "(" + strings.Join(pos, " AND ") + ")"
		if len(neg) > 0 {
			expr = "(" + expr + " NOT (" + strings.Join(neg, " OR ") + "))"
		}
		groups[i] = expr
	}
	return strings.Join(groups, " OR ")
}

// fingerprint identifies the query in page tokens, so a token of one query is refused by another.
func (q SearchQuery) fingerprint() string {
	h := sha256.Sum256([]byte(q.websearch()))
	return hex.EncodeToString(h[:6])
}

// stopWords are PostgreSQL's English stop words (the Snowball list): a lone stop word looks for
// nothing, on both databases.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`i me my myself we our ours ourselves you your yours yourself
		yourselves he him his himself she her hers herself it its itself they them their theirs
		themselves what which who whom this that these those am is are was were be been being have
		has had having do does did doing a an the and but if or because as until while of at by for
		with about against between into through during before after above below to from up down in
		out on off over under again further then once here there when where why how all any both
		each few more most other some such no nor not only own same so than too very s t can will
		just don should now`) {
		m[w] = true
	}
	return m
}()
