package rest

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"

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

// changesLimit reads the contract's limit on changes: digits, or absent. Errors: Invalid.
func changesLimit(r *http.Request) (*int, error) {
	v, present := r.URL.Query()["limit"]
	if !present {
		return nil, nil
	}
	n, err := strconv.Atoi(v[0])
	if err != nil || strings.TrimLeft(v[0], "0123456789") != "" {
		return nil, apperr.Invalidf("limit", "must be a whole number, written in digits")
	}
	return &n, nil
}

// getChangeRequestChanges is getChangeRequestChanges: what a change request changes over its
// space, page by page.
func (a *api) getChangeRequestChanges(w http.ResponseWriter, r *http.Request) (int, any, error) {
	limit, err := changesLimit(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.ChangeRequestChanges(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), limit))
}

// getRevisionSemanticChanges is getRevisionSemanticChanges: what a revision changed over its
// parent, page by page.
func (a *api) getRevisionSemanticChanges(w http.ResponseWriter, r *http.Request) (int, any, error) {
	limit, err := changesLimit(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.RevisionSemanticChanges(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "revisionId"), limit))
}

// getDocumentByID is getDocumentById: a document of the space's current content by its id.
func (a *api) getDocumentByID(w http.ResponseWriter, r *http.Request) (int, any, error) {
	doc, err := a.res.DocumentByID(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "documentId"))
	if err != nil {
		return 0, nil, err
	}
	// GitBook's schema: Bindery's own nodes in the contract's (GraphQL keeps them).
	return ok(document.Contract(*doc), nil)
}

// getComputedRevision is getComputedRevision: the pages a computed source makes.
func (a *api) getComputedRevision(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in domain.ComputedRevisionInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.ComputedRevision(r.Context(), chi.URLParam(r, "spaceId"), in))
}

// getComputedDocument is getComputedDocument: the document a computed source makes.
func (a *api) getComputedDocument(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in domain.ComputedDocumentInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	doc, err := a.res.ComputedDocument(r.Context(), chi.URLParam(r, "spaceId"), in)
	if err != nil {
		return 0, nil, err
	}
	return ok(document.Contract(*doc), nil)
}
