package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// api holds the /v1 handlers: each decodes, calls one domain method of the graph, encodes.
type api struct {
	res *domain.App
}

func (a *api) getAPIInformation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.APIInformation(), nil)
}

func (a *api) getAuthenticatedUser(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.Viewer(r.Context()))
}

func (a *api) getUserByID(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.UserByID(r.Context(), chi.URLParam(r, "userId")))
}

func (a *api) listOrganizations(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.Organizations(r.Context(), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(c), nil)
}

func (a *api) organization(r *http.Request) (*model.Organization, error) {
	return a.res.OrganizationByID(r.Context(), chi.URLParam(r, "organizationId"))
}

func (a *api) getOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.organization(r))
}

func (a *api) updateOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateOrganizationInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateOrganization(r.Context(), chi.URLParam(r, "organizationId"), in))
}

func (a *api) joinOrganization(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.JoinOrganization(r.Context(), chi.URLParam(r, "organizationId")))
}

func (a *api) getOrganizationsForEmailDomain(w http.ResponseWriter, r *http.Request) (int, any, error) {
	orgs, err := a.res.OrganizationsForEmailDomain(r.Context(), chi.URLParam(r, "emailDomain"))
	return ok(struct {
		Organizations []*model.Organization `json:"organizations"`
	}{orgs}, err)
}

func (a *api) getAgentInstructions(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, err := a.organization(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.AgentInstructions(r.Context(), org))
}

func (a *api) updateAgentInstructions(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateAgentInstructionsInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateAgentInstructions(r.Context(), chi.URLParam(r, "organizationId"), in))
}
