package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// reusableContent answers one reusable content of the content (getReusableContentById and its
// change-request and revision forms).
func (c contentReader) reusableContent(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := c.open(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(c.res.ReusableContentByID(r.Context(), src, chi.URLParam(r, "reusableContentId")))
}

// reusableContentDocument answers a reusable content of a revision as a bare document, in
// GitBook's schema (getReusableContentDocumentInRevisionById).
func (a *api) reusableContentDocument(w http.ResponseWriter, r *http.Request) (int, any, error) {
	src, err := a.revisionContent(r)
	if err != nil {
		return 0, nil, err
	}
	rc, err := a.res.ReusableContentByID(r.Context(), src, chi.URLParam(r, "reusableContentId"))
	if err != nil {
		return 0, nil, err
	}
	doc, err := a.res.ReusableContentDocument(r.Context(), src, rc, model.Evaluation(r.URL.Query().Get("evaluated")))
	if err != nil {
		return 0, nil, err
	}
	return ok(document.Contract(doc), nil)
}
