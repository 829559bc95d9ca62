package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
)

// The contract's URL look-ups this server answers.
func (a *api) urlRoutes() []Route {
	return []Route{
		{"GET", "/urls/content", a.getContentByURL},
		{"GET", "/urls/embed", a.getEmbedByURL},
		{"GET", "/urls/published", a.getPublishedContentByURL},
		{"POST", "/urls/published", a.resolvePublishedContentByURL},
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

// getPublishedContentByURL is the deprecated GET form of resolvePublishedContentByURL: the
// visitor's token in visitorAuthToken.
func (a *api) getPublishedContentByURL(w http.ResponseWriter, r *http.Request) (int, any, error) {
	redirect, err := boolQuery(r, "redirectOnError")
	if err != nil {
		return 0, nil, err
	}
	in := model.ResolvePublishedContentInput{URL: r.URL.Query().Get("url"), RedirectOnError: redirect}
	if t := r.URL.Query().Get("visitorAuthToken"); t != "" {
		in.Visitor = &model.SiteVisitorPayload{JwtToken: &t}
	}
	return ok(a.res.ResolvePublishedContentByURL(r.Context(), in))
}

func (a *api) resolvePublishedContentByURL(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.ResolvePublishedContentInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.ResolvePublishedContentByURL(r.Context(), in))
}
