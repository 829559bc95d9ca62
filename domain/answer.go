package domain

import (
	"context"
	"slices"

	"github.com/bindery/bindery/domain/answer"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/search"
	"github.com/bindery/bindery/storage"
)

// Ask: questions answered from what the asker may read (docs/ask.md). Retrieval reuses search,
// over the spaces the access rules already chose: a member's readable spaces in an organization,
// the site spaces a visitor sees on a site, with the conditional blocks their claims do not meet
// removed before any text reaches the model.

// errNoAI is the answer of every Ask operation when the server has no AI provider.
var errNoAI = apperr.Invalidf("", "Ask is not available: this server has no AI provider (see --ai-url)")

// answers is the configured AI client. Errors: Invalid when none is configured.
func (r *App) answers() (*answer.Client, error) {
	if r.Answers == nil {
		return nil, errNoAI
	}
	return r.Answers, nil
}

// AskInOrganization answers a question from the spaces of an organization the caller can read,
// calling emit (when not nil) with the answer so far. Errors: Invalid, NotFound.
func (r *App) AskInOrganization(ctx context.Context, orgID string, q answer.Question, emit func(*answer.Answer)) (*answer.Answer, error) {
	retrieve, err := r.orgRetriever(ctx, orgID)
	if err != nil {
		return nil, err
	}
	c, err := r.answers()
	if err != nil {
		return nil, err
	}
	return c.Ask(ctx, q, retrieve, emit)
}

// RecommendedQuestionsInOrganization suggests questions the caller's readable spaces answer
// (recommended_questions.go), calling emit (when not nil) with each. Errors: Invalid, NotFound.
func (r *App) RecommendedQuestionsInOrganization(ctx context.Context, orgID string, emit func(string)) ([]string, error) {
	spaces, err := r.readableOrgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return r.recommendedQuestions(ctx, orgID, "org:"+orgID, spaces, false, emit)
}

// readableOrgSpaces are the live spaces of an organization the caller can read.
// Errors: NotFound.
func (r *App) readableOrgSpaces(ctx context.Context, orgID string) ([]*storage.Space, error) {
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
	var out []*storage.Space
	for _, s := range spaces {
		if canRead(acc.SpaceRole(spaceNode(s))) {
			out = append(out, s)
		}
	}
	return out, nil
}

// orgRetriever retrieves from the spaces of an organization the caller can read; their pages'
// URLs are the app's. Errors: NotFound.
func (r *App) orgRetriever(ctx context.Context, orgID string) (answer.Retriever, error) {
	spaces, err := r.readableOrgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	revision := map[string]string{}
	var ids []string
	for _, s := range spaces {
		ids = append(ids, s.ID)
		revision[s.ID] = s.RevisionID
	}
	return func(ctx context.Context, query string, limit int) ([]answer.Page, error) {
		return r.retrieve(ctx, orgID, ids, query, limit, func(h *search.Hit, res *model.SearchPageResult) (string, string, func(string) string) {
			return revision[h.SpaceID], res.URLs.App, nil
		})
	}, nil
}

// retrieve searches the given spaces and returns the best pages with their markdown: the
// search's statements and one more, and with an embedding model one more (embeddings.go), the
// semantic ranking merged with the lexical one. place says for a hit its revision, its URL, and
// what of its markdown the asker reads (nil: all of it).
func (r *App) retrieve(ctx context.Context, orgID string, spaceIDs []string, query string, limit int,
	place func(*search.Hit, *model.SearchPageResult) (revision, url string, visible func(string) string)) ([]answer.Page, error) {
	window, err := windowOf(&limit, nil)
	if err != nil {
		return nil, err
	}
	plan, err := r.planSearch(ctx, orgID, spaceIDs, query, &window)
	if err != nil || len(spaceIDs) == 0 {
		return nil, err
	}
	lexical, err := plan.Pages(ctx, window)
	if err != nil {
		return nil, err
	}
	semantic, anchors := r.semanticHits(ctx, spaceIDs, query, limit)
	hits := fuseHits(lexical.Items, semantic, limit)
	if len(hits) == 0 {
		return nil, nil
	}
	results, err := r.searchResults(ctx, plan.Terms(), hits)
	if err != nil {
		return nil, err
	}
	var contentIDs []string
	for _, h := range hits {
		if h.ContentID != nil {
			contentIDs = append(contentIDs, *h.ContentID)
		}
	}
	bodies, err := r.Store.PageMarkdown(ctx, contentIDs)
	if err != nil {
		return nil, err
	}
	out := make([]answer.Page, 0, len(results))
	for i, res := range results {
		h := hits[i]
		if h.ContentID == nil {
			continue // not a document: nothing to quote
		}
		rev, url, visible := place(h, res)
		md := bodies[*h.ContentID]
		if visible != nil {
			md = visible(md)
		}
		page := answer.Page{SpaceID: h.SpaceID, RevisionID: rev, PageID: h.PageID, Title: res.Title, URL: url, Markdown: md}
		if a, ok := anchors[h.SpaceID+"/"+h.PageID]; ok {
			page.Anchors = []string{a}
		}
		out = append(out, page)
	}
	return out, nil
}

