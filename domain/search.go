package domain

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/search"
	"github.com/bindery/bindery/storage"
)

// Search: full-text search of spaces' current content (docs/search.md).
const (
	maxSearchQuery  = 512 // the contract's bound on query
	pagesPerSpace   = 10  // pages listed under each space of an organization search
	sectionsPerPage = 5   // matching sections listed under each page
	snippetRunes    = 240 // the length of a section's snippet
)

// planSearch validates a query and plans it in the given spaces (search.Index.Plan).
// Errors: Invalid.
func (r *App) planSearch(ctx context.Context, orgID string, spaceIDs []string, query string, page *storage.Window) (*search.Plan, error) {
	if strings.TrimSpace(query) == "" {
		return nil, apperr.Invalidf("query", "is required")
	}
	if utf8.RuneCountInString(query) > maxSearchQuery {
		return nil, apperr.Invalidf("query", "must be at most %d characters", maxSearchQuery)
	}
	return r.Store.Search().Plan(ctx, orgID, spaceIDs, query, page)
}

// searchPages is a page of the pages matching a query in the given spaces, as results with their
// paths and matching sections: the plan, the page of hits, and the results' two statements
// (searchResults). Errors: Invalid.
func (r *App) searchPages(ctx context.Context, orgID string, spaceIDs []string, query string, page storage.Window) ([]*model.SearchPageResult, search.Results[*search.Hit], error) {
	plan, err := r.planSearch(ctx, orgID, spaceIDs, query, &page)
	if err != nil || len(spaceIDs) == 0 {
		return []*model.SearchPageResult{}, search.Results[*search.Hit]{}, err
	}
	hits, err := plan.Pages(ctx, page)
	if err != nil {
		return nil, hits, err
	}
	results, err := r.searchResults(ctx, plan.Terms(), hits.Items)
	return results, hits, err
}

// SearchSpace searches the current content of a space the caller can read, most relevant page
// first. Errors: Invalid, NotFound.
func (r *App) SearchSpace(ctx context.Context, spaceID string, in model.SearchInput) (*model.SearchPageResultConnection, error) {
	page, err := windowOf(in.First, in.After)
	if err != nil {
		return nil, err
	}
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	results, hits, err := r.searchPages(ctx, row.OrganizationID, []string{row.ID}, in.Query, page)
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
func (r *App) SearchOrganization(ctx context.Context, orgID string, in model.SearchInput) (*model.SearchSpaceResultConnection, error) {
	if _, err := windowOf(in.First, in.After); err != nil {
		return nil, err
	}
	spaces, err := r.readableOrgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return r.searchInSpaces(ctx, orgID, spaces, in)
}

// searchInSpaces searches the current content of spaces the caller may read, grouped by space,
// best match first. Errors: Invalid.
func (r *App) searchInSpaces(ctx context.Context, orgID string, spaces []*storage.Space, in model.SearchInput) (*model.SearchSpaceResultConnection, error) {
	page, err := windowOf(in.First, in.After)
	if err != nil {
		return nil, err
	}
	titles := map[string]string{}
	var ids []string
	for _, s := range spaces {
		ids = append(ids, s.ID)
		titles[s.ID] = s.Title
	}
	plan, err := r.planSearch(ctx, orgID, ids, in.Query, nil)
	if err != nil {
		return nil, err
	}
	list, err := plan.Spaces(ctx, pagesPerSpace, page)
	if err != nil {
		return nil, err
	}
	var hits []*search.Hit
	for _, s := range list.Items {
		hits = append(hits, s.Pages...)
	}
	pages, err := r.searchResults(ctx, plan.Terms(), hits)
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

// pageRef is a page of a space and the content it holds now (nil: none).
type pageRef struct {
	storage.PageKey
	contentID *string
}

// chainsAndMarkdown reads pages' ancestor chains (by page id) and their markdown (by content
// id): two statements whatever the number of pages.
func (r *App) chainsAndMarkdown(ctx context.Context, pages []pageRef) (map[string][]*storage.PageVersion, map[string]string, error) {
	keys := make([]storage.PageKey, len(pages))
	var contentIDs []string
	for i, p := range pages {
		keys[i] = p.PageKey
		if p.contentID != nil {
			contentIDs = append(contentIDs, *p.contentID)
		}
	}
	chains, err := r.Store.CurrentPageChains(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	bodies, err := r.Store.PageMarkdown(ctx, contentIDs)
	return chains, bodies, err
}

// searchResults turns hits into results with their paths, ancestors and matching sections: two
// statements (the pages' ancestor chains, their markdown) whatever the number of hits.
func (r *App) searchResults(ctx context.Context, terms []string, hits []*search.Hit) ([]*model.SearchPageResult, error) {
	var pages []pageRef
	for _, h := range hits {
		pages = append(pages, pageRef{storage.PageKey{SpaceID: h.SpaceID, PageID: h.PageID}, h.ContentID})
	}
	chains, bodies, err := r.chainsAndMarkdown(ctx, pages)
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
func (r *App) searchSections(page *model.SearchPageResult, sections []document.Section, words []string) []*model.SearchSectionResult {
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
		at := search.FirstMatch(s.Text, words)
		if at < 0 && search.FirstMatch(s.Title, words) >= 0 {
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
	ranges := search.Highlights(s, terms)
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
