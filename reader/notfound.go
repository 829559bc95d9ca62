package reader

import (
	"encoding/json"
	"net/http"
)

// notFoundPage answers a path of a site that shows nothing, when no redirect covers it: a 404
// in the site's own chrome (header, sections, the search box) with, where the path falls under a
// site space, that site space's navigation, so a visitor finds their way from a dead link.
func (h *Handler) notFoundPage(w http.ResponseWriter, req *http.Request, res *pageResult) {
	siteSpaceID, custom := "", json.RawMessage(res.Site.Customization)
	var sidebar []pageRef
	if at := res.Site.At; at != nil {
		siteSpaceID, sidebar = at.SiteSpace.ID, at.Sidebar
		if len(at.SiteSpace.Customization) > 0 {
			custom = at.SiteSpace.Customization
		}
	}
	v := h.chrome(req, res.Site.siteData, siteSpaceID)
	v.withStyle(styleOf(custom))
	v.Title = "Page not found | " + v.Site.Title
	v.Robots = "noindex"
	v.Sidebar = sidebarTree(sidebar, "", res.Site.URL)
	headers(w, false)
	allowStyle(w, v.Style)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	h.render(w, req, "notfound.html", v)
}
