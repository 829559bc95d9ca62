package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// The contract's translations and glossary groups; the rules live in domain/translation.go.

func (a *api) translationRoutes() []Route {
	return []Route{
		{"GET", "/orgs/{organizationId}/translations", a.listTranslations},
		{"POST", "/orgs/{organizationId}/translations", a.createTranslation},
		{"GET", "/orgs/{organizationId}/translations/{translationId}", a.getTranslation},
		{"PUT", "/orgs/{organizationId}/translations/{translationId}", a.updateTranslation},
		{"DELETE", "/orgs/{organizationId}/translations/{translationId}", a.deleteTranslation},
		{"POST", "/orgs/{organizationId}/translations/{translationId}/run", a.runTranslation},
		{"GET", "/orgs/{organizationId}/translations-glossary", a.listGlossaryEntries},
		{"PUT", "/orgs/{organizationId}/translations-glossary", a.updateGlossaryEntries},
		{"GET", "/orgs/{organizationId}/translations-glossary/{glossaryEntryId}", a.getGlossaryEntry},
	}
}

func (a *api) listTranslations(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.Translations(r.Context(), chi.URLParam(r, "organizationId"), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(c), nil)
}

// createTranslation answers 201 without a Location header, as the contract has it.
func (a *api) createTranslation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateTranslationInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	t, err := a.res.CreateTranslation(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, t, nil
}

func (a *api) getTranslation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.FindTranslation(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "translationId")))
}

func (a *api) updateTranslation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateTranslationInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateTranslation(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "translationId"), in))
}

func (a *api) deleteTranslation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteTranslation(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "translationId")))
}

func (a *api) runTranslation(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.RunTranslation(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "translationId")))
}

func (a *api) listGlossaryEntries(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.GlossaryEntries(r.Context(), chi.URLParam(r, "organizationId"), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(c), nil)
}

func (a *api) updateGlossaryEntries(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateGlossaryInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.UpdateGlossary(r.Context(), chi.URLParam(r, "organizationId"), in))
}

func (a *api) getGlossaryEntry(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.FindGlossaryEntry(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "glossaryEntryId")))
}
