package reader

import (
	"net"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// servePageView is the reader's beacon (docs/sites.md, "Insights"): the script asks for it, as
// an image of the site's own origin (the pages' content security policy allows nothing else),
// once a page is shown; crawlers, which run no script, are not counted. A visitor asking not to
// be tracked (Do Not Track, Global Privacy Control) is not counted at all: the script does not
// ask, and the server drops what comes anyway. Nothing about the visitor is kept.
func (h *Handler) servePageView(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if req.Header.Get("DNT") == "1" || req.Header.Get("Sec-GPC") == "1" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	q := req.URL.Query()
	client := domain.SiteVisitorClient{IP: middleware.GetClientIP(req.Context()), UserAgent: req.UserAgent()}
	if client.IP == "" {
		client.IP, _, _ = net.SplitHostPort(req.RemoteAddr)
	}
	// A site whose insights are off keeps nothing (the page asked for no beacon anyway).
	err := h.app.RecordPageView(req.Context(), chi.URLParam(req, "name"), visitor(req), q.Get("u"), q.Get("r"), client)
	switch {
	case err == nil:
		w.WriteHeader(http.StatusNoContent)
	default:
		h.fail(w, req, err)
	}
}
