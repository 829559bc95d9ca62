package reader

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// What each view reads: the domain's published-site reads (domain/published.go), the same ones
// the graph's publishedSite field answers with, for the request's visitor. A view costs a fixed
// number of statements whatever the size of the site (TestReaderStatementsDoNotGrow).

// searchResults is how many results the search page lists.
const searchResults = 20

// openSite opens the site a request names for its visitor. A visitor-auth site without a valid
// token sends the visitor to the site's own sign-in when it has one; otherwise the failure is
// answered. It reports whether the site opened.
func (h *Handler) openSite(w http.ResponseWriter, req *http.Request) (*domain.PublishedSite, bool) {
	ps, err := h.app.OpenPublishedSite(req.Context(), chi.URLParam(req, "name"), visitor(req))
	if err == nil {
		return ps, true
	}
	if apperr.KindOf(err) == apperr.Unauthenticated && h.signInElsewhere(w, req) {
		return nil, false
	}
	h.fail(w, req, err)
	return nil, false
}

// pageContent is everything one page view renders from.
type pageContent struct {
	Site       *domain.PublishedSite
	SiteStyle  model.JSON
	SiteSpace  *domain.PublishedSiteSpace
	SpaceStyle model.JSON
	Sidebar    []*model.PublishedPageRef
	Page       *domain.PublishedPage
	Document   model.JSON
	Links      []*model.PublishedLink
	Files      []*model.PublishedFile
}

// loadPage reads what the page at a site-relative path shows; Page is nil when it shows none.
func (h *Handler) loadPage(ctx context.Context, ps *domain.PublishedSite, path string) (*pageContent, error) {
	c := &pageContent{Site: ps}
	loc := h.app.PublishedAt(ps, path)
	if loc == nil {
		return c, nil
	}
	var err error
	if c.Page, err = h.app.PublishedPageAt(ctx, loc); err != nil || c.Page == nil {
		return c, err
	}
	c.SiteSpace = loc.SiteSpace
	if c.SiteStyle, err = h.app.PublishedCustomization(ctx, ps); err != nil {
		return nil, err
	}
	if c.SpaceStyle, err = h.app.PublishedSiteSpaceCustomization(ctx, loc.SiteSpace); err != nil {
		return nil, err
	}
	if c.Sidebar, err = h.app.PublishedSidebar(ctx, loc); err != nil {
		return nil, err
	}
	if c.Document, err = h.app.PublishedDocument(ctx, c.Page); err != nil {
		return nil, err
	}
	if c.Links, err = h.app.PublishedLinks(ctx, c.Page); err != nil {
		return nil, err
	}
	if c.Files, err = h.app.PublishedFiles(ctx, c.Page); err != nil {
		return nil, err
	}
	return c, nil
}

// markdownContent is what a page's markdown view writes.
type markdownContent struct {
	Indexable bool
	SiteSpace *domain.PublishedSiteSpace
	Page      *domain.PublishedPage
	Markdown  string
}

// loadMarkdown reads the markdown of the document page at path; nil when there is none.
func (h *Handler) loadMarkdown(ctx context.Context, ps *domain.PublishedSite, path string) (*markdownContent, error) {
	loc := h.app.PublishedAt(ps, path)
	if loc == nil {
		return nil, nil
	}
	p, err := h.app.PublishedPageAt(ctx, loc)
	if err != nil || p == nil {
		return nil, err
	}
	md, err := h.app.PublishedEvaluatedMarkdown(ctx, p)
	if err != nil || md == nil {
		return nil, err
	}
	return &markdownContent{Indexable: ps.Indexable, SiteSpace: loc.SiteSpace, Page: p, Markdown: *md}, nil
}

// indexedSpace is a site space with every page it lists: sitemap.xml, robots.txt and llms.txt.
type indexedSpace struct {
	*domain.PublishedSiteSpace
	Pages []*model.PublishedPageRef
}

// loadIndex reads every listed page of every site space the visitor sees.
func (h *Handler) loadIndex(ctx context.Context, ps *domain.PublishedSite) ([]indexedSpace, error) {
	out := make([]indexedSpace, 0, len(ps.SiteSpaces))
	for _, sp := range ps.SiteSpaces {
		pages, err := h.app.PublishedPages(ctx, sp)
		if err != nil {
			return nil, err
		}
		out = append(out, indexedSpace{PublishedSiteSpace: sp, Pages: pages})
	}
	return out, nil
}

// etag is a view's entity tag: the revision shown and a hash of everything the view renders from,
// so that any change to the site or to the visitor's view of it changes the tag.
func etag(revision string, content any) string {
	sum := sha256.New()
	sum.Write([]byte(build))
	if err := json.NewEncoder(sum).Encode(content); err != nil {
		return "" // never matched: the view is sent in full
	}
	return `"` + revision + "-" + hex.EncodeToString(sum.Sum(nil)[:8]) + `"`
}
