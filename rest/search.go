package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// searchInput reads a search's query and page from the URL; the graph validates query (required).
func searchInput(r *http.Request) (model.SearchInput, error) {
	first, after, err := listArgs(r)
	return model.SearchInput{Query: r.URL.Query().Get("query"), First: first, After: after}, err
}

// searchSpace answers GET /spaces/{spaceId}/search.
func (a *api) searchSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	in, err := searchInput(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.SearchSpace(r.Context(), chi.URLParam(r, "spaceId"), in)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(&c.Connection), nil)
}

// searchOrganization answers GET /orgs/{organizationId}/search.
func (a *api) searchOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	in, err := searchInput(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.SearchOrganization(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(&c.Connection), nil)
}
