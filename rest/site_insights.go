package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5/middleware"
)

// The contract's site insights operations.
func (a *api) siteInsightsRoutes() []Route {
	return []Route{
		{"POST", "/orgs/{organizationId}/sites/{siteId}/insights/events", a.trackEventsInSite},
		{"POST", "/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate", a.aggregateSiteEvents},
	}
}

func (a *api) trackEventsInSite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.TrackSiteEventsInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	client := domain.SiteVisitorClient{IP: middleware.GetClientIP(r.Context()), UserAgent: r.UserAgent()}
	if err := a.res.TrackSiteEvents(r.Context(), org, site, in, client); err != nil {
		return 0, nil, err
	}
	return http.StatusNoContent, nil, nil
}

func (a *api) aggregateSiteEvents(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SiteInsightsAggregation
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.AggregateSiteEvents(r.Context(), org, site, in))
}
