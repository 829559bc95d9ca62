package domain

import (
	"context"
	"net/url"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// maxContentURL bounds a URL to resolve.
const maxContentURL = 2048

// ContentByURL resolves a URL of this server to the content it shows the caller: an app URL of a
// collection (<app>/c/<id>/) or of a space's page (<app>/s/<space>/<page path>), or a published
// URL of a site (<public>/sites/<name>/<path>, or the site's own host name) to its space and
// page, as the caller, a member who can read the site, sees it. Errors: Invalid (not a URL),
// NotFound (nothing at that URL the caller may read).
func (r *App) ContentByURL(ctx context.Context, raw string) (*model.ContentByURL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if raw == "" || len(raw) > maxContentURL || err != nil || u.Host == "" {
		return nil, apperr.Invalidf("url", "must be an absolute URL")
	}
	nothing := apperr.NotFoundf("no content at this URL")
	if rest, ok := underBase(u, r.Settings.AppURL); ok {
		kind, rest, _ := strings.Cut(rest, "/")
		id, path, _ := strings.Cut(rest, "/")
		switch kind {
		case "c":
			c, err := r.CollectionByID(ctx, id)
			if err != nil {
				return nil, notFoundAs(err, nothing)
			}
			return &model.ContentByURL{Collection: c}, nil
		case "s":
			return r.spacePageByURL(ctx, id, path, nothing)
		}
		return nil, nothing
	}
	site, _, path, err := r.siteOfURL(ctx, raw)
	if err != nil {
		return nil, notFoundAs(err, nothing)
	}
	ps, err := r.memberSiteView(ctx, site.OrganizationID, site.ID)
	if err != nil {
		return nil, notFoundAs(err, nothing)
	}
	loc := r.PublishedAt(ps, path)
	if loc == nil {
		return nil, nothing
	}
	return r.spacePageByURL(ctx, loc.SiteSpace.src.View.SpaceID, loc.PagePath, nothing)
}

// underBase reports whether u is under base (a URL without a trailing slash) and returns the rest
// of its path, without the leading slash.
func underBase(u *url.URL, base string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil || !strings.EqualFold(b.Host, u.Host) {
		return "", false
	}
	prefix := strings.TrimSuffix(b.Path, "/") + "/"
	if !strings.HasPrefix(u.Path, prefix) {
		return "", false
	}
	return strings.TrimPrefix(u.Path, prefix), true
}

// spacePageByURL is a space the caller reads and the page at path in it (none for "").
func (r *App) spacePageByURL(ctx context.Context, spaceID, path string, nothing error) (*model.ContentByURL, error) {
	s, err := r.SpaceByID(ctx, spaceID)
	if err != nil {
		return nil, notFoundAs(err, nothing)
	}
	out := &model.ContentByURL{Space: s}
	if path = strings.Trim(path, "/"); path == "" {
		return out, nil
	}
	src, err := r.SpaceContent(ctx, spaceID)
	if err != nil {
		return nil, notFoundAs(err, nothing)
	}
	if out.Page, err = r.PageByPath(ctx, src, path, model.PageFormatDocument); err != nil {
		return nil, notFoundAs(err, nothing)
	}
	return out, nil
}
