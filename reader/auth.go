package reader

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"
)

// signInElsewhere sends a visitor without a valid token to the site's fallback URL (its own
// sign-in), with the page they asked for as location, and reports whether it did: a site
// without one answers 401.
func (h *Handler) signInElsewhere(w http.ResponseWriter, req *http.Request) bool {
	fallback, err := h.app.PublishedSiteFallback(req.Context(), chi.URLParam(req, "name"))
	if err != nil || fallback == nil {
		return false
	}
	u, err := url.Parse(*fallback)
	if err != nil {
		return false
	}
	q := u.Query()
	q.Set("location", "/"+requestPath(req))
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, req, u.String(), http.StatusFound)
	return true
}
