package search

import (
	"context"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/bindery/bindery/storage/paging"
)

// Search plans: how many completions the word being typed brings, how many corrections a
// misspelt word, and below how many pages holding every word a search falls back to pages
// holding any of them.
const (
	maxCompletions = 24
	// maxTailCompletions is how many completions the word being typed keeps when it follows
	// other words of its clause group (`zupa vot`): the other words narrow the matches already,
	// and each completion is a term of every scan (on SQLite, of each space's scans in an
	// organization search: the 17 completions of `vot` made its ranked statement 18 ms of C
	// SQLite, 8 with 8 of them). The shortest are kept (the word's closest completions).
	maxTailCompletions = 8
	maxCorrections     = 4
	maxCorrected       = 3    // misspelt words corrected in one query
	correctionScan     = 4000 // vocabulary words read to correct one word
	fewMatches         = 3
)

// Plan is a query as search decided to match it: the typed word completed, misspelt words
// corrected, and every word required, or any (the fallback).
type Plan struct {
	ix     *Index
	filter Filter
	terms  []string // the words results are highlighted by: the query's, completions, corrections
	// hits is the page of results, when the planning count ranked it too
	// (CountAndSearchPages); nil otherwise.
	hits *Results[*Hit]
}

// Plan reads a query and decides how to match it in the given spaces of an organization: a
// few statements (the vocabulary, the count of pages holding every word, and the corrections or
// term weights when it needs them), whatever the number of pages. With a page (a search whose
// results are pages), the count ranks that page too when it can, and the plan holds it (hits).
func (ix *Index) Plan(ctx context.Context, orgID string, spaceIDs []string, query string, page *paging.Window) (*Plan, error) {
	q := ParseQuery(query)
	plan := &Plan{ix: ix, filter: Filter{OrganizationID: orgID, SpaceIDs: spaceIDs}, terms: q.Terms()}
	if q.Empty() || len(spaceIDs) == 0 {
		return plan, nil
	}
	partial := q.Partial()
	words := plan.terms
	vocab, err := ix.MatchTerms(ctx, orgID, words, partial, maxCompletions)
	if err != nil {
		return nil, err
	}
	alternatives := map[string][]string{}
	if partial != "" {
		if len(vocab.Completions) > maxTailCompletions && followsOtherWords(q) {
			vocab.Completions = shortest(vocab.Completions, maxTailCompletions)
		}
		alternatives[partial] = vocab.Completions
		plan.terms = append(plan.terms, vocab.Completions...)
	}
	plan.filter.Query = matchQuery(q, alternatives)
	count := func() (int, bool, error) {
		if page == nil {
			return ix.CountMatches(ctx, plan.filter)
		}
		n, common, hits, err := ix.CountAndSearchPages(ctx, plan.filter, *page)
		plan.hits = hits
		return n, common, err
	}
	n, common, err := count()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		// Nothing holds every word: correct the words no page holds, and count again.
		corrected := 0
		for _, w := range words {
			if vocab.Known[w] || MaxEdits(w) == 0 || corrected == maxCorrected || (w == partial && len(vocab.Completions) > 0) {
				continue
			}
			corrected++
			first, _ := utf8.DecodeRuneInString(w)
			n := utf8.RuneCountInString(w)
			e := MaxEdits(w)
			candidates, err := ix.TermsNear(ctx, orgID, string(first), n-e, n+e, correctionScan)
			if err != nil {
				return nil, err
			}
			if fixes := Corrections(w, candidates, maxCorrections); len(fixes) > 0 {
				alternatives[w] = fixes
				plan.terms = append(plan.terms, fixes...)
			}
		}
		if corrected > 0 {
			plan.filter.Query = matchQuery(q, alternatives)
			if n, common, err = count(); err != nil {
				return nil, err
			}
		}
	}
	plan.filter.Matches, plan.filter.Common = n, common
	if n < fewMatches && len(plan.filter.Query.Groups) == 1 && positiveClauses(plan.filter.Query) > 1 {
		plan.filter.Query.AnyWord = true
		plan.hits = nil // ranked for every word: any word ranks otherwise
		if plan.filter.Weights, plan.filter.TermCounts, err = ix.termWeights(ctx, plan.filter); err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// matchQuery is the query for storage, with each word's alternatives.
func matchQuery(q Query, alternatives map[string][]string) Query {
	out := Query{Groups: make([][]Clause, len(q.Groups))}
	for i, g := range q.Groups {
		for _, c := range g {
			mc := Clause{Words: c.Words, Negated: c.Negated}
			if len(c.Words) == 1 && !c.Negated {
				mc.Or = alternatives[c.Words[0]]
			}
			if c.Compound != "" {
				mc.Or = append(mc.Or, c.Compound)
			}
			out.Groups[i] = append(out.Groups[i], mc)
		}
	}
	return out
}

// followsOtherWords reports whether the word being typed is required together with other
// positive words (its clause group holds another word that is not a stop word).
func followsOtherWords(q Query) bool {
	for _, g := range q.Groups {
		has, others := false, false
		for _, c := range g {
			if c.Partial {
				has = true
				continue
			}
			if !c.Negated {
				for _, w := range c.Words {
					others = others || !IsStopWord(w)
				}
			}
		}
		if has {
			return others
		}
	}
	return false
}

// shortest keeps the n shortest of the terms (the first of equal length in order), in order.
func shortest(terms []string, n int) []string {
	byLen := slices.Clone(terms)
	slices.SortStableFunc(byLen, func(a, b string) int { return utf8.RuneCountInString(a) - utf8.RuneCountInString(b) })
	out := byLen[:n]
	slices.Sort(out)
	return out
}

func positiveClauses(q Query) int {
	n := 0
	for _, c := range q.Groups[0] {
		if !c.Negated {
			n++
		}
	}
	return n
}

// termWeights weighs each term of an any-word query by its rarity (BM25's inverse document
// frequency), as SQLite's bm25 does itself: a page holding the query's rare words ranks above
// one holding its common ones. A term held by more pages than are counted is taken as held by
// half of them. It returns the terms' counts too (Filter.TermCounts).
func (ix *Index) termWeights(ctx context.Context, f Filter) (map[string]float64, map[string]int, error) {
	df, n, err := ix.TermFrequencies(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	out := make(map[string]float64, len(df))
	for term, d := range df {
		if d > ExactTotal {
			d = max(d, n/2)
		}
		out[term] = math.Log(1 + (float64(n)-float64(d)+0.5)/(float64(d)+0.5))
	}
	return out, df, nil
}

// Terms are the words results are highlighted by: the query's, its completions and corrections.
func (p *Plan) Terms() []string { return p.terms }

// Pages is a page of the matching pages, best first: the one the plan's count ranked, else
// one statement.
func (p *Plan) Pages(ctx context.Context, page paging.Window) (Results[*Hit], error) {
	if p.hits != nil {
		return *p.hits, nil
	}
	return p.ix.Pages(ctx, p.filter, page)
}

// Spaces is a page of the spaces with matching pages, best first, each with its perSpace best
// pages.
func (p *Plan) Spaces(ctx context.Context, perSpace int, page paging.Window) (Results[*SpaceHits], error) {
	return p.ix.Spaces(ctx, p.filter, perSpace, page)
}
