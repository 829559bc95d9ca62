package search

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
)

// Query is a parsed search query in web-search syntax: words, "quoted phrases", -exclusions and
// OR between alternatives. Words within an alternative are all required. Parsing never fails:
// characters that are not letters or digits only separate words, so any input is a valid query,
// perhaps an empty one.
//
// The plan (Plan) completes and corrects it (Clause.Or) and may fall back to matching any word
// (AnyWord); each database's statements render it (render.go). Words hold only letters, digits
// and combining marks, so no rendering can make a syntax error or reach the databases' own
// operators.
type Query struct {
	Groups [][]Clause // alternatives (OR), each a conjunction of clauses
	// AnyWord matches a page holding any of the query's positive clauses (exclusions still
	// exclude), ranked by how much of the query it covers: the fallback when few pages hold every
	// word.
	AnyWord bool
}

// Clause is one word or quoted phrase of a query, possibly excluded.
type Clause struct {
	Words   []string // lowercase; letters, digits and combining marks only; a phrase when more than one
	Negated bool
	// Or holds, for a single word, other words accepted in its place: the plan's completions
	// and corrections, and the compound form.
	Or []string
	// Compound is the words of an unquoted clause written as one ("utf-8", "SHA-256") joined
	// together ("utf8", "sha256"): text may write them either way.
	Compound string
	// Partial marks the last word of a query typed without a closing space: it may be the start
	// of a longer word (search as you type).
	Partial bool
}

// minPartial is the shortest last word read as the start of a longer one: shorter prefixes
// match too much to help.
const minPartial = 2

// ParseQuery reads a query in web-search syntax. A clause made only of stop words (the, and,
// of…) is dropped, as PostgreSQL's English configuration does, so both databases agree; an
// alternative with no required clause left (only exclusions) is dropped too. The query's last
// word is Partial when it is a plain word that the input does not end after (no space, no quote).
func ParseQuery(input string) Query {
	var q Query
	var group []Clause
	flush := func() {
		for _, c := range group {
			if !c.Negated {
				q.Groups = append(q.Groups, group)
				break
			}
		}
		group = nil
	}
	rs := []rune(input)
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
		words := Words(raw)
		if allStopWords(words) {
			continue
		}
		c := Clause{Words: words, Negated: negated}
		if !quoted && len(words) > 1 {
			c.Compound = strings.Join(words, "")
		}
		// Only a single plain word ending the input is being typed; "utf-8" is two words.
		if i >= len(rs) && !quoted && !negated && len(words) == 1 && len([]rune(words[0])) >= minPartial && isWordRune(rs[len(rs)-1]) {
			c.Partial = true
		}
		group = append(group, c)
	}
	flush()
	return q
}

// Words splits text into lowercase words: runs of letters, digits and combining marks.
func Words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// allStopWords reports whether words holds nothing but stop words (or nothing at all).
func allStopWords(words []string) bool {
	for _, w := range words {
		if !IsStopWord(w) {
			return false
		}
	}
	return true
}

// Empty reports whether the query has nothing to look for: it matches no page.
func (q Query) Empty() bool { return len(q.Groups) == 0 }

// Terms returns the words the query looks for (not the excluded ones, not stop words), each once,
// in the order they were typed.
func (q Query) Terms() []string {
	seen := map[string]bool{}
	var out []string
	for _, g := range q.Groups {
		for _, c := range g {
			for _, w := range c.Words {
				if !c.Negated && !seen[w] && !IsStopWord(w) {
					seen[w] = true
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// Partial returns the query's partial last word, or "".
func (q Query) Partial() string {
	for _, g := range q.Groups {
		for _, c := range g {
			if c.Partial {
				return c.Words[0]
			}
		}
	}
	return ""
}

// IsStopWord reports whether w is one of PostgreSQL's English stop words (the Snowball list),
// which neither database indexes.
func IsStopWord(w string) bool { return stopWords[w] }

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

// units are the query's single words and phrases that pages must (or may, in AnyWord) hold,
// each once: the units of coverage.
func (q Query) units() []Clause {
	seen := map[string]bool{}
	var out []Clause
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
func (q Query) clauses() []Clause {
	seen := map[string]bool{}
	var out []Clause
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
func (q Query) anyPositive() Query {
	return Query{Groups: [][]Clause{q.units()}, AnyWord: true}
}

// exclusions are the query's excluded clauses, across alternatives (AnyWord only).
func (q Query) exclusions() []Clause {
	var out []Clause
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
func (q Query) fingerprint() string {
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

// phraseText joins words with spaces, keeping only their letters, digits and combining marks:
// whatever a caller passes, nothing else reaches a database's query syntax.
func phraseText(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, r := range w {
			if isWordRune(r) {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
