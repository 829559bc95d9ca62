package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
)

// The contract's visitor authentication settings of a site.
func (a *api) sitePublishingAuthRoutes() []Route {
	auth := "/orgs/{organizationId}/sites/{siteId}/publishing/auth"
	return []Route{
		{"GET", auth, a.getSitePublishingAuth},
		{"PATCH", auth, a.updateSitePublishingAuth},
		{"POST", auth + "/regenerate", a.regenerateSitePublishingAuth},
	}
}

func (a *api) getSitePublishingAuth(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.SitePublishingAuth(r.Context(), org, site))
}

func (a *api) updateSitePublishingAuth(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SitePublishingAuthUpdate
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.UpdateSitePublishingAuth(r.Context(), org, site, in))
}

func (a *api) regenerateSitePublishingAuth(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.RegenerateSitePublishingAuth(r.Context(), org, site))
}
