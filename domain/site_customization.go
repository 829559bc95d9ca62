package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/sitestyle"
	"github.com/bindery/bindery/storage"
)

// A site's look and feel (docs/sites.md): the contract's SiteCustomizationSettings, stored as the
// document it is, validated against the contract's schema (sitestyle), defaults filled in; each
// site space may override parts of it (a merge patch: null gives the site's value back). The
// reader draws every page from the merged document of the site space it shows.

// customizations are a site's customization and its site spaces' overrides, as read at once.
type customizations struct {
	stored    bool // the site has set its customization (else: the defaults)
	site      map[string]any
	overrides map[string]map[string]any // by site space id
}

// of is the customization a site space shows: the site's with its overrides.
func (c *customizations) of(siteSpaceID string) map[string]any {
	return sitestyle.Merge(c.site, c.overrides[siteSpaceID])
}

// siteCustomizations reads a site's customization (the defaults where it has set none) and its
// site spaces' overrides: two statements for all the sites a request reads at one level.
func (r *App) siteCustomizations(ctx context.Context, siteID string) (*customizations, error) {
	set, ok, err := loader.For(ctx, r.Store).SiteCustomizations.Load(ctx, siteID)
	if err != nil {
		return nil, err
	}
	if !ok {
		set = &storage.SiteCustomizationSet{}
	}
	return customizationsOf(siteID, set)
}

// freshCustomizations reads a site's customizations past the request's loaders: what a change
// builds on, even after another change in the same request.
func (r *App) freshCustomizations(ctx context.Context, siteID string) (*customizations, error) {
	sets, err := r.Store.SiteCustomizationsOf(ctx, []string{siteID})
	if err != nil {
		return nil, err
	}
	return customizationsOf(siteID, sets[siteID])
}

func customizationsOf(siteID string, set *storage.SiteCustomizationSet) (*customizations, error) {
	site, overrides := set.Site, set.SiteSpaces
	out := &customizations{site: sitestyle.Defaults(), overrides: map[string]map[string]any{}}
	if site != nil {
		var doc map[string]any
		if err := json.Unmarshal([]byte(site.Settings), &doc); err != nil {
			return nil, fmt.Errorf("read customization of site %s: %w", siteID, err)
		}
		out.site, out.stored = sitestyle.Merge(out.site, doc), true
	}
	for id, o := range overrides {
		var doc map[string]any
		if err := json.Unmarshal([]byte(o.Settings), &doc); err != nil {
			return nil, fmt.Errorf("read customization of site space %s: %w", id, err)
		}
		out.overrides[id] = doc
	}
	return out, nil
}

// SiteCustomization reads a site's customization. Errors: NotFound, Forbidden.
func (r *App) SiteCustomization(ctx context.Context, orgID, siteID string) (model.JSON, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.CustomizationOf(ctx, site)
}

