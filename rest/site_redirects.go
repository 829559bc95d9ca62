package rest

import (
	"fmt"

	"net/http"

	"github.com/bindery/bindery/domain/apperr"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// The contract's site redirects.
func (a *api) siteRedirectRoutes() []Route {
	site := "/orgs/{organizationId}/sites/{siteId}"
	return []Route{
		{"GET", site + "/redirects", a.listSiteRedirects},
		{"POST", site + "/redirects", a.createSiteRedirect},
		{"PUT", site + "/redirects", a.bulkUpsertSiteRedirects},
		{"PATCH", site + "/redirects/{siteRedirectId}", a.updateSiteRedirect},
		{"DELETE", site + "/redirects/{siteRedirectId}", a.deleteSiteRedirect},
		{"GET", site + "/redirect", a.getSiteRedirectBySource},
	}
}

func (a *api) listSiteRedirects(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.site, func(s *model.Site, first *int, after *string) (*model.SiteRedirectConnection, error) {
		return a.res.SiteRedirects(r.Context(), s, optionalQuery[string](r, "search"), first, after)
	})
}

func (a *api) createSiteRedirect(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SiteRedirectInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	red, err := a.res.CreateSiteRedirect(r.Context(), org, site, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, a.res.Settings.PublicURL+"/v1/orgs/"+org+"/sites/"+site+"/redirects/"+red.ID, red, nil)
}

func (a *api) updateSiteRedirect(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SiteRedirectInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.UpdateSiteRedirect(r.Context(), org, site, chi.URLParam(r, "siteRedirectId"), in))
}

func (a *api) deleteSiteRedirect(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return deleted(a.res.DeleteSiteRedirect(r.Context(), org, site, chi.URLParam(r, "siteRedirectId")))
}

func (a *api) getSiteRedirectBySource(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.SiteRedirectBySource(r.Context(), org, site, r.URL.Query().Get("source"), optionalQuery[string](r, "shareKey")))
}

// bulkUpsertSiteRedirects is @gitbook/api 0.202.0's bulk operation: each item's outcome in the
// answer, 200 whatever they are.
func (a *api) bulkUpsertSiteRedirects(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SiteRedirectBulkInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	// The contract requires each item's destination (null deletes); GraphQL takes a missing one
	// as null.
	for i, it := range in.Redirects {
		if it != nil && len(it.Destination) == 0 && (it.Intent == nil || *it.Intent != "publish") {
			return 0, nil, apperr.Invalidf(fmt.Sprintf("redirects[%d].destination", i), "is required (null deletes the redirect)")
		}
	}
	org, site := orgSite(r)
	return ok(a.res.BulkUpsertSiteRedirects(r.Context(), org, site, in))
}
