package reader

import (
	"encoding/json"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
)

// notFoundPage answers a path of a site that shows nothing, when no redirect covers it: a 404
// in the site's own chrome (header, sections, the search box) with, where the path falls under a
// site space, that site space's navigation, so a visitor finds their way from a dead link.
func (h *Handler) notFoundPage(w http.ResponseWriter, req *http.Request, ps *domain.PublishedSite, path string) {
	ctx := req.Context()
	siteStyle, err := h.app.PublishedCustomization(ctx, ps)
	if err != nil {
		h.fail(w, req, err)
		return
	}
	siteSpaceID, spaceStyle := "", siteStyle
	var sidebar []*model.PublishedPageRef
	if loc := h.app.PublishedAt(ps, path); loc != nil {
		siteSpaceID = loc.SiteSpace.ID
		if spaceStyle, err = h.app.PublishedSiteSpaceCustomization(ctx, loc.SiteSpace); err == nil {
			sidebar, err = h.app.PublishedSidebar(ctx, loc)
		}
		if err != nil {
			h.fail(w, req, err)
			return
		}
	}
	v := h.chrome(req, ps, siteStyle, siteSpaceID)
	v.withStyle(styleOf(json.RawMessage(spaceStyle)))
	v.Title = "Page not found | " + v.Site.Title
	v.Robots = "noindex"
	v.Sidebar = sidebarTree(sidebar, "", ps.URL)
	headers(w, false)
	allowStyle(w, v.Style)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	h.render(w, req, "notfound.html", v)
}
