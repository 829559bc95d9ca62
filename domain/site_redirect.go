package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Site redirects (docs/sites.md): a path under a site that no longer leads anywhere is sent to a
// section, a site space or a page of the site. The reader follows a redirect only where it would
// otherwise answer 404, and a destination is content that exists, so redirects cannot chain; a
// redirect whose destination is its own source is refused.

// redirectSource is the contract's SiteRedirectSourcePath.
var redirectSource = regexp.MustCompile(`^/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$`)

const maxRedirectSource = 512

// validRedirectSource checks a source path. Errors: Invalid naming field.
func validRedirectSource(field, s string) error {
	if len(s) > maxRedirectSource {
		return apperr.Invalidf(field, "must be at most %d characters", maxRedirectSource)
	}
	if !redirectSource.MatchString(s) {
		return apperr.Invalidf(field, "must be a path under the site starting with /, such as /old/page (letters, digits, - . _ ~ and %%-escapes)")
	}
	return nil
}

func toSiteRedirect(row *storage.SiteRedirect) *model.SiteRedirect {
	out := &model.SiteRedirect{Object: "site-redirect", ID: row.ID, Source: row.Source}
	_ = json.Unmarshal([]byte(row.Destination), &out.Destination)
	return out
}

// SiteRedirects lists a site's redirects by source; search keeps those whose source holds it.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) SiteRedirects(ctx context.Context, site *model.Site, search *string, first *int, after *string) (*model.SiteRedirectConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	page.NoTotal = !Wants(ctx, WantTotal)
	list, _, err := loader.For(ctx, r.Store).SiteRedirects.Load(ctx, loader.SiteRedirectsKey{SiteID: site.ID, Search: deref(search), Window: page})
	if err != nil {
		return nil, err
	}
	return connectionOf(list, toSiteRedirect), nil
}

// CreateSiteRedirect adds a redirect. Errors: Invalid (a bad source, a destination not on the
// site, a source already redirected, a redirect to itself), NotFound, Forbidden.
func (r *App) CreateSiteRedirect(ctx context.Context, orgID, siteID string, in model.SiteRedirectInput) (*model.SiteRedirect, error) {
	if in.Source == nil {
		return nil, apperr.Invalidf("source", "is required")
	}
	if in.Destination == nil {
		return nil, apperr.Invalidf("destination", "is required")
	}
	if err := validRedirectSource("source", *in.Source); err != nil {
		return nil, err
	}
	row := &storage.SiteRedirect{Source: *in.Source}
	return r.saveSiteRedirect(ctx, orgID, siteID, row, in.Destination, true)
}

