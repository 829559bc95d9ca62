package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// An organization's SAML identity providers (admins; docs/accounts.md).

func (a *api) listSAMLProviders(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.SAMLProviders(r.Context(), chi.URLParam(r, "organizationId"), first, after)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, envelope(c), nil
}

func (a *api) createSAMLProvider(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SAMLProviderInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	p, err := a.res.CreateSAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, p.URLs.Location, p, nil)
}

func (a *api) getSAMLProvider(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.SAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "samlProviderId")))
}

func (a *api) updateSAMLProvider(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SAMLProviderInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateSAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "samlProviderId"), in))
}

func (a *api) deleteSAMLProvider(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return deleted(a.res.DeleteSAMLProvider(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "samlProviderId")))
}
