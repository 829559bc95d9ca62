package reader

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"
)

// fallbackQuery reads where a visitor-auth site sends visitors without a valid token.
const fallbackQuery = `query ReaderFallback($name: String!) { publishedSiteFallback(name: $name) }`

// signInElsewhere sends a visitor without a valid token to the site's fallback URL (its own
// sign-in), with the page they asked for as location, and reports whether it did: a site
// without one answers 401.
func (h *Handler) signInElsewhere(w http.ResponseWriter, req *http.Request) bool {
	var res struct {
		Fallback *string `json:"publishedSiteFallback"`
	}
	if _, err := h.run(req.Context(), fallbackQuery, map[string]any{"name": chi.URLParam(req, "name")}, &res); err != nil || res.Fallback == nil {
		return false
	}
	u, err := url.Parse(*res.Fallback)
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
