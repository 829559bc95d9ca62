package graph

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/document"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/graph/text"
	"github.com/bindery/bindery/storage"
)

// Search: full-text search of spaces' current content (docs/search.md).
const (
	maxSearchQuery  = 512 // the contract's bound on query
	pagesPerSpace   = 10  // pages listed under each space of an organization search
	sectionsPerPage = 5   // matching sections listed under each page
	snippetRunes    = 240 // the length of a section's snippet
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

// searchPlan is a query as the graph decided to match it: the typed word completed, misspelt
// words corrected, and every word required, or any (the fallback).
type searchPlan struct {
	filter storage.SearchFilter
	terms  []string // the words results are highlighted by: the query's, completions, corrections
	// hits is the page of results, when the planning count ranked it too
	// (storage.CountAndSearchPages); nil otherwise.
	hits *storage.SearchResults[*storage.SearchHit]
}

// planSearch validates and reads a query and decides how to match it in the given spaces: a
// few statements (the vocabulary, the count of pages holding every word, and the corrections or
// term weights when it needs them), whatever the number of pages. With a page (a search whose
// results are pages), the count ranks that page too when it can, and the plan holds it (hits).
// Errors: Invalid.
func (r *Resolver) planSearch(ctx context.Context, orgID string, spaceIDs []string, query string, page *storage.Window) (*searchPlan, error) {
	if strings.TrimSpace(query) == "" {
		return nil, apperr.Invalidf("query", "is required")
	}
	if utf8.RuneCountInString(query) > maxSearchQuery {
		return nil, apperr.Invalidf("query", "must be at most %d characters", maxSearchQuery)
	}
	q := text.ParseQuery(query)
	plan := &searchPlan{filter: storage.SearchFilter{OrganizationID: orgID, SpaceIDs: spaceIDs}, terms: q.Terms()}
	if q.Empty() || len(spaceIDs) == 0 {
		return plan, nil
	}
	partial := q.Partial()
	words := plan.terms
	vocab, err := r.Store.MatchTerms(ctx, orgID, words, partial, maxCompletions)
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
			return r.Store.CountMatches(ctx, plan.filter)
		}
		n, common, hits, err := r.Store.CountAndSearchPages(ctx, plan.filter, *page)
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
			if vocab.Known[w] || text.MaxEdits(w) == 0 || corrected == maxCorrected || (w == partial && len(vocab.Completions) > 0) {
				continue
			}
			corrected++
			first, _ := utf8.DecodeRuneInString(w)
			n := utf8.RuneCountInString(w)
			e := text.MaxEdits(w)
			candidates, err := r.Store.TermsNear(ctx, orgID, string(first), n-e, n+e, correctionScan)
			if err != nil {
				return nil, err
			}
			if fixes := text.Corrections(w, candidates, maxCorrections); len(fixes) > 0 {
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
		if plan.filter.Weights, plan.filter.TermCounts, err = r.termWeights(ctx, plan.filter); err != nil {
			return nil, err
		}
	}
	return plan, nil
}

