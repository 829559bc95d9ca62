package graph

import (
	"context"
	"errors"

	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/authz"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/storage"
)

// inviteUsers invites addresses to an organization. Self-hosted Bindery sends no e-mail: an
// invited address becomes a member at once, with an unverified user created for it when needed
// (an admin issues its token with `bindery admin token create`). Errors: Invalid, NotFound,
// Forbidden.
func (r *Resolver) inviteUsers(ctx context.Context, orgID string, in model.InviteUsersInput) (*model.InviteUsersResult, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	invites := make([]storage.Invitation, len(in.Emails))
	for i, e := range in.Emails {
		invites[i] = storage.Invitation{Email: e.Email, Role: roleString(in.RoleOf(e))}
	}
	sso := in.SSO != nil && *in.SSO
	added, err := r.Store.InviteUsers(ctx, org.ID, invites, sso, r.Now())
	if err != nil {
		return nil, err
	}
	return &model.InviteUsersResult{Users: added, Invited: len(added)}, nil
}

// inviteLinks lists an organization's invite links. Errors: Invalid, Forbidden.
func (r *Resolver) inviteLinks(ctx context.Context, org *model.Organization, first *int, after *string) (*model.InviteLinkConnection, error) {
	if err := authz.CanAdminister(org); err != nil {
		return nil, err
	}
	page, err := pageOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindInviteLinks(ctx, org.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, toInviteLink), nil
}

// createInviteLink creates an invite link. Errors: Invalid (also when the organization has
// invite links turned off), NotFound, Forbidden.
func (r *Resolver) createInviteLink(ctx context.Context, orgID string, in model.CreateInviteLinkInput) (*model.InviteLink, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !org.InviteLinks {
		return nil, apperr.Invalidf("", "invite links are turned off for this organization (inviteLinks: false)")
	}
	link := &storage.InviteLink{OrganizationID: org.ID, Role: roleString(in.Role.Value()), CreatedBy: org.Viewer.ID, CreatedAt: r.Now()}
	if err := r.Store.CreateInviteLink(ctx, link); err != nil {
		return nil, err
	}
	saved, err := r.Store.FindInviteLink(ctx, org.ID, link.ID)
	if err != nil {
		return nil, err
	}
	return toInviteLink(saved), nil
}

// deleteInviteLink deletes an invite link; deleting a missing one succeeds and reports false.
// Errors: NotFound (organization), Forbidden.
func (r *Resolver) deleteInviteLink(ctx context.Context, orgID, inviteID string) (bool, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteInviteLink(ctx, org.ID, inviteID)
}

// joinWithInvite makes the caller a member through an invite link; holding the link's id is the
// permission. A current member keeps their role. Errors: NotFound, Invalid (links turned off).
func (r *Resolver) joinWithInvite(ctx context.Context, orgID, inviteID string) (*model.Member, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	link, err := r.Store.FindInviteLink(ctx, orgID, inviteID)
	if err != nil {
		return nil, notFound(err, "invite")
	}
	row, err := r.Store.FindOrganizationByID(ctx, link.OrganizationID)
	if err != nil {
		return nil, err
	}
	if !row.InviteLinks {
		return nil, apperr.Invalidf("", "invite links are turned off for this organization")
	}
	return r.addMember(ctx, orgID, actor.UserID, link.Role)
}

// agentInstructions returns the organization's agent instructions, an empty document when none
// were written. Errors: none beyond storage's.
func (r *Resolver) agentInstructions(ctx context.Context, org *model.Organization) (*model.AgentInstructions, error) {
	out := &model.AgentInstructions{
		Object:    "agent-instructions",
		URLs:      model.LocationURLs{Location: r.apiURL("/orgs/%s/agent-instructions", org.ID)},
		UpdatedAt: org.CreatedAt,
	}
	a, err := r.Store.FindAgentInstructions(ctx, org.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		out.Instructions = model.EmptyDocument()
	case err != nil:
		return nil, err
	default:
		out.Instructions, out.UpdatedAt, out.UpdatedBy = model.Document(a.Instructions), a.UpdatedAt, a.UpdatedBy
	}
	return out, nil
}

// updateAgentInstructions replaces the agent instructions. Errors: Invalid, NotFound, Forbidden.
func (r *Resolver) updateAgentInstructions(ctx context.Context, orgID string, in model.UpdateAgentInstructionsInput) (*model.AgentInstructions, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	a := &storage.AgentInstructions{OrganizationID: org.ID, Instructions: string(in.Instructions), UpdatedBy: org.Viewer.ID, UpdatedAt: r.Now()}
	if err := r.Store.SaveAgentInstructions(ctx, a); err != nil {
		return nil, err
	}
	return r.agentInstructions(ctx, org)
}
