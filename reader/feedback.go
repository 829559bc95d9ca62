package reader

import (
	"net"
	"net/http"
	"net/url"

	"github.com/bindery/bindery/domain"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// serveFeedback takes a page's "Was this page helpful?" form (a plain form post: it works
// without the script) and sends the visitor back to the page, where its thanks show
// (#feedback-thanks). The rating feeds the site's insights; nothing about the visitor is kept
// (docs/sites.md, "Insights"), and a visitor asking not to be tracked is not linked to their
// other ratings.
func (h *Handler) serveFeedback(w http.ResponseWriter, req *http.Request) {
	req.Body = http.MaxBytesReader(w, req.Body, 8<<10)
	if err := req.ParseForm(); err != nil {
		h.errorPage(w, req, http.StatusBadRequest, "Bad request", "The feedback form could not be read.")
		return
	}
	pageURL, rating := req.PostForm.Get("url"), req.PostForm.Get("rating")
	private := req.Header.Get("DNT") == "1" || req.Header.Get("Sec-GPC") == "1"
	client := domain.SiteVisitorClient{IP: middleware.GetClientIP(req.Context()), UserAgent: req.UserAgent()}
	if client.IP == "" {
		client.IP, _, _ = net.SplitHostPort(req.RemoteAddr)
	}
	err := h.app.RecordPageFeedback(req.Context(), chi.URLParam(req, "name"), visitor(req), pageURL, rating, client, private)
	switch {
	case err == nil:
		u, _ := url.Parse(pageURL)
		u.Fragment = "feedback-thanks"
		headers(w, false)
		http.Redirect(w, req, u.String(), http.StatusSeeOther)
	default:
		h.fail(w, req, err)
	}
}
