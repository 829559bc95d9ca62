package rest

import (
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
)

func (a *api) listMembers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedOrderedList(r, true, a.organization, func(org *model.Organization, first *int, after *string, order *model.ListOrder) (*model.MemberConnection, error) {
		return a.res.Members(r.Context(), org, domain.MemberListArgs{
			Order:  order,
			Role:   optionalQuery[model.MemberRoleFilter](r, "role"),
			Search: optionalQuery[string](r, "search"),
			Sort:   optionalQuery[model.MemberSort](r, "sort"),
		}, first, after)
	})
}

func (a *api) getMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	org, err := a.organization(r)
	if err != nil {
		return 0, nil, err
	}
	return ok(a.res.MemberByID(r.Context(), org, chi.URLParam(r, "userId")))
}

func (a *api) updateMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.UpdateMemberInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.UpdateMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId"), in))
}

func (a *api) removeMember(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.RemoveMember(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId")))
}

func (a *api) setMemberSSO(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.SetMemberSSO(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "userId")))
}

func (a *api) listSSOProviderLogins(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.SSOProviderLogins(r.Context(), chi.URLParam(r, "organizationId")))
}

func (a *api) ping(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.PingOrganization(r.Context(), chi.URLParam(r, "organizationId")))
}

func (a *api) inviteUsers(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.InviteUsersInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	return ok(a.res.InviteUsers(r.Context(), chi.URLParam(r, "organizationId"), in))
}

func (a *api) joinWithInvite(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return ok(a.res.JoinOrganizationWithInvite(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId")))
}

func (a *api) listInviteLinks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return nestedList(r, a.organization, func(org *model.Organization, first *int, after *string) (*model.InviteLinkConnection, error) {
		return a.res.InviteLinks(r.Context(), org, first, after, nil)
	})
}

func (a *api) createInviteLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	var in model.CreateInviteLinkInput
	if err := decodeBody(w, r, &in); err != nil {
		return 0, nil, err
	}
	link, err := a.res.CreateInviteLink(r.Context(), chi.URLParam(r, "organizationId"), in)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusCreated, link, nil
}

func (a *api) deleteInviteLink(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.DeleteInviteLink(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "inviteId")))
}
