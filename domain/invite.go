package domain

import (
	"context"
	"errors"
	"fmt"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// InviteUsers invites addresses to an organization. Self-hosted Bindery sends no e-mail: an
// invited address becomes a member at once, with an unverified user created for it when needed
// (an admin issues its token with `bindery admin token create`). Errors: Invalid, NotFound,
// Forbidden.
func (r *App) InviteUsers(ctx context.Context, orgID string, in model.InviteUsersInput) (*model.InviteUsersResult, error) {
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
	emails := make([]string, len(invites))
	for i, inv := range invites {
		emails[i] = inv.Email
	}
	ctx = r.emit(ctx, &storage.Event{Type: EventMemberInvited, OrganizationID: org.ID, TargetType: "organization", TargetID: org.ID, TargetLabel: org.Title}, map[string]any{"emails": emails, "sso": sso})
	added, err := r.Store.InviteUsers(ctx, org.ID, invites, sso, r.Now(), r.inviteMails(org.ID, org.Viewer.ID))
	if err != nil {
		return nil, err
	}
	return &model.InviteUsersResult{Users: added, Invited: len(added)}, nil
}

// InviteLinks lists an organization's invite links: to the organization, or (content) to its
// spaces and collections. Errors: Invalid, Forbidden.
func (r *App) InviteLinks(ctx context.Context, org *model.Organization, first *int, after *string, content *bool) (*model.InviteLinkConnection, error) {
	if err := authz.CanAdminister(org); err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindInviteLinks(ctx, org.ID, content != nil && *content, page)
	if err != nil {
		return nil, err
	}
	links, err := r.toInviteLinks(ctx, org.ID, list.Items)
	if err != nil {
		return nil, err
	}
	return model.NewConnection(links, list.Cursors, list.Total, list.HasMore), nil
}

// toInviteLinks converts links, embedding the spaces and collections they invite to, all loaded
// at once.
func (r *App) toInviteLinks(ctx context.Context, orgID string, rows []*storage.InviteLink) ([]*model.InviteLink, error) {
	acc, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	var spaceIDs []string
	for _, l := range rows {
		if l.TargetKind != nil && *l.TargetKind == storage.TargetSpace {
			spaceIDs = append(spaceIDs, *l.TargetID)
		}
	}
	spaces, err := r.Store.SpacesByIDs(ctx, spaceIDs)
	if err != nil {
		return nil, err
	}
	spaceByID := map[string]*storage.Space{}
	for _, s := range spaces {
		spaceByID[s.ID] = s
	}
	out := make([]*model.InviteLink, 0, len(rows))
	for _, l := range rows {
		link := &model.InviteLink{Object: "invite", ID: l.ID, Role: (*model.MemberRole)(l.Role), Redundant: l.Redundant, CreatedAt: l.CreatedAt}
		if l.TargetKind != nil {
			link.Role, link.Level = nil, (*model.MemberRole)(l.Role)
			switch *l.TargetKind {
			case storage.TargetSpace:
				s, ok := spaceByID[*l.TargetID]
				if !ok {
					continue // the space is in the trash: its links wait with it
				}
				link.Space = r.toSpace(s, acc.SpaceRole(spaceNode(s)))
			case storage.TargetCollection:
				c := findCollection(acc.collections, *l.TargetID)
				if c == nil {
					continue
				}
				link.Collection = r.toCollection(c, acc.CollectionRole(collectionNode(c)))
			}
		}
		out = append(out, link)
	}
	return out, nil
}

func findCollection(cs []*storage.Collection, id string) *storage.Collection {
	for _, c := range cs {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// CreateInviteLink creates an invite link: to the organization (organization admins), or to a
// space or collection (its admins). Errors: Invalid (also when the organization has invite links
// turned off, or the content is unknown), NotFound, Forbidden.
func (r *App) CreateInviteLink(ctx context.Context, orgID string, in model.CreateInviteLinkInput) (*model.InviteLink, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.OrganizationByID(ctx, orgID)
	if err != nil {
		return nil, err
	}
	link := &storage.InviteLink{OrganizationID: org.ID, CreatedBy: org.Viewer.ID, CreatedAt: r.Now()}
	if kind, id := in.Target(); kind == "" {
		if err := authz.CanAdminister(org); err != nil {
			return nil, err
		}
		link.Role = roleString(in.Role.Value())
	} else {
		c, err := r.administeredContent(ctx, kind, id)
		if apperr.KindOf(err) == apperr.NotFound || (err == nil && c.orgID != org.ID) {
			return nil, apperr.Invalidf(kind, "%s %q not found in this organization", kind, id)
		}
		if err != nil {
			return nil, err
		}
		link.Role, link.TargetKind, link.TargetID = roleString(in.Level.Value()), &kind, &id
	}
	if !org.InviteLinks {
		return nil, apperr.Invalidf("", "invite links are turned off for this organization (inviteLinks: false)")
	}
	link.ID = storage.NewID()
	ctx = r.emit(ctx, orgObjectEvent(EventInviteLinkCreated, org.ID, "invite-link", link.ID, ""), map[string]any{"role": link.Role})
	if err := r.Store.CreateInviteLink(ctx, link); err != nil {
		return nil, err
	}
	saved, err := r.Store.FindInviteLink(ctx, org.ID, link.ID)
	if err != nil {
		return nil, err
	}
	links, err := r.toInviteLinks(ctx, org.ID, []*storage.InviteLink{saved})
	if err != nil || len(links) == 0 {
		return nil, fmt.Errorf("read invite link %s back: %w", link.ID, err)
	}
	return links[0], nil
}

// DeleteInviteLink deletes an invite link; deleting a missing one succeeds and reports false.
// Errors: NotFound (organization), Forbidden.
func (r *App) DeleteInviteLink(ctx context.Context, orgID, inviteID string) (bool, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteInviteLink(r.emit(ctx, orgObjectEvent(EventInviteLinkDeleted, org.ID, "invite-link", inviteID, ""), nil), org.ID, inviteID)
}

// JoinOrganizationWithInvite makes the caller a member through an invite link; holding the link's id is the
// permission. A current member keeps their role; a space or collection link makes a newcomer a
// guest and gives them its level there (a higher grant of their own is kept).
// Errors: NotFound, Invalid (links turned off).
func (r *App) JoinOrganizationWithInvite(ctx context.Context, orgID, inviteID string) (*model.Member, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if err := authz.RequireUnlimited(ctx, "joining an organization"); err != nil {
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
	if link.TargetKind == nil {
		return r.addMember(ctx, orgID, actor.UserID, link.Role)
	}
	if _, err := r.Store.AddMember(ctx, orgID, actor.UserID, nil, r.Now()); err != nil {
		return nil, err
	}
	if err := r.grantAtLeast(ctx, orgID, *link.TargetKind, *link.TargetID, actor.UserID, model.MemberRole(*link.Role)); err != nil {
		return nil, err
	}
	return r.addMember(ctx, orgID, actor.UserID, nil)
}

// grantAtLeast gives a user role on content unless their own grant there is already higher.
func (r *App) grantAtLeast(ctx context.Context, orgID, kind, id, userID string, role model.MemberRole) error {
	grants, err := r.Store.GrantsIn(ctx, orgID, []string{userID})
	if err != nil {
		return err
	}
	for _, g := range grants {
		mine := model.MemberRole(g.Role)
		if g.TargetKind == kind && g.TargetID == id && g.PrincipalKind == storage.PrincipalUser && authz.AtLeast(&mine, role) {
			return nil
		}
	}
	return r.Store.SetGrants(ctx, orgID, kind, id, storage.PrincipalUser, []string{userID}, string(role), r.Now())
}

// AgentInstructions returns the organization's agent instructions, an empty document when none
// were written. Errors: none beyond storage's.
func (r *App) AgentInstructions(ctx context.Context, org *model.Organization) (*model.AgentInstructions, error) {
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

// UpdateAgentInstructions replaces the agent instructions. Errors: Invalid, NotFound, Forbidden.
func (r *App) UpdateAgentInstructions(ctx context.Context, orgID string, in model.UpdateAgentInstructionsInput) (*model.AgentInstructions, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	a := &storage.AgentInstructions{OrganizationID: org.ID, Instructions: string(in.Instructions), UpdatedBy: org.Viewer.ID, UpdatedAt: r.Now()}
	if err := r.Store.SaveAgentInstructions(r.emit(ctx, orgObjectEvent(EventAgentInstructionsUpdated, org.ID, "organization", org.ID, org.Title), nil), a); err != nil {
		return nil, err
	}
	return r.AgentInstructions(ctx, org)
}
