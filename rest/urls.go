package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/document"
)

// The contract's URL look-ups this server answers.
func (a *api) urlRoutes() []Route {
	return []Route{
		{"GET", "/urls/content", a.getContentByURL},
		{"GET", "/urls/embed", a.getEmbedByURL},
	}
}

func (a *api) getContentByURL(w http.ResponseWriter, r *http.Request) (int, any, error) {
	c, err := a.res.ContentByURL(r.Context(), r.URL.Query().Get("url"))
	if err != nil {
		return 0, nil, err
	}
	if c.Page != nil && c.Page.Document != nil {
		doc := document.Contract(*c.Page.Document)
		c.Page.Document = &doc
	}
	return ok(c, nil)
}

func (a *api) getEmbedByURL(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.EmbedByURL(r.Context(), r.URL.Query().Get("url")))
}
