package domain

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/domain/model"
)

// publishedStyle reads a published site's customizations once per view.
func (r *App) publishedStyle(ctx context.Context, ps *PublishedSite) (*customizations, error) {
	ps.styleOnce.Do(func() { ps.style, ps.styleErr = r.siteCustomizations(ctx, ps.ID) })
	return ps.style, ps.styleErr
}

// PublishedCustomization is a published site's customization (SiteCustomizationSettings).
func (r *App) PublishedCustomization(ctx context.Context, ps *PublishedSite) (model.JSON, error) {
	c, err := r.publishedStyle(ctx, ps)
	if err != nil {
		return nil, err
	}
	return json.Marshal(c.site)
}

// PublishedSiteSpaceCustomization is the customization a published site space shows: its site's
// with its overrides.
func (r *App) PublishedSiteSpaceCustomization(ctx context.Context, sp *PublishedSiteSpace) (model.JSON, error) {
	c, err := r.publishedStyle(ctx, sp.site)
	if err != nil {
		return nil, err
	}
	return json.Marshal(c.of(sp.ID))
}
