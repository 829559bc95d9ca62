package graph

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/storage"
)

// Search: full-text search of spaces' current content (docs/search.md).
const (
	maxSearchQuery  = 512 // the contract's bound on query
	pagesPerSpace   = 10  // pages listed under each space of an organization search
	sectionsPerPage = 5   // matching sections listed under each page
	snippetRunes    = 240 // the length of a section's snippet
)

// parseSearch validates and parses a search query. Errors: Invalid.
func parseSearch(query string) (storage.SearchQuery, error) {
	if strings.TrimSpace(query) == "" {
		return storage.SearchQuery{}, apperr.Invalidf("query", "is required")
	}
	if utf8.RuneCountInString(query) > maxSearchQuery {
		return storage.SearchQuery{}, apperr.Invalidf("query", "must be at most %d characters", maxSearchQuery)
	}
	return storage.ParseSearchQuery(query), nil
}

// SearchSpace searches the current content of a space the caller can read, most relevant page
// first. Errors: Invalid, NotFound.
func (r *Resolver) SearchSpace(ctx context.Context, spaceID, query string, first *int, after *string) (*model.SearchPageResultConnection, error) {
	q, err := parseSearch(query)
	if err != nil {
		return nil, err
	}
	page, err := pageOf(first, after)
	if err != nil {
		return nil, err
	}
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	hits, err := r.Store.SearchPages(ctx, storage.SearchFilter{OrganizationID: row.OrganizationID, SpaceIDs: []string{row.ID}, Query: q}, page)
	if err != nil {
		return nil, err
	}
	results, err := r.searchResults(ctx, q, hits.Items)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(results, hits.Cursors, hits.Total, hits.HasMore), nil
}

// SearchOrganization searches the current content of every live space of an organization the
// caller can read; results are spaces, best match first, each with its best pages.
// Errors: Invalid, NotFound.
func (r *Resolver) SearchOrganization(ctx context.Context, orgID, query string, first *int, after *string) (*model.SearchSpaceResultConnection, error) {
	q, err := parseSearch(query)
	if err != nil {
		return nil, err
	}
	page, err := pageOf(first, after)
	if err != nil {
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
	list, err := r.Store.SearchSpaces(ctx, storage.SearchFilter{OrganizationID: orgID, SpaceIDs: ids, Query: q}, pagesPerSpace, page)
	if err != nil {
		return nil, err
	}
	var hits []*storage.SearchHit
	for _, s := range list.Items {
		hits = append(hits, s.Pages...)
	}
	pages, err := r.searchResults(ctx, q, hits)
	if err != nil {
		return nil, err
	}
	items := make([]*model.SearchSpaceResult, len(list.Items))
	for i, s := range list.Items {
		items[i] = &model.SearchSpaceResult{ID: s.SpaceID, Title: titles[s.SpaceID], Pages: pages[:len(s.Pages)]}
		pages = pages[len(s.Pages):]
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore), nil
}

// searchResults turns hits into results with their paths, ancestors and matching sections: two
// statements (the pages' ancestor chains, their markdown) whatever the number of hits.
func (r *Resolver) searchResults(ctx context.Context, q storage.SearchQuery, hits []*storage.SearchHit) ([]*model.SearchPageResult, error) {
	var spaceIDs, pageIDs, contentIDs []string
	for _, h := range hits {
		if !slices.Contains(spaceIDs, h.SpaceID) {
			spaceIDs = append(spaceIDs, h.SpaceID)
		}
		pageIDs = append(pageIDs, h.PageID)
		if h.ContentID != nil {
			contentIDs = append(contentIDs, *h.ContentID)
		}
	}
	chains, err := r.Store.CurrentPageChains(ctx, spaceIDs, pageIDs)
	if err != nil {
		return nil, err
	}
	bodies, err := r.Store.PageMarkdown(ctx, contentIDs)
	if err != nil {
		return nil, err
	}
	words := q.Words()
	out := make([]*model.SearchPageResult, len(hits))
	for i, h := range hits {
		res := &model.SearchPageResult{ID: h.PageID, Title: h.Title, Ancestors: []*model.SearchAncestor{}, Sections: []*model.SearchSectionResult{}}
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
		res.Sections = r.searchSections(res, storage.MarkdownSections(md), words)
		out[i] = res
	}
	return out, nil
}

// searchSections lists a page's sections that hold a searched word, with a snippet around it;
// when none does (the page matched by its title, or by a form of a word the snippet matcher
// does not know), its first section.
func (r *Resolver) searchSections(page *model.SearchPageResult, sections []storage.TextSection, words []string) []*model.SearchSectionResult {
	out := []*model.SearchSectionResult{}
	section := func(s storage.TextSection, at int) *model.SearchSectionResult {
		res := &model.SearchSectionResult{ID: page.ID, Title: page.Title, Path: page.Path, Body: snippet(s.Text, at), URLs: page.URLs}
		if s.Anchor != "" {
			res.ID, res.Path, res.URLs.App = s.Anchor, page.Path+"#"+s.Anchor, page.URLs.App+"#"+s.Anchor
			if s.Title != "" {
				res.Title = s.Title
			}
		}
		return res
	}
	for i := range sections {
		sections[i].Text = strings.Join(strings.Fields(sections[i].Text), " ")
	}
	for _, s := range sections {
		at := firstMatch(s.Text, words)
		if at < 0 && firstMatch(s.Title, words) >= 0 {
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

// firstMatch returns the byte offset of the first word of text that matches a searched word, or
// -1.
func firstMatch(text string, words []string) int {
	start := -1
	for i, c := range text + " " {
		if isWordRune(c) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := strings.ToLower(text[start:i])
			for _, term := range words {
				if wordMatches(term, w) {
					return start
				}
			}
			start = -1
		}
	}
	return -1
}

func isWordRune(c rune) bool {
	return unicode.IsLetter(c) || unicode.IsDigit(c) || unicode.Is(unicode.Mn, c)
}

// wordMatches tells whether a word of the text is a form of a searched word: a light English
// stemming (installing, installer and installation all match install) that approximates the
// databases' stemmers closely enough to place a snippet.
func wordMatches(term, word string) bool {
	t, w := lightStem(term), lightStem(word)
	if strings.HasPrefix(w, t) {
		return true
	}
	return strings.HasPrefix(t, w) && len(w) >= 3 && len(t)-len(w) <= 2
}

func lightStem(w string) string {
	for _, suffix := range []string{"ations", "ation", "ings", "ing", "ers", "er", "edly", "ed", "ies", "es", "s", "ly", "ments", "ment"} {
		if strings.HasSuffix(w, suffix) && len(w)-len(suffix) >= 3 {
			return w[:len(w)-len(suffix)]
		}
	}
	return w
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