// openingPages are the first pages of each space, at most a few a space, with their markdown:
// what recommended questions are drawn from. Three statements whatever the number of spaces.
func (r *App) openingPages(ctx context.Context, spaces []*storage.Space, url func(*storage.Space, *storage.PageVersion, string) string) ([]answer.Page, error) {
	const perSpace = 5
	if len(spaces) == 0 {
		return nil, nil
	}
	ids := make([]string, len(spaces))
	for i, s := range spaces {
		ids[i] = s.ID
	}
	heads, err := r.Store.OpeningPages(ctx, ids, perSpace)
	if err != nil {
		return nil, err
	}
	var pages []pageRef
	for _, p := range heads {
		pages = append(pages, pageRef{storage.PageKey{SpaceID: p.SpaceID, PageID: p.PageID}, p.ContentID})
	}
	chains, bodies, err := r.chainsAndMarkdown(ctx, pages)
	if err != nil {
		return nil, err
	}
	byID := map[string]*storage.Space{}
	for _, s := range spaces {
		byID[s.ID] = s
	}
	var out []answer.Page
	for _, p := range heads {
		if p.ContentID == nil {
			continue
		}
		chain := chains[p.SpaceID+"/"+p.PageID]
		var slugs []string
		for j := len(chain) - 1; j >= 0; j-- {
			slugs = append(slugs, chain[j].Slug)
		}
		s := byID[p.SpaceID]
		out = append(out, answer.Page{SpaceID: p.SpaceID, RevisionID: s.RevisionID, PageID: p.PageID, Title: p.Title,
			URL: url(s, p, joinPath(slugs)), Markdown: bodies[*p.ContentID]})
	}
	return out, nil
}

func joinPath(slugs []string) string {
	out := ""
	for i, s := range slugs {
		if i > 0 {
			out += "/"
		}
		out += s
	}
	return out
}

// SiteAskScope is which site spaces of a site a question is asked in (the contract's
// SiteSearchScope): "default" (each section's default content, and CurrentSiteSpace), "specific"
// (SiteSpaceIDs) or "all".
type SiteAskScope struct {
	Mode             string   `json:"mode"`
	CurrentSiteSpace string   `json:"currentSiteSpace,omitempty"`
	SiteSpaceIDs     []string `json:"siteSpaceIds,omitempty"`
}

// ScopeMode is a GraphQL scope's mode: "all" when left out.
func ScopeMode(mode *string) string {
	if mode == nil {
		return "all"
	}
	return *mode
}

// Validate checks the scope's mode and its site spaces. Errors: Invalid.
func (s SiteAskScope) Validate() error {
	switch s.Mode {
	case "default", "all":
	case "specific":
		if len(s.SiteSpaceIDs) == 0 {
			return apperr.Invalidf("scope.siteSpaceIds", "must name at least one site space")
		}
	default:
		return apperr.Invalidf("scope.mode", `must be "default", "specific" or "all"`)
	}
	return nil
}

// in reports whether the scope includes a site space.
func (s SiteAskScope) in(sp *PublishedSiteSpace) bool {
	switch s.Mode {
	case "specific":
		return slices.Contains(s.SiteSpaceIDs, sp.ID)
	case "default":
		return sp.Default || sp.ID == s.CurrentSiteSpace
	}
	return true
}

