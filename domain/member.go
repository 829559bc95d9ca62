package domain

import (
	"context"
	"errors"
	"slices"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// MemberListArgs narrows and orders a list of members; every field is optional.
type MemberListArgs struct {
	Order  *model.ListOrder
	Role   *model.MemberRoleFilter
	Search *string
	Sort   *model.MemberSort
}

// Members lists an organization's members. Errors: Invalid, Forbidden.
func (r *App) Members(ctx context.Context, org *model.Organization, args MemberListArgs, first *int, after *string) (*model.MemberConnection, error) {
	order, role, search, sort := args.Order, args.Role, args.Search, args.Sort
	if err := authz.CanListMembers(org); err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	var f storage.MemberFilter
	if order != nil {
		if !order.IsValid() {
			return nil, apperr.Invalidf("order", `must be "asc" or "desc"`)
		}
		f.Ascending = *order == model.ListOrderAsc
	}
	if role != nil {
		if !role.IsValid() {
			return nil, apperr.Invalidf("role", "%q is not a role or guest", *role)
		}
		f.Role = (*string)(role)
	}
	if search != nil {
		if len(*search) > 512 {
			return nil, apperr.Invalidf("search", "must be at most 512 characters")
		}
		f.Search = *search
	}
	if sort != nil {
		if !sort.IsValid() {
			return nil, apperr.Invalidf("sort", `must be "joinedAt" or "lastSeenAt"`)
		}
		f.LastSeen = *sort == model.MemberSortLastSeenAt
	}
	list, err := r.Store.FindMembers(ctx, org.ID, f, page)
	if err != nil {
		return nil, err
	}
	c := connectionOf(list, r.toMember)
	return c, r.fillMemberCounts(ctx, org.ID, c.Nodes)
}

// MemberByID returns one member: any member may see themself, others need to list members.
// Errors: Forbidden, NotFound.
func (r *App) MemberByID(ctx context.Context, org *model.Organization, userID string) (*model.Member, error) {
	if err := canSeeMember(ctx, org, userID); err != nil {
		return nil, err
	}
	m, err := r.Store.FindMembership(ctx, org.ID, userID)
	if err != nil {
		return nil, notFound(err, "member")
	}
	out := r.toMember(m)
	return out, r.fillMemberCounts(ctx, org.ID, []*model.Member{out})
}

// adminOf loads an organization and requires the caller to administer it.
// Errors: Unauthenticated, NotFound, Forbidden.
func (r *App) adminOf(ctx context.Context, orgID string) (*model.Organization, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := authz.CanAdminister(org); err != nil {
		return nil, err
	}
	return org, nil
}

// UpdateMember changes a member's role. Errors: Invalid (also for demoting the last admin),
// NotFound, Forbidden.
func (r *App) UpdateMember(ctx context.Context, orgID, userID string, in model.UpdateMemberInput) (*model.Member, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if role, set := in.Role.ValueOK(); set {
		ctx := r.emit(ctx, memberEvent(EventMemberRoleUpdated, org.ID, userID), map[string]any{"role": roleString(role)})
		if err := r.Store.SetMemberRole(ctx, org.ID, userID, roleString(role)); err != nil {
			return nil, memberError(err)
		}
	}
	return r.MemberByID(ctx, org, userID)
}

// RemoveMember removes a member: admins remove anyone, members may leave. Removing someone who is
// not a member succeeds and reports false. Errors: NotFound, Forbidden, Invalid (last admin).
func (r *App) RemoveMember(ctx context.Context, orgID, userID string) (bool, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return false, err
	}
	if org.Viewer.ID != userID {
		if err := authz.CanAdminister(org); err != nil {
			return false, err
		}
	} else if err := authz.RequireUnlimited(ctx, "leaving the organization"); err != nil {
		return false, err
	}
	ctx = r.emit(ctx, memberEvent(EventMemberRemoved, org.ID, userID), nil)
	removed, err := r.Store.RemoveMember(ctx, org.ID, userID)
	return removed, memberError(err)
}

// SetMemberSSO marks a member as an SSO member. Errors: NotFound, Forbidden.
func (r *App) SetMemberSSO(ctx context.Context, orgID, userID string) (*model.Member, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := r.mayRequireSSO(ctx, org.ID, ""); err != nil {
		return nil, err
	}
	if err := r.Store.SetMemberSSO(r.emit(ctx, memberEvent(EventMemberSSOUpdated, org.ID, userID), map[string]any{"sso": true}), org.ID, userID); err != nil {
		return nil, memberError(err)
	}
	return r.MemberByID(ctx, org, userID)
}

// PingOrganization records the caller's activity. Errors: NotFound.
func (r *App) PingOrganization(ctx context.Context, orgID string) (*model.PingResult, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := authz.RequireUnlimited(ctx, "recording activity"); err != nil {
		return nil, err
	}
	if err := r.Store.TouchMember(ctx, org.ID, org.Viewer.ID, r.Now()); err != nil {
		return nil, err
	}
	return &model.PingResult{}, nil
}

func memberError(err error) error {
	switch {
	case errors.Is(err, storage.ErrLastAdmin):
		return apperr.Invalidf("", "an organization must keep at least one admin: promote another member first")
	case errors.Is(err, storage.ErrNotFound):
		return apperr.NotFoundf("member not found")
	}
	return err
}

// JoinOrganization makes the caller a member of an organization that allows their verified e-mail domain.
// Organizations that neither count the caller as a member nor allow their domain answer
// NotFound, so that ids cannot be probed. Errors: NotFound, Invalid (address not verified).
func (r *App) JoinOrganization(ctx context.Context, orgID string) (*model.Member, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if !actor.Limit.InOrganization(orgID) {
		return nil, apperr.NotFoundf("organization not found")
	}
	if err := authz.RequireUnlimited(ctx, "joining an organization"); err != nil {
		return nil, err
	}
	if m, err := r.Store.FindMembership(ctx, orgID, actor.UserID); err == nil {
		return r.toMember(m), nil
	} else if !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	row, err := r.Store.FindOrganizationByID(ctx, orgID)
	if err != nil {
		return nil, notFound(err, "organization")
	}
	if !slices.Contains(row.EmailDomains, emailDomain(actor.Email)) {
		return nil, apperr.NotFoundf("organization not found")
	}
	if !actor.EmailVerified {
		return nil, apperr.Invalidf("", "your e-mail address %s is not verified, so its domain cannot be used to join", actor.Email)
	}
	return r.addMember(ctx, orgID, actor.UserID, row.DefaultRole)
}

// addMember adds the caller (keeping an existing membership as it is) and returns the membership.
func (r *App) addMember(ctx context.Context, orgID, userID string, role *string) (*model.Member, error) {
	ctx = r.emit(ctx, memberEvent(EventMemberJoined, orgID, userID), map[string]any{"role": role})
	if _, err := r.Store.AddMember(ctx, orgID, userID, role, r.Now()); err != nil {
		return nil, err
	}
	m, err := r.Store.FindMembership(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	out := r.toMember(m)
	return out, r.fillMemberCounts(ctx, orgID, []*model.Member{out})
}
