package rest

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/bindery/bindery/domain"
	"github.com/go-chi/chi/v5"
)

// siteHosts serves a site at its own host name (docs/sites.md): a request whose Host is a site's
// active host name is the site's, at the root of that host (the reader's own assets keep their
// /sites/ paths). Any other host reaches the server as it is.
func siteHosts(res *domain.App) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/sites/") {
				next.ServeHTTP(w, r)
				return
			}
			siteID, err := res.SiteForHost(r.Context(), r.Host)
			if errors.Is(err, domain.ErrSiteHostInactive) {
				writeError(w, r, err)
				return
			}
			if err != nil {
				slog.ErrorContext(r.Context(), "site host lookup failed", "host", r.Host, "err", err)
			}
			if siteID == "" {
				next.ServeHTTP(w, r)
				return
			}
			ctx := domain.AtSiteHost(r.Context(), r.URL.Path)
			r = r.WithContext(ctx)
			r.URL.Path = "/sites/" + siteID + r.URL.Path
			r.URL.RawPath = ""
			next.ServeHTTP(w, r)
		})
	}
}

// The contract's custom host names (a site's is set through GraphQL's setSiteHostname).
func (a *api) customHostnameRoutes() []Route {
	return []Route{
		{"GET", "/custom-hostnames/{hostname}", a.getCustomHostname},
		{"PATCH", "/custom-hostnames/{hostname}", a.dnsRevalidateCustomHostname},
		{"DELETE", "/custom-hostnames/{hostname}", a.removeCustomHostname},
	}
}

func (a *api) getCustomHostname(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.CustomHostname(r.Context(), chi.URLParam(r, "hostname")))
}

// dnsRevalidateCustomHostname checks the DNS again and answers 204; the result shows on GET.
func (a *api) dnsRevalidateCustomHostname(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.RevalidateCustomHostname(r.Context(), chi.URLParam(r, "hostname")))
}

func (a *api) removeCustomHostname(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return deleted(a.res.RemoveCustomHostname(r.Context(), chi.URLParam(r, "hostname")))
}