// AskInSite answers a question from a site as it is published, for a member who can read the
// site: from the site spaces of scope that a visitor without claims sees, cited by their
// published URLs; seen (when not nil) is told which pages were retrieved. Errors: Invalid,
// NotFound.
func (r *App) AskInSite(ctx context.Context, orgID, siteID string, q answer.Question, scope SiteAskScope, seen func([]answer.Page), emit func(*answer.Answer)) (*answer.Answer, error) {
	if err := scope.Validate(); err != nil {
		return nil, err
	}
	ps, err := r.memberSiteView(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	c, err := r.answers()
	if err != nil {
		return nil, err
	}
	retrieve := r.siteRetriever(ps, scope.in)
	if seen != nil {
		inner := retrieve
		retrieve = func(ctx context.Context, query string, limit int) ([]answer.Page, error) {
			pages, err := inner(ctx, query, limit)
			if err == nil {
				seen(pages)
			}
			return pages, err
		}
	}
	return c.Ask(ctx, q, retrieve, emit)
}

// RecommendedQuestionsInSite suggests questions a site's published content answers (only
// siteSpaceID's when set; recommended_questions.go), calling emit with each. Errors: Invalid,
// NotFound.
func (r *App) RecommendedQuestionsInSite(ctx context.Context, orgID, siteID, siteSpaceID string, emit func(string)) ([]string, error) {
	ps, err := r.memberSiteView(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if _, err := r.answers(); err != nil {
		return nil, err
	}
	var spaces []*storage.Space
	seen := map[string]bool{}
	for _, sp := range ps.SiteSpaces {
		if (siteSpaceID == "" || sp.ID == siteSpaceID) && !seen[sp.src.row.ID] {
			seen[sp.src.row.ID] = true
			spaces = append(spaces, sp.src.row)
		}
	}
	if siteSpaceID != "" && len(spaces) == 0 {
		return nil, apperr.NotFoundf("site space not found")
	}
	return r.recommendedQuestions(ctx, ps.orgID, "site:"+ps.ID+":"+siteSpaceID, spaces, true, emit)
}

// AskPublished answers a visitor's question from the site spaces they see of a published site.
// Errors: Invalid.
func (r *App) AskPublished(ctx context.Context, ps *PublishedSite, q answer.Question, emit func(*answer.Answer)) (*answer.Answer, error) {
	c, err := r.answers()
	if err != nil {
		return nil, err
	}
	return c.Ask(ctx, q, r.siteRetriever(ps, nil), emit)
}

// memberSiteView is a site, for a member who can read it, as a visitor without claims sees it
// published. Errors: NotFound (no such site, or nothing published).
func (r *App) memberSiteView(ctx context.Context, orgID, siteID string) (*PublishedSite, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	ps := &PublishedSite{ID: site.ID, Title: site.Title, Visibility: site.Visibility, URL: r.publicSiteURL(site),
		orgID: site.OrganizationID, claims: mergeClaims(nil, nil), roots: map[string]*PublishedSiteSpace{}}
	if err := r.publishedStructure(ctx, ps, site); err != nil {
		return nil, err
	}
	return ps, nil
}

// siteRetriever retrieves from the site spaces of ps that keep accepts (nil: all of them): the
// spaces they show, each page with its published URL and only the conditional blocks the
// visitor's claims meet.
func (r *App) siteRetriever(ps *PublishedSite, keep func(*PublishedSiteSpace) bool) answer.Retriever {
	bySpace := map[string]*PublishedSiteSpace{}
	var ids []string
	for _, sp := range ps.SiteSpaces {
		if (keep == nil || keep(sp)) && bySpace[sp.src.View.SpaceID] == nil {
			bySpace[sp.src.View.SpaceID] = sp
			ids = append(ids, sp.src.View.SpaceID)
		}
	}
	return func(ctx context.Context, query string, limit int) ([]answer.Page, error) {
		return r.retrieve(ctx, ps.orgID, ids, query, limit, func(h *search.Hit, res *model.SearchPageResult) (string, string, func(string) string) {
			sp := bySpace[h.SpaceID]
			return sp.Revision, sp.pageURL(res.Path), sp.visibleTo
		})
	}
}

// visibleTo is markdown as the site's visitor reads it: without the conditional blocks whose
// condition their claims do not meet.
func (sp *PublishedSiteSpace) visibleTo(md string) string {
	return document.KeepConditional(md, func(condition string) bool { return conditionHolds(&condition, sp.site.claims) })
}
