package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// openAPIRoutes are the OpenAPI specifications and their versions (docs/openapi.md).
func (a *api) openAPIRoutes() []Route {
	const spec = "/orgs/{organizationId}/openapi/{specSlug}"
	return []Route{
		{"GET", "/orgs/{organizationId}/openapi", a.listOpenAPISpecs},
		{"POST", "/orgs/{organizationId}/openapi", a.createOpenAPISpec},
		{"GET", spec, a.getOpenAPISpec},
		{"PUT", spec, a.putOpenAPISpec},
		{"GET", spec + "/versions", a.listOpenAPISpecVersions},
		{"GET", spec + "/versions/latest", a.getOpenAPISpecVersion},
		{"GET", spec + "/versions/latest/content", a.getOpenAPISpecVersionContent},
		{"GET", spec + "/versions/{versionId}", a.getOpenAPISpecVersion},
		{"GET", spec + "/versions/{versionId}/content", a.getOpenAPISpecVersionContent},
	}
}

func (a *api) listOpenAPISpecs(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	c, err := a.res.OpenAPISpecs(r.Context(), chi.URLParam(r, "organizationId"), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(c), nil)
}

func (a *api) createOpenAPISpec(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateOpenAPISpecInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spec, err := a.res.CreateOpenAPISpec(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, spec, nil
}

func (a *api) openAPISpec(r *http.Request) (*model.OpenAPISpec, error) {
	return a.res.OpenAPISpecBySlug(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "specSlug"))
}

func (a *api) getOpenAPISpec(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.openAPISpec(r))
}

func (a *api) putOpenAPISpec(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.PutOpenAPISpecInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	spec, created, err := a.res.PutOpenAPISpec(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "specSlug"), in)
	if err != nil {
		return 0, nil, err
	}
	if created {
		return http.StatusCreated, spec, nil
	}
	return http.StatusOK, spec, nil
}

func (a *api) listOpenAPISpecVersions(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.openAPISpec, func(spec *model.OpenAPISpec, first *int, after *string) (*model.OpenAPISpecVersionConnection, error) {
		return a.res.OpenAPISpecVersions(r.Context(), spec, first, after)
	})
}

// versionID is the path's version id, "latest" on the …/latest routes.
func versionID(r *http.Request) string {
	if id := chi.URLParam(r, "versionId"); id != "" {
		return id
	}
	return "latest"
}

func (a *api) getOpenAPISpecVersion(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spec, err := a.openAPISpec(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.OpenAPISpecVersionByID(r.Context(), spec, versionID(r)))
}

func (a *api) getOpenAPISpecVersionContent(w http.ResponseWriter, r *http.Request) (int, any, error) {
	spec, err := a.openAPISpec(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.OpenAPISpecVersionContent(r.Context(), spec, versionID(r)))
}
