package rest

import (
	"net/http"

	"github.com/bindery/bindery/graph/model"
	"github.com/go-chi/chi/v5"
)

func (a *api) listMembers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.MemberConnection, error) {
		return a.res.Organization().Members(r.Context(), org, first, after,
			optionalQuery[model.ListOrder](r, "order"),
			optionalQuery[model.MemberRoleFilter](r, "role"),
			optionalQuery[string](r, "search"),
			optionalQuery[model.MemberSort](r, "sort"))
	})
}

func (a *api) getMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, err := a.organization(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.Organization().Member(r.Context(), org, chi.URLParam(r, "userId")))
}

func (a *api) updateMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateMemberInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.Mutation().UpdateMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"), in))
}

func (a *api) removeMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.Mutation().RemoveMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId")))
}

func (a *api) setMemberSSO(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.Mutation().SetMemberSso(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId")))
}

func (a *api) ping(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.Mutation().PingOrganization(r.Context(), chi.URLParam(r, "organizationId")))
}

func (a *api) inviteUsers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.InviteUsersInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.Mutation().InviteUsersToOrganization(r.Context(), chi.URLParam(r, "organizationId"), in))
}

func (a *api) joinWithInvite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.Mutation().JoinOrganizationWithInvite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId")))
}

func (a *api) listInviteLinks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.InviteLinkConnection, error) {
		return a.res.Organization().InviteLinkList(r.Context(), org, first, after, nil)
	})
}

func (a *api) createInviteLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateInviteLinkInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	link, err := a.res.Mutation().CreateInviteLink(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, link, nil
}

func (a *api) deleteInviteLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.Mutation().DeleteInviteLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId")))
}