// matchQuery is the query for storage, with each word's alternatives.
func matchQuery(q text.Query, alternatives map[string][]string) storage.MatchQuery {
	out := storage.MatchQuery{Groups: make([][]storage.MatchClause, len(q.Groups))}
	for i, g := range q.Groups {
		for _, c := range g {
			mc := storage.MatchClause{Words: c.Words, Negated: c.Negated}
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
func followsOtherWords(q text.Query) bool {
	for _, g := range q.Groups {
		has, others := false, false
		for _, c := range g {
			if c.Partial {
				has = true
				continue
			}
			if !c.Negated {
				for _, w := range c.Words {
					others = others || !text.IsStopWord(w)
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

func positiveClauses(q storage.MatchQuery) int {
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
// half of them. It returns the terms' counts too (storage.SearchFilter.TermCounts).
func (r *Resolver) termWeights(ctx context.Context, f storage.SearchFilter) (map[string]float64, map[string]int, error) {
	df, n, err := r.Store.TermFrequencies(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	out := make(map[string]float64, len(df))
	for term, d := range df {
		if d > storage.ExactTotal {
			d = max(d, n/2)
		}
		out[term] = math.Log(1 + (float64(n)-float64(d)+0.5)/(float64(d)+0.5))
	}
	return out, df, nil
}

// SearchSpace searches the current content of a space the caller can read, most relevant page
// first. Errors: Invalid, NotFound.
func (r *Resolver) SearchSpace(ctx context.Context, spaceID string, in model.SearchInput) (*model.SearchPageResultConnection, error) {
	page, err := windowOf(in.First, in.After)
	if err != nil {
		return nil, err
	}
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	plan, err := r.planSearch(ctx, row.OrganizationID, []string{row.ID}, in.Query, &page)
	if err != nil {
		return nil, err
	}
	hits, err := plan.pages(ctx, r.Store, page)
	if err != nil {
		return nil, err
	}
	results, err := r.searchResults(ctx, plan.terms, hits.Items)
	if err != nil {
		return nil, err
	}
	return &model.SearchPageResultConnection{
		Connection:        *model.NewConnection(results, hits.Cursors, hits.Total, hits.HasMore),
		TotalCountIsExact: hits.TotalIsExact,
	}, nil
}

// SearchOrganization searches the current content of every live space of an organization the
// caller can read; results are spaces, best match first, each with its best pages.
// Errors: Invalid, NotFound.
func (r *Resolver) SearchOrganization(ctx context.Context, orgID string, in model.SearchInput) (*model.SearchSpaceResultConnection, error) {
	page, err := windowOf(in.First, in.After)
	if err != nil {
		return nil, err
	}
	if _, err := r.OrganizationByID(ctx, orgID); err != nil {
		return nil, err
	}
	acc, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	spaces, err := r.orgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	titles := map[string]string{}
	var ids []string
	for _, s := range spaces {
		if canRead(acc.SpaceRole(spaceNode(s))) {
			ids = append(ids, s.ID)
			titles[s.ID] = s.Title
		}
	}
	plan, err := r.planSearch(ctx, orgID, ids, in.Query, nil)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.SearchSpaces(ctx, plan.filter, pagesPerSpace, page)
	if err != nil {
		return nil, err
	}
	var hits []*storage.SearchHit
	for _, s := range list.Items {
		hits = append(hits, s.Pages...)
	}
	pages, err := r.searchResults(ctx, plan.terms, hits)
	if err != nil {
		return nil, err
	}
	items := make([]*model.SearchSpaceResult, len(list.Items))
	for i, s := range list.Items {
		items[i] = &model.SearchSpaceResult{ID: s.SpaceID, Title: titles[s.SpaceID], Pages: pages[:len(s.Pages)]}
		pages = pages[len(s.Pages):]
	}
	return &model.SearchSpaceResultConnection{
		Connection:        *model.NewConnection(items, list.Cursors, list.Total, list.HasMore),
		TotalCountIsExact: list.TotalIsExact,
	}, nil
}

// pages is the plan's page of results: the one its count ranked, else SearchPages'.
func (p *searchPlan) pages(ctx context.Context, s *storage.Store, page storage.Window) (storage.SearchResults[*storage.SearchHit], error) {
	if p.hits != nil {
		return *p.hits, nil
	}
	return s.SearchPages(ctx, p.filter, page)
}

// searchResults turns hits into results with their paths, ancestors and matching sections: two
// statements (the pages' ancestor chains, their markdown) whatever the number of hits.
func (r *Resolver) searchResults(ctx context.Context, terms []string, hits []*storage.SearchHit) ([]*model.SearchPageResult, error) {
	var pages []storage.PageKey
	var contentIDs []string
	for _, h := range hits {
		pages = append(pages, storage.PageKey{SpaceID: h.SpaceID, PageID: h.PageID})
		if h.ContentID != nil {
			contentIDs = append(contentIDs, *h.ContentID)
		}
	}
	chains, err := r.Store.CurrentPageChains(ctx, pages)
	if err != nil {
		return nil, err
	}
	bodies, err := r.Store.PageMarkdown(ctx, contentIDs)
	if err != nil {
		return nil, err
	}
	out := make([]*model.SearchPageResult, len(hits))
	for i, h := range hits {
		res := &model.SearchPageResult{ID: h.PageID, Title: h.Title, Ancestors: []*model.SearchAncestor{}, Sections: []*model.SearchSectionResult{},
			TitleHighlights: highlights(h.Title, terms)}
		chain := chains[h.SpaceID+"/"+h.PageID]
		slugs := make([]string, 0, len(chain))
		for j := len(chain) - 1; j >= 0; j-- {
			slugs = append(slugs, chain[j].Slug)
			if j > 0 {
				res.Ancestors = append(res.Ancestors, &model.SearchAncestor{Title: chain[j].Title})
			}
		}
		res.Path = strings.Join(slugs, "/")
		res.URLs.App = r.Settings.AppURL + "/s/" + h.SpaceID + "/" + res.Path
		md := ""
		if h.ContentID != nil {
			md = bodies[*h.ContentID]
		}
		res.Sections = r.searchSections(res, document.Sections(md), terms)
		out[i] = res
	}
	return out, nil
}

// searchSections lists a page's sections that hold a searched word, with a snippet around it;
// when none does (the page matched by its title, or by a form of a word the snippet matcher
// does not know), its first section.
func (r *Resolver) searchSections(page *model.SearchPageResult, sections []document.Section, words []string) []*model.SearchSectionResult {
	out := []*model.SearchSectionResult{}
	section := func(s document.Section, at int) *model.SearchSectionResult {
		res := &model.SearchSectionResult{ID: page.ID, Title: page.Title, Path: page.Path, Body: snippet(s.Text, at), URLs: page.URLs}
		if s.Anchor != "" {
			res.ID, res.Path, res.URLs.App = s.Anchor, page.Path+"#"+s.Anchor, page.URLs.App+"#"+s.Anchor
			if s.Title != "" {
				res.Title = s.Title
			}
		}
		res.TitleHighlights, res.BodyHighlights = highlights(res.Title, words), highlights(res.Body, words)
		return res
	}
	for i := range sections {
		sections[i].Text = strings.Join(strings.Fields(sections[i].Text), " ")
	}
	for _, s := range sections {
		at := text.FirstMatch(s.Text, words)
		if at < 0 && text.FirstMatch(s.Title, words) >= 0 {
			at = 0
		}
		if at >= 0 {
			out = append(out, section(s, at))
			if len(out) == sectionsPerPage {
				break
			}
		}
	}
	if len(out) == 0 && len(sections) > 0 {
		out = append(out, section(sections[0], 0))
	}
	return out
}

// highlights are the ranges of text's words that match the searched terms.
func highlights(s string, terms []string) []*model.TextRange {
	ranges := text.Highlights(s, terms)
	out := make([]*model.TextRange, len(ranges))
	for i, r := range ranges {
		out[i] = &model.TextRange{Start: r.Start, Length: r.Length}
	}
	return out
}

// snippet is about snippetRunes of text around byte offset at, cut at word boundaries, with an
// ellipsis where text was cut.
func snippet(text string, at int) string {
	if at > len(text) {
		at = 0
	}
	rs := []rune(text)
	if len(rs) <= snippetRunes {
		return text
	}
	pos := utf8.RuneCountInString(text[:min(at, len(text))])
	start := max(0, pos-snippetRunes/4)
	for start > 0 && rs[start-1] != ' ' {
		start--
	}
	end := min(len(rs), start+snippetRunes)
	for end < len(rs) && rs[end] != ' ' && end-start < snippetRunes+40 {
		end++
	}
	out := strings.TrimSpace(string(rs[start:end]))
	if start > 0 {
		out = "…" + out
	}
	if end < len(rs) {
		out += "…"
	}
	return out
}
