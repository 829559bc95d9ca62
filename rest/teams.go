package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

func (a *api) createTeam(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateTeamInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	t, err := a.res.CreateTeam(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, t, nil
}

func (a *api) listTeams(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.TeamConnection, error) {
		return a.res.Teams(r.Context(), org, domain.TeamListArgs{Title: optionalQuery[string](r, "title"), Owner: optionalQuery[string](r, "owner")}, first, after)
	})
}

func (a *api) team(r *http.Request) (*model.Team, error) {
	org, err := a.organization(r)
	if err != nil {
		return nil, err
	}
	return a.res.TeamByID(r.Context(), org.ID, chi.URLParam(r, "teamId"))
}

func (a *api) getTeam(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.team(r))
}

func (a *api) updateTeam(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateTeamInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateTeam(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"), in))
}

func (a *api) deleteTeam(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteTeam(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId")))
}

func (a *api) listTeamMembers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.team, func(t *model.Team, first *int, after *string) (*model.TeamMemberConnection, error) {
		return a.res.TeamMembers(r.Context(), t, first, after)
	})
}

func (a *api) updateTeamMembers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateTeamMembersInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.UpdateTeamMembers(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"), in))
}

func (a *api) setTeamMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.SetTeamMemberInput
	if err := decodeOptionalBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return noContent(a.res.SetTeamMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"), chi.URLParam(r, "userId"), in))
}

func (a *api) removeTeamMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.RemoveTeamMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "teamId"), chi.URLParam(r, "userId")))
}

func (a *api) pathMember(r *http.Request) (*model.Member, error) {
	org, err := a.organization(r)
	if err != nil {
		return nil, err
	}
	return a.res.MemberByID(r.Context(), org, chi.URLParam(r, "userId"))
}

func (a *api) listMemberTeams(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.pathMember, func(m *model.Member, first *int, after *string) (*model.MemberTeamConnection, error) {
		return a.res.MemberTeams(r.Context(), m, first, after, optionalQuery[string](r, "title"))
	})
}

func (a *api) listMemberSpaces(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedOrderedList(r, true, a.pathMember, func(m *model.Member, first *int, after *string, order *model.ListOrder) (*model.MemberSpaceConnection, error) {
		return a.res.MemberSpaces(r.Context(), m, first, after, order)
	})
}
