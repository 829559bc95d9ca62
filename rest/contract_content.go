package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// listOrganizationChangeRequests is listChangeRequestsForOrganization: the change requests of the
// organization's spaces that the caller reads, with a space list's filters.
func (a *api) listOrganizationChangeRequests(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	list, err := a.res.OrganizationChangeRequests(r.Context(), chi.URLParam(r, "organizationId"), changeRequestFilterOf(r), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

// changeRequestFilterOf reads the contract's change request list filters from the query.
func changeRequestFilterOf(r *http.Request) model.ChangeRequestFilter {
	return model.ChangeRequestFilter{
		Status: optionalQuery[model.ChangeRequestStatus](r, "status"), Creator: optionalQuery[string](r, "creator"),
		Contributor: optionalQuery[string](r, "contributor"), RequestedReviewer: optionalQuery[string](r, "requestedReviewer"),
		ConversationsIssuesCluster: optionalQuery[string](r, "conversationsIssuesCluster"),
	}
}

// getChangeRequestContributors is getContributorsByChangeRequestId: the contract's
// List<ChangeRequestUserContributor>, one page (the operation takes no paging parameters).
func (a *api) getChangeRequestContributors(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if err := singlePageArgs(r); err != nil {
		return 0, nil, err
	}
	list, err := a.res.ChangeRequestContributorsByID(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
	if err != nil {
		return 0, nil, err
	}
	return ok(listEnvelope[*model.ChangeRequestContributor]{Items: list, Count: len(list)}, nil)
}
