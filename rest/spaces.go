package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// created answers 201 with the new resource and its API address in Location.
func created(w http.ResponseWriter, location string, body any, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	w.Header().Set("Location", location)
	return http.StatusCreated, body, nil
}

func (a *api) createSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateSpaceInput
	if err := decodeOptionalBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	s, err := a.res.CreateSpace(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, s.URLs.Location, s, nil)
}

func (a *api) listSpaces(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.SpaceConnection, error) {
		return a.res.OrganizationSpaces(r.Context(), org, first, after)
	})
}

func (a *api) space(r *http.Request) (*model.Space, error) {
	return a.res.SpaceByID(r.Context(), chi.URLParam(r, "spaceId"))
}

func (a *api) getSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.space(r))
}

func (a *api) updateSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateSpaceInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateSpace(r.Context(), chi.URLParam(r, "spaceId"), in))
}

func (a *api) deleteSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteSpace(r.Context(), chi.URLParam(r, "spaceId")))
}

func (a *api) restoreSpace(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.RestoreSpace(r.Context(), chi.URLParam(r, "spaceId")))
}

func (a *api) createCollection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateCollectionInput
	if err := decodeOptionalBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	c, err := a.res.CreateCollection(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return created(w, c.URLs.Location, c, nil)
}

func (a *api) listCollections(w http.ResponseWriter, r *http.Request) (int, any, error) {
	nested, err := boolQuery(r, "nested")
	if err != nil {
		return 0, nil, err
	}
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.CollectionConnection, error) {
		return a.res.OrganizationCollections(r.Context(), org, first, after, nested)
	})
}

func (a *api) collection(r *http.Request) (*model.Collection, error) {
	return a.res.CollectionByID(r.Context(), chi.URLParam(r, "collectionId"))
}

func (a *api) getCollection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.collection(r))
}

func (a *api) updateCollection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateCollectionInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateCollection(r.Context(), chi.URLParam(r, "collectionId"), in))
}

func (a *api) deleteCollection(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteCollection(r.Context(), chi.URLParam(r, "collectionId")))
}

func (a *api) listCollectionSpaces(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.collection, func(c *model.Collection, first *int, after *string) (*model.SpaceConnection, error) {
		return a.res.CollectionSpaces(r.Context(), c, first, after)
	})
}
