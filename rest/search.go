package rest

import (
	"net/http"

	"github.com/bindery/bindery/graph/model"
)

// searchSpace answers GET /spaces/{spaceId}/search: the resolver validates query (required).
func (a *api) searchSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.space, func(sp *model.Space, first *int, after *string) (*model.SearchPageResultConnection, error) {
		return a.res.SearchSpace(r.Context(), sp.ID, r.URL.Query().Get("query"), first, after)
	})
}

// searchOrganization answers GET /orgs/{organizationId}/search.
func (a *api) searchOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.SearchSpaceResultConnection, error) {
		return a.res.SearchOrganization(r.Context(), org.ID, r.URL.Query().Get("query"), first, after)
	})
}
