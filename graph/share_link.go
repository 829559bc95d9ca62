package graph

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/storage"
)

func jsonUnmarshal(d model.Document, v any) error { return json.Unmarshal(d, v) }

func (r *Resolver) toShareLink(site *storage.Site, l *storage.ShareLink) *model.ShareLink {
	out := &model.ShareLink{Object: "share-link", ID: l.ID, CreatedAt: l.CreatedAt, Name: l.Name, Active: l.Active}
	if l.Active {
		u := r.siteURL(site.Basename, site.ID) + "?share=" + l.ShareKey
		out.URLs.Published = &u
	}
	return out
}

// shareLinks lists a site's share links, newest first (site managers: a link is a secret).
// Errors: Invalid, Forbidden.
func (r *Resolver) shareLinks(ctx context.Context, site *model.Site, first *int, after *string) (*model.ShareLinkConnection, error) {
	page, err := pageOf(first, after)
	if err != nil {
		return nil, err
	}
	row, err := r.editableSite(ctx, site.OrganizationID, site.ID)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindShareLinks(ctx, row.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(l *storage.ShareLink) *model.ShareLink { return r.toShareLink(row, l) }), nil
}

// createShareLink creates an active share link. Errors: Invalid, NotFound, Forbidden.
func (r *Resolver) createShareLink(ctx context.Context, orgID, siteID string, in model.CreateShareLinkInput) (*model.ShareLink, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	l := &storage.ShareLink{OrganizationID: orgID, SiteID: site.ID, Name: *in.Name, Active: true, CreatedAt: r.Now()}
	if err := r.Store.CreateShareLink(ctx, l); err != nil {
		return nil, err
	}
	return r.toShareLink(site, l), nil
}

// updateShareLink renames or (de)activates a share link. Errors: Invalid, NotFound, Forbidden.
func (r *Resolver) updateShareLink(ctx context.Context, orgID, siteID, id string, in model.UpdateShareLinkInput) (*model.ShareLink, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	l, err := r.Store.FindShareLink(ctx, site.ID, id)
	if err != nil {
		return nil, notFound(err, "share link")
	}
	var cols []string
	if in.Active != nil {
		l.Active, cols = *in.Active, append(cols, "active")
	}
	if in.Name != nil {
		l.Name, cols = *in.Name, append(cols, "name")
	}
	if err := r.Store.UpdateShareLink(ctx, l, cols); err != nil {
		return nil, err
	}
	return r.toShareLink(site, l), nil
}

// deleteShareLink deletes a share link; a missing one reports false. Errors: NotFound (site),
// Forbidden.
func (r *Resolver) deleteShareLink(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteShareLink(ctx, site.ID, id)
}
