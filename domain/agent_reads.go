package domain

import (
	"context"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// What agents read of a published site through MCP (docs/mcp.md): the same reads the reader and
// GraphQL's PublishedSite make, for the same visitor.

// PublishedDocuments lists the document pages of every site space the visitor sees, in
// navigation order.
func (r *App) PublishedDocuments(ctx context.Context, ps *PublishedSite) ([]*model.PublishedPageRef, error) {
	var out []*model.PublishedPageRef
	for _, sp := range ps.SiteSpaces {
		pages, err := r.PublishedPages(ctx, sp)
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			if p.Type == model.PageTypeDocument {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// PublishedPageMarkdown reads the document page at a published URL or site-relative path as the
// visitor reads it: conditional blocks they do not meet removed, expressions evaluated.
// Errors: NotFound.
func (r *App) PublishedPageMarkdown(ctx context.Context, ps *PublishedSite, at string) (*PublishedPage, string, error) {
	path := strings.TrimPrefix(strings.SplitN(at, "#", 2)[0], ps.URL)
	loc := r.PublishedAt(ps, path)
	if loc == nil {
		return nil, "", apperr.NotFoundf("page not found")
	}
	pp, err := r.PublishedPageAt(ctx, loc)
	if err != nil {
		return nil, "", err
	}
	if pp == nil || pp.Type != model.PageTypeDocument {
		return nil, "", apperr.NotFoundf("page not found")
	}
	md, err := r.PublishedEvaluatedMarkdown(ctx, pp)
	if err != nil || md == nil {
		return nil, "", err
	}
	return pp, *md, nil
}
