package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// integrationRoutes are the integration catalogue, installations and the space reads
// (docs/integrations.md).
func (a *api) integrationRoutes() []Route {
	const inst = "/integrations/{integrationName}/installations/{installationId}"
	return []Route{
		{"POST", "/integrations/{integrationName}", a.publishIntegration},
		{"POST", "/integrations/{integrationName}/installations", a.installIntegration},
		{"POST", inst + "/spaces", a.installIntegrationOnSpace},
		{"POST", inst + "/tokens", a.createInstallationToken},
		{"GET", "/spaces/{spaceId}/integrations", a.listSpaceIntegrations},
		{"GET", "/spaces/{spaceId}/integration-blocks", a.listSpaceIntegrationBlocks},
	}
}

func (a *api) publishIntegration(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.PublishIntegrationInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.PublishIntegration(r.Context(), chi.URLParam(r, "integrationName"), in))
}

func (a *api) installIntegration(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.OrganizationTarget
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	inst, err := a.res.InstallIntegration(r.Context(), chi.URLParam(r, "integrationName"), in)
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", inst.URLs.Location)
	return http.StatusCreated, inst, nil
}

func (a *api) installIntegrationOnSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.InstallOnSpaceInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	si, err := a.res.InstallIntegrationOnSpace(r.Context(), chi.URLParam(r, "integrationName"), chi.URLParam(r, "installationId"), in)
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", si.URLs.Location)
	return http.StatusCreated, si, nil
}

func (a *api) createInstallationToken(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.CreateInstallationToken(r.Context(), chi.URLParam(r, "integrationName"), chi.URLParam(r, "installationId")))
}

// listSpaceIntegrations answers the contract's List<Integration>, one page: the operation takes
// no paging parameters (checked like every list's all the same).
func (a *api) listSpaceIntegrations(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if err := singlePageArgs(r); err != nil {
		return 0, nil, err
	}
	list, err := a.res.SpaceIntegrations(r.Context(), chi.URLParam(r, "spaceId"), optionalQuery[string](r, "search"))
	if err != nil {
		return 0, nil, err
	}
	return ok(listEnvelope[*model.Integration]{Items: list, Count: len(list)}, nil)
}

func (a *api) listSpaceIntegrationBlocks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.SpaceIntegrationBlocks(r.Context(), chi.URLParam(r, "spaceId")))
}
