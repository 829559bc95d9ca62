package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// The contract's site MCP servers (organization admins).
func (a *api) siteMcpServerRoutes() []Route {
	base := "/orgs/{organizationId}/sites/{siteId}/mcp-servers"
	return []Route{
		{"GET", base, a.listSiteMcpServers},
		{"POST", base, a.createSiteMcpServer},
		{"GET", base + "/{siteMcpServerId}", a.getSiteMcpServerById},
		{"PATCH", base + "/{siteMcpServerId}", a.updateSiteMcpServerById},
		{"DELETE", base + "/{siteMcpServerId}", a.deleteSiteMcpServerById},
	}
}

func (a *api) listSiteMcpServers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return nestedList(r, func(*http.Request) (string, error) { return site, nil }, func(site string, first *int, after *string) (*model.SiteMcpServerConnection, error) {
		return a.res.SiteMcpServers(r.Context(), org, site, first, after)
	})
}

func (a *api) createSiteMcpServer(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SiteMcpServerInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	srv, err := a.res.CreateSiteMcpServer(r.Context(), org, site, in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, srv.URLs.Location, srv, nil)
}

func (a *api) getSiteMcpServerById(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return ok(a.res.SiteMcpServer(r.Context(), org, site, chi.URLParam(r, "siteMcpServerId")))
}

func (a *api) updateSiteMcpServerById(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SiteMcpServerInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	org, site := orgSite(r)
	return ok(a.res.UpdateSiteMcpServer(r.Context(), org, site, chi.URLParam(r, "siteMcpServerId"), in))
}

func (a *api) deleteSiteMcpServerById(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, site := orgSite(r)
	return deleted(a.res.DeleteSiteMcpServer(r.Context(), org, site, chi.URLParam(r, "siteMcpServerId")))
}