// UpdateSiteRedirect changes a redirect's source or destination. Errors: as CreateSiteRedirect,
// and NotFound for a redirect not on the site.
func (r *App) UpdateSiteRedirect(ctx context.Context, orgID, siteID, id string, in model.SiteRedirectInput) (*model.SiteRedirect, error) {
	if in.Source != nil {
		if err := validRedirectSource("source", *in.Source); err != nil {
			return nil, err
		}
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSiteRedirect(ctx, site.ID, id)
	if err != nil {
		return nil, notFound(err, "site redirect")
	}
	if in.Source != nil {
		row.Source = *in.Source
	}
	dest := in.Destination
	if dest == nil {
		dest = &toSiteRedirect(row).Destination
	}
	return r.saveSiteRedirect(ctx, orgID, siteID, row, dest, false)
}

func (r *App) saveSiteRedirect(ctx context.Context, orgID, siteID string, row *storage.SiteRedirect, dest *model.SiteRedirectDestination, create bool) (*model.SiteRedirect, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	target, err := r.redirectTarget(ctx, r.toSite(site), *dest, nil, true)
	if err != nil {
		return nil, err
	}
	if target == r.publicSiteURL(r.toSite(site))+strings.TrimPrefix(row.Source, "/") ||
		target == r.publicSiteURL(r.toSite(site))+strings.TrimPrefix(row.Source, "/")+"/" {
		return nil, apperr.Invalidf("destination", "leads back to %s: a redirect cannot lead to itself", row.Source)
	}
	raw, err := json.Marshal(dest)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	row.OrganizationID, row.SiteID, row.Destination, row.UpdatedAt = site.OrganizationID, site.ID, string(raw), now
	if create {
		row.CreatedAt = now
		if row.ID == "" {
			row.ID = storage.NewID()
		}
		ctx = r.emit(ctx, siteObjectEvent(EventSiteRedirectCreated, site, "site-redirect", row.ID, row.Source), nil)
		err = r.Store.CreateSiteRedirect(ctx, row)
	} else {
		ctx = r.emit(ctx, siteObjectEvent(EventSiteRedirectUpdated, site, "site-redirect", row.ID, row.Source), nil)
		err = r.Store.UpdateSiteRedirect(ctx, row)
	}
	switch {
	case errors.Is(err, storage.ErrConflict):
		return nil, apperr.Invalidf("source", "%s is already redirected on this site", row.Source)
	case err != nil:
		return nil, notFound(err, "site redirect")
	}
	return toSiteRedirect(row), nil
}

// DeleteSiteRedirect removes a redirect; it reports whether there was one. Errors: NotFound
// (the site), Forbidden.
func (r *App) DeleteSiteRedirect(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteSiteRedirect(r.emit(ctx, siteObjectEvent(EventSiteRedirectDeleted, site, "site-redirect", id, ""), nil), site.ID, id)
}

// SiteRedirectBySource resolves the redirect from a source path: the redirect and the URL it
// leads to (through the share link with shareKey, when given). Errors: Invalid, NotFound (also
// no redirect from there), Forbidden.
func (r *App) SiteRedirectBySource(ctx context.Context, orgID, siteID, source string, shareKey *string) (*model.ResolvedSiteRedirect, error) {
	if err := validRedirectSource("source", source); err != nil {
		return nil, err
	}
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSiteRedirectBySource(ctx, site.ID, source)
	if err != nil {
		return nil, notFound(err, "site redirect")
	}
	out := &model.ResolvedSiteRedirect{Redirect: toSiteRedirect(row)}
	if out.Target, err = r.redirectTarget(ctx, site, out.Redirect.Destination, shareKey, false); err != nil {
		return nil, err
	}
	return out, nil
}

// redirectTarget is the published URL of a redirect's destination, as the site's managers see
// the site. Errors: Invalid naming destination (strict: a destination not on the site), NotFound
// (not strict: a destination since removed).
func (r *App) redirectTarget(ctx context.Context, site *model.Site, d model.SiteRedirectDestination, shareKey *string, strict bool) (string, error) {
	gone := func(format string, args ...any) error {
		if strict {
			return apperr.Invalidf("destination", format, args...)
		}
		return apperr.NotFoundf("the redirect's destination is no longer on the site")
	}
	structure, err := r.SiteStructure(ctx, site, shareKey)
	if err != nil {
		return "", err
	}
	switch d.Kind {
	case "site-section":
		if d.SiteSectionID == nil {
			return "", gone("siteSectionId is required")
		}
		for _, sec := range sectionsOfItems(structure.Sections) {
			if sec.ID == *d.SiteSectionID && sec.URLs.Published != nil {
				return *sec.URLs.Published, nil
			}
		}
		return "", gone("section %q not found on this site", *d.SiteSectionID)
	case "site-space", "site-page":
		if d.SiteSpaceID == nil {
			return "", gone("siteSpaceId is required")
		}
		var ss *model.SiteSpace
		for _, s := range siteSpacesOf(structure) {
			if s.ID == *d.SiteSpaceID {
				ss = s
			}
		}
		if ss == nil || ss.URLs.Published == nil {
			return "", gone("site space %q not found on this site", *d.SiteSpaceID)
		}
		base, query, _ := strings.Cut(*ss.URLs.Published, "?")
		if d.Kind == "site-space" {
			return *ss.URLs.Published, nil
		}
		if d.PageID == nil {
			return "", gone("pageId is required")
		}
		path, err := r.pagePathInSpace(ctx, ss.Space.ID, *d.PageID)
		if err != nil {
			return "", gone("page %q not found in site space %q", *d.PageID, *d.SiteSpaceID)
		}
		if query != "" {
			query = "?" + query
		}
		return base + path + query, nil
	}
	return "", apperr.Invalidf("destination.kind", "must be site-section, site-space or site-page")
}

// pagePathInSpace is the path of a page in a space's current revision. Errors: NotFound.
func (r *App) pagePathInSpace(ctx context.Context, spaceID, pageID string) (string, error) {
	src, err := r.SpaceContent(ctx, spaceID)
	if err != nil {
		return "", err
	}
	page, err := r.Page(ctx, src, pageID, model.PageFormatDocument)
	if err != nil {
		return "", err
	}
	if page.Type != model.PageTypeDocument && page.Type != model.PageTypeGroup {
		return "", fmt.Errorf("page %s is a link: %w", pageID, storage.ErrNotFound)
	}
	return page.Path, nil
}

// PublishedRedirect is where a path of a published site that shows nothing is redirected, as
// this visitor sees the site: nil when no redirect applies, or its destination is hidden from
// them or gone.
func (r *App) PublishedRedirect(ctx context.Context, ps *PublishedSite, path string) (*string, error) {
	source := "/" + strings.Trim(path, "/")
	if validRedirectSource("path", source) != nil {
		return nil, nil
	}
	row, err := r.Store.FindSiteRedirectBySource(ctx, ps.ID, source)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d := toSiteRedirect(row).Destination
	for _, sp := range ps.SiteSpaces {
		switch {
		case d.Kind == "site-section" && d.SiteSectionID != nil && sp.Section != nil && *sp.Section == *d.SiteSectionID && sp.Default,
			d.Kind == "site-space" && d.SiteSpaceID != nil && sp.ID == *d.SiteSpaceID:
			return &sp.URL, nil
		case d.Kind == "site-page" && d.SiteSpaceID != nil && d.PageID != nil && sp.ID == *d.SiteSpaceID:
			t, err := r.treeOf(ctx, sp)
			if err != nil {
				return nil, err
			}
			if p := t.byID[*d.PageID]; p != nil && p.Type != model.PageTypeLink {
				u := sp.pageURL(p.Path)
				return &u, nil
			}
			return nil, nil
		}
	}
	return nil, nil
}
