package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

// The space and collection permission routes: the same handlers over either kind of content.

func (a *api) grantSpaceAccess(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.GrantAccessInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.GrantSpaceAccess(r.Context(), chi.URLParam(r, "spaceId"), in))
}

func (a *api) grantCollectionAccess(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.GrantAccessInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.GrantCollectionAccess(r.Context(), chi.URLParam(r, "collectionId"), in))
}

func (a *api) listSpaceUsers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.space, func(s *model.Space, first *int, after *string) (*model.UserGrantConnection, error) {
		return a.res.UserGrants(r.Context(), s.ID, first, after)
	})
}

func (a *api) listSpaceTeams(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.space, func(s *model.Space, first *int, after *string) (*model.TeamGrantConnection, error) {
		return a.res.TeamGrants(r.Context(), s.ID, s.Organization, first, after)
	})
}

func (a *api) listCollectionUsers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.collection, func(c *model.Collection, first *int, after *string) (*model.UserGrantConnection, error) {
		return a.res.UserGrants(r.Context(), c.ID, first, after)
	})
}

func (a *api) listCollectionTeams(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.collection, func(c *model.Collection, first *int, after *string) (*model.TeamGrantConnection, error) {
		return a.res.TeamGrants(r.Context(), c.ID, c.Organization, first, after)
	})
}

// grantRef reads which grant a route names: the space's or else the collection's, the user's or
// else the team's, from the route's own path parameters.
func grantRef(r *http.Request) domain.GrantRef {
	ref := domain.GrantRef{Target: domain.GrantOnSpace, ID: chi.URLParam(r, "spaceId"), Principal: domain.GrantToUser, PrincipalID: chi.URLParam(r, "userId")}
	if ref.ID == "" {
		ref.Target, ref.ID = domain.GrantOnCollection, chi.URLParam(r, "collectionId")
	}
	if ref.PrincipalID == "" {
		ref.Principal, ref.PrincipalID = domain.GrantToTeam, chi.URLParam(r, "teamId")
	}
	return ref
}

// updateGrant and removeGrant serve the four PATCH and four DELETE routes.
func (a *api) updateGrant(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateGrantInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.UpdateGrant(r.Context(), grantRef(r), in))
}

func (a *api) removeGrant(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.RemoveGrant(r.Context(), grantRef(r)))
}
