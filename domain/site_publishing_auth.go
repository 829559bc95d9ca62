package domain

import (
	"context"
	"errors"
	"net/url"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Visitor authentication (docs/sites.md): a visitor-auth site's readers bring a visitor token
// signed with the site's key, from the site's own sign-in (a custom backend: Bindery runs no
// authenticated-access integration). The key is generated when first asked for, and replaced on
// demand: tokens signed with the old one are refused at once. A visitor without a valid token is
// sent to the fallback URL, when there is one.

func toPublishingAuth(s *storage.SiteReaderSettings) *model.SitePublishingAuth {
	return &model.SitePublishingAuth{Object: "publishing-auth", Backend: "custom", PrivateKey: deref(s.SigningKey), FallbackURL: s.FallbackURL}
}

// publishingAuthOf reads a site's reader settings for its managers, generating the signing key
// when it has none. Errors: NotFound, Forbidden.
func (r *App) publishingAuthOf(ctx context.Context, orgID, siteID string, rotate bool) (*storage.SiteReaderSettings, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	s, err := r.Store.SiteReaderSettingsOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	s.OrganizationID = site.OrganizationID
	if s.SigningKey == nil || rotate {
		key := newSigningKey()
		s.SigningKey, s.UpdatedAt = &key, r.Now()
		if rotate { // a first key, made when first read, changes nothing anyone relied on
			ctx = r.emit(ctx, visitorAuthEvent(s), map[string]any{"signingKey": "regenerated"})
		}
		if err := r.Store.SaveSiteReaderSettings(ctx, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// visitorAuthEvent is the event of a change to a site's visitor authentication.
func visitorAuthEvent(s *storage.SiteReaderSettings) *storage.Event {
	return &storage.Event{Type: EventSiteVisitorAuthUpdated, OrganizationID: s.OrganizationID, SiteID: s.SiteID, TargetType: "site", TargetID: s.SiteID}
}

// SitePublishingAuth reads a site's visitor authentication settings (site managers: the key is
// a secret), generating its key when it has none. Errors: NotFound, Forbidden.
func (r *App) SitePublishingAuth(ctx context.Context, orgID, siteID string) (*model.SitePublishingAuth, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.signingSettings(ctx, site.OrganizationID, site.ID)
}

// PublishingAuthOf reads the visitor authentication settings of a site already read: sites
// listed together read theirs, and have their missing keys generated, in one batch.
// Errors: Forbidden.
func (r *App) PublishingAuthOf(ctx context.Context, site *model.Site) (*model.SitePublishingAuth, error) {
	if _, err := r.siteEditor(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	return r.signingSettings(ctx, site.OrganizationID, site.ID)
}

func (r *App) signingSettings(ctx context.Context, orgID, siteID string) (*model.SitePublishingAuth, error) {
	s, err := loader.For(ctx, r.Store).SigningKeys.Find(ctx, loader.SiteKey{OrganizationID: orgID, ID: siteID})
	if err != nil {
		return nil, err
	}
	return toPublishingAuth(s), nil
}

// RegenerateSitePublishingAuth replaces a site's signing key: visitor tokens signed with the old
// one are refused from now on. Errors: NotFound, Forbidden.
func (r *App) RegenerateSitePublishingAuth(ctx context.Context, orgID, siteID string) (*model.SitePublishingAuth, error) {
	s, err := r.publishingAuthOf(ctx, orgID, siteID, true)
	if err != nil {
		return nil, err
	}
	return toPublishingAuth(s), nil
}

// UpdateSitePublishingAuth changes a site's visitor authentication settings: the backend
// (custom: the site's own sign-in) and the fallback URL (null removes it). Errors: Invalid,
// NotFound, Forbidden.
func (r *App) UpdateSitePublishingAuth(ctx context.Context, orgID, siteID string, in model.SitePublishingAuthUpdate) (*model.SitePublishingAuth, error) {
	if in.Backend == nil {
		return nil, apperr.Invalidf("backend", "is required: custom")
	}
	if *in.Backend != "custom" {
		return nil, apperr.Invalidf("backend", "must be custom: this server runs no authenticated-access integration")
	}
	fallback, setFallback := in.FallbackURL.ValueOK()
	if setFallback && fallback != nil {
		u, err := url.Parse(*fallback)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(*fallback) > 2048 {
			return nil, apperr.Invalidf("fallbackURL", "must be an absolute http or https URL")
		}
	}
	s, err := r.publishingAuthOf(ctx, orgID, siteID, false)
	if err != nil {
		return nil, err
	}
	if setFallback {
		s.FallbackURL, s.UpdatedAt = fallback, r.Now()
		if err := r.Store.SaveSiteReaderSettings(r.emit(ctx, visitorAuthEvent(s), map[string]any{"fallbackURL": fallback}), s); err != nil {
			return nil, err
		}
	}
	return toPublishingAuth(s), nil
}

// PublishedSiteFallback is where a visitor without a valid token is sent to sign in to the site
// published under name: nil for a site that is not visitor-auth or has no fallback URL. It tells
// anyone where a site's sign-in is, as the site itself does by sending visitors there.
func (r *App) PublishedSiteFallback(ctx context.Context, name string) (*string, error) {
	row, err := r.Store.FindPublishedSite(ctx, name)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if row.Unpublished || row.SiteSpaces == 0 || row.Visibility != "visitor-auth" {
		return nil, nil
	}
	s, err := r.Store.SiteReaderSettingsOf(ctx, row.ID)
	if err != nil {
		return nil, err
	}
	return s.FallbackURL, nil
}