// CustomizationOf reads the customization of a site already read: sites listed together read
// theirs in one batch. Errors: Forbidden.
func (r *App) CustomizationOf(ctx context.Context, site *model.Site) (model.JSON, error) {
	if _, err := r.siteReader(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	c, err := r.siteCustomizations(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return json.Marshal(c.site)
}

// UpdateSiteCustomization sets a site's customization: the contract's SiteCustomizationSettings,
// settings left out taking their defaults. Site spaces' overrides stay, and must still make a
// valid document over it. Errors: Invalid (naming the setting), NotFound, Forbidden.
func (r *App) UpdateSiteCustomization(ctx context.Context, orgID, siteID string, settings model.JSON) (model.JSON, error) {
	if settings.IsNull() {
		return nil, apperr.Invalidf("settings", "must be a JSON object")
	}
	body, err := jsonObject(settings)
	if err != nil {
		return nil, err
	}
	doc := sitestyle.Merge(sitestyle.Defaults(), body)
	if err := sitestyle.ValidateValue(sitestyle.Settings, doc); err != nil {
		return nil, styleInvalid("", err)
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	c, err := r.freshCustomizations(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	for id, o := range c.overrides {
		if err := sitestyle.ValidateValue(sitestyle.Settings, sitestyle.Merge(doc, o)); err != nil {
			return nil, apperr.Invalidf("", "the overrides of site space %s would no longer be valid: %s", id, err)
		}
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	row := &storage.SiteCustomization{SiteID: site.ID, OrganizationID: site.OrganizationID, Settings: string(raw), UpdatedAt: r.Now()}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteCustomizationUpdated, site, "site", site.ID, site.Title), nil)
	if err := r.Store.SaveSiteCustomization(ctx, row); err != nil {
		return nil, err
	}
	return raw, nil
}

// jsonObject decodes a JSON object. Errors: Invalid.
func jsonObject(raw model.JSON) (map[string]any, error) {
	if len(raw) > sitestyle.MaxDocument {
		return nil, apperr.Invalidf("body", "must be at most %d bytes", sitestyle.MaxDocument)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, apperr.Invalidf("body", "must be a JSON object")
	}
	return m, nil
}

// siteSpaceOf checks that a site space is on a site. Errors: NotFound.
func (r *App) siteSpaceOf(ctx context.Context, siteID, siteSpaceID string) error {
	rows, err := r.Store.SiteSpacesOf(ctx, siteID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(rows, func(ss *storage.SiteSpace) bool { return ss.ID == siteSpaceID }) {
		return apperr.NotFoundf("site space not found")
	}
	return nil
}

// siteSpaceCustomization is a site space's customization with whether it overrides its site's.
func siteSpaceCustomization(c *customizations, siteSpaceID string) (model.JSON, error) {
	doc := c.of(siteSpaceID)
	_, has := c.overrides[siteSpaceID]
	doc["hasOverrides"] = has && len(c.overrides[siteSpaceID]) > 0
	return json.Marshal(doc)
}

// SiteSpaceCustomization reads a site space's customization: its site's with its overrides, and
// hasOverrides. Errors: NotFound, Forbidden.
func (r *App) SiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string) (model.JSON, error) {
	site, err := r.SiteByID(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return r.SiteSpaceCustomizationOf(ctx, site, siteSpaceID)
}

// SiteSpaceCustomizationOf is the customization of a site space of a site already read: sites
// listed together read their site spaces and customizations in one batch each. Errors: NotFound
// (a site space not on the site), Forbidden.
func (r *App) SiteSpaceCustomizationOf(ctx context.Context, site *model.Site, siteSpaceID string) (model.JSON, error) {
	if _, err := r.siteReader(ctx, site.OrganizationID); err != nil {
		return nil, err
	}
	rows, _, err := loader.For(ctx, r.Store).SiteSpaces.Load(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(rows, func(ss *storage.SiteSpace) bool { return ss.ID == siteSpaceID }) {
		return nil, apperr.NotFoundf("site space not found")
	}
	c, err := r.siteCustomizations(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	return siteSpaceCustomization(c, siteSpaceID)
}

// OverrideSiteSpaceCustomization changes a site space's overrides: a merge patch over the ones
// it has (null gives the site's value back), the result over the site's customization valid.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) OverrideSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string, patch model.JSON) (model.JSON, error) {
	if patch.IsNull() {
		return nil, apperr.Invalidf("", "the overrides must be a JSON object")
	}
	doc, err := jsonObject(patch)
	if err != nil {
		return nil, err
	}
	if err := sitestyle.ValidateValue(sitestyle.Override, doc); err != nil {
		return nil, styleInvalid("", err)
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if err := r.siteSpaceOf(ctx, site.ID, siteSpaceID); err != nil {
		return nil, err
	}
	c, err := r.freshCustomizations(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	override := sitestyle.Merge(c.overrides[siteSpaceID], doc)
	if err := sitestyle.ValidateValue(sitestyle.Settings, sitestyle.Merge(c.site, override)); err != nil {
		return nil, styleInvalid("", err)
	}
	raw, err := json.Marshal(override)
	if err != nil {
		return nil, err
	}
	row := &storage.SiteSpaceCustomization{SiteSpaceID: siteSpaceID, SiteID: site.ID, OrganizationID: site.OrganizationID, Settings: string(raw), UpdatedAt: r.Now()}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteCustomizationUpdated, site, "site-space", siteSpaceID, ""), nil)
	if err := r.Store.SaveSiteSpaceCustomization(ctx, row); err != nil {
		return nil, err
	}
	c.overrides[siteSpaceID] = override
	return siteSpaceCustomization(c, siteSpaceID)
}

// DeleteSiteSpaceCustomization removes a site space's overrides; it reports whether it had any.
// Errors: NotFound, Forbidden.
func (r *App) DeleteSiteSpaceCustomization(ctx context.Context, orgID, siteID, siteSpaceID string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	if err := r.siteSpaceOf(ctx, site.ID, siteSpaceID); err != nil {
		return false, err
	}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteCustomizationUpdated, site, "site-space", siteSpaceID, ""), map[string]any{"overrides": "removed"})
	return r.Store.DeleteSiteSpaceCustomization(ctx, site.ID, siteSpaceID)
}
