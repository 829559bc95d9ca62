package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// The contract's site publishing, adaptive schema, customization and search operations.
func (a *api) sitePublishingRoutes() []Route {
	site := "/orgs/{organizationId}/sites/{siteId}"
	return []Route{
		{"POST", site + "/publish", a.publishSite},
		{"POST", site + "/unpublish", a.unpublishSite},
		{"GET", site + "/published", a.getPublishedContentSite},
		{"GET", site + "/publishing/preview", a.getSitePublishingPreview},
		{"POST", site + "/search", a.searchSiteContent},
		{"GET", site + "/adaptive-schema", a.getSiteAdaptiveSchema},
		{"PUT", site + "/adaptive-schema", a.updateSiteAdaptiveSchema},
		{"GET", site + "/adaptive-schema/template-conditions", a.listSiteAdaptiveTemplateConditions},
		{"GET", site + "/customization", a.getSiteCustomization},
		{"PUT", site + "/customization", a.updateSiteCustomization},
		{"GET", site + "/site-spaces/{siteSpaceId}/customization", a.getSiteSpaceCustomization},
		{"PATCH", site + "/site-spaces/{siteSpaceId}/customization", a.overrideSiteSpaceCustomization},
		{"DELETE", site + "/site-spaces/{siteSpaceId}/customization", a.deleteSiteSpaceCustomization},
	}
}

func orgSite(r *http.Request) (string, string) {
	return chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId")
}

func (a *api) publishSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.PublishSite(r.Context(), org, site))
}

func (a *api) unpublishSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.UnpublishSite(r.Context(), org, site))
}

func (a *api) getPublishedContentSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.PublishedContentSite(r.Context(), org, site, optionalQuery[string](r, "shareKey")))
}

// getSitePublishingPreview reads claims as the contract writes them: a Rison object.
func (a *api) getSitePublishingPreview(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var claims model.JSON
	if v := r.URL.Query().Get("claims"); v != "" {
		raw, err := risonToJSON(v)
		if err != nil {
			return 0, nil, apperr.Invalidf("claims", "must be a Rison object: %s", err)
		}
		claims = raw
	}
	org, site := orgSite(r)
	return ok(a.res.SitePublishingPreview(r.Context(), org, site, optionalQuery[string](r, "siteSpace"), claims))
}

func (a *api) searchSiteContent(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	var in model.SiteSearchInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	in.First, in.After = first, after
	org, site := orgSite(r)
	c, err := a.res.SearchSite(r.Context(), org, site, in)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(&c.Connection), nil)
}

func (a *api) getSiteAdaptiveSchema(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.SiteAdaptiveSchema(r.Context(), org, site))
}

func (a *api) updateSiteAdaptiveSchema(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var body struct {
		JSONSchema model.JSON `json:"jsonSchema"`
	}
	if err := decodeBody(w, r, &body); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.UpdateSiteAdaptiveSchema(r.Context(), org, site, body.JSONSchema))
}

func (a *api) listSiteAdaptiveTemplateConditions(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	items, err := a.res.SiteAdaptiveTemplateConditions(r.Context(), org, site)
	if err != nil {
		return 0, nil, err
	}
	return ok(map[string]any{"items": items}, nil)
}

func (a *api) getSiteCustomization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.SiteCustomization(r.Context(), org, site))
}

func (a *api) updateSiteCustomization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var body model.JSON
	if err := decodeBody(w, r, &body); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.UpdateSiteCustomization(r.Context(), org, site, body))
}

func (a *api) getSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.SiteSpaceCustomization(r.Context(), org, site, chi.URLParam(r, "siteSpaceId")))
}

func (a *api) overrideSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var body model.JSON
	if err := decodeBody(w, r, &body); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.OverrideSiteSpaceCustomization(r.Context(), org, site, chi.URLParam(r, "siteSpaceId"), body))
}

func (a *api) deleteSiteSpaceCustomization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return deleted(a.res.DeleteSiteSpaceCustomization(r.Context(), org, site, chi.URLParam(r, "siteSpaceId")))
}
