package rest

import (
	"net/http"

	"github.com/bindery/bindery/graph/model"
	"github.com/go-chi/chi/v5"
)

// The space and collection permission routes: the same handlers over either kind of content.

func (a *api) grantSpaceAccess(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.GrantAccessInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.Mutation().GrantSpaceAccess(r.Context(), chi.URLParam(r, "spaceId"), in))
}

func (a *api) grantCollectionAccess(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.GrantAccessInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.Mutation().GrantCollectionAccess(r.Context(), chi.URLParam(r, "collectionId"), in))
}

func (a *api) listSpaceUsers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.space, func(s *model.Space, first *int, after *string) (*model.UserGrantConnection, error) {
		return a.res.Space().UserPermissions(r.Context(), s, first, after)
	})
}

func (a *api) listSpaceTeams(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.space, func(s *model.Space, first *int, after *string) (*model.TeamGrantConnection, error) {
		return a.res.Space().TeamPermissions(r.Context(), s, first, after)
	})
}

func (a *api) listCollectionUsers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.collection, func(c *model.Collection, first *int, after *string) (*model.UserGrantConnection, error) {
		return a.res.Collection().UserPermissions(r.Context(), c, first, after)
	})
}

func (a *api) listCollectionTeams(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.collection, func(c *model.Collection, first *int, after *string) (*model.TeamGrantConnection, error) {
		return a.res.Collection().TeamPermissions(r.Context(), c, first, after)
	})
}

// updateGrant and removeGrant serve the four PATCH and four DELETE routes: which content and
// principal comes from the route's own path parameters.
func (a *api) updateGrant(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateGrantInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	m, ctx := a.res.Mutation(), r.Context()
	space, collection, user, team := chi.URLParam(r, "spaceId"), chi.URLParam(r, "collectionId"), chi.URLParam(r, "userId"), chi.URLParam(r, "teamId")
	switch {
	case space != "" && user != "":
		return noContent(m.UpdateSpaceUserPermission(ctx, space, user, in))
	case space != "":
		return noContent(m.UpdateSpaceTeamPermission(ctx, space, team, in))
	case user != "":
		return noContent(m.UpdateCollectionUserPermission(ctx, collection, user, in))
	default:
		return noContent(m.UpdateCollectionTeamPermission(ctx, collection, team, in))
	}
}

func (a *api) removeGrant(w http.ResponseWriter, r *http.Request) (int, any, error) {
	m, ctx := a.res.Mutation(), r.Context()
	space, collection, user, team := chi.URLParam(r, "spaceId"), chi.URLParam(r, "collectionId"), chi.URLParam(r, "userId"), chi.URLParam(r, "teamId")
	switch {
	case space != "" && user != "":
		return noContent(m.RemoveSpaceUserPermission(ctx, space, user))
	case space != "":
		return noContent(m.RemoveSpaceTeamPermission(ctx, space, team))
	case user != "":
		return noContent(m.RemoveCollectionUserPermission(ctx, collection, user))
	default:
		return noContent(m.RemoveCollectionTeamPermission(ctx, collection, team))
	}
}
