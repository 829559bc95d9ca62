package domain

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

func jsonUnmarshal(d model.Document, v any) error { return json.Unmarshal(d, v) }

func (r *App) toShareLink(siteURL string, l *storage.ShareLink) *model.ShareLink {
	out := &model.ShareLink{Object: "share-link", ID: l.ID, CreatedAt: l.CreatedAt, Name: l.Name, Active: l.Active}
	if l.Active {
		u := siteURL + "?share=" + l.ShareKey
		out.URLs.Published = &u
	}
	return out
}

// ShareLinks lists a site's share links, newest first (site managers: a link is a secret).
// Errors: Invalid, Forbidden.
func (r *App) ShareLinks(ctx context.Context, site *model.Site, first *int, after *string) (*model.ShareLinkConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if _, err := r.siteEditor(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	rows, _, err := loader.For(ctx, r.Store).ShareLinks.Load(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	list, err := storage.PageInMemory("shareLinks", rows, func(l *storage.ShareLink) (time.Time, string) { return l.CreatedAt, l.ID }, true, page)
	if err != nil {
		return nil, err
	}
	url := r.publicSiteURL(site)
	return connectionOf(list, func(l *storage.ShareLink) *model.ShareLink { return r.toShareLink(url, l) }), nil
}

// CreateShareLink creates an active share link. Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateShareLink(ctx context.Context, orgID, siteID string, in model.CreateShareLinkInput) (*model.ShareLink, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	l := &storage.ShareLink{ID: storage.NewID(), OrganizationID: orgID, SiteID: site.ID, Name: *in.Name, Active: true, CreatedAt: r.Now()}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteShareLinkCreated, site, "share-link", l.ID, l.Name), nil)
	if err := r.Store.CreateShareLink(ctx, l); err != nil {
		return nil, err
	}
	return r.toShareLink(r.publicSiteURL(r.toSite(site)), l), nil
}

// UpdateShareLink renames or (de)activates a share link. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateShareLink(ctx context.Context, orgID, siteID, id string, in model.UpdateShareLinkInput) (*model.ShareLink, error) {
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
	var set storage.ShareLinkField
	if in.Active != nil {
		l.Active, set = *in.Active, set|storage.ShareLinkActive
	}
	if in.Name != nil {
		l.Name, set = *in.Name, set|storage.ShareLinkName
	}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteShareLinkUpdated, site, "share-link", l.ID, l.Name), map[string]any{"active": l.Active})
	if err := r.Store.UpdateShareLink(ctx, l, set); err != nil {
		return nil, err
	}
	return r.toShareLink(r.publicSiteURL(r.toSite(site)), l), nil
}

// DeleteShareLink deletes a share link; a missing one reports false. Errors: NotFound (site),
// Forbidden.
func (r *App) DeleteShareLink(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteShareLink(r.emit(ctx, siteObjectEvent(EventSiteShareLinkDeleted, site, "share-link", id, ""), nil), site.ID, id)
}
