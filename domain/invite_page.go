package domain

import (
	"context"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
)

// errNoInvite answers an invite link that does not exist, was deleted, belongs to a removed
// organization or to one with invite links turned off: all alike.
var errNoInvite = apperr.NotFoundf("this invite link is not valid: it was deleted or invite links are turned off")

// DescribeInvite tells the invite page what an invite link offers. Holding the link's ids is the
// permission, as for JoinOrganizationWithInvite. Errors: NotFound.
func (r *App) DescribeInvite(ctx context.Context, orgID, inviteID string) (*account.Invite, error) {
	link, err := r.Store.FindInviteLink(ctx, orgID, inviteID)
	if err != nil {
		return nil, notFoundAs(err, errNoInvite)
	}
	org, err := r.Store.FindOrganizationByID(ctx, link.OrganizationID)
	if err != nil {
		return nil, notFoundAs(err, errNoInvite)
	}
	if !org.InviteLinks {
		return nil, errNoInvite
	}
	inv := &account.Invite{OrganizationID: org.ID, OrganizationTitle: org.Title}
	if link.Role != nil {
		inv.Role = *link.Role
	}
	if link.TargetKind != nil {
		switch *link.TargetKind {
		case storage.TargetSpace:
			if spaces, err := r.Store.SpacesByIDs(ctx, []string{*link.TargetID}); err == nil && len(spaces) == 1 {
				inv.Target = "the space " + spaces[0].Title
			} else {
				return nil, errNoInvite
			}
		default:
			inv.Target = "a collection"
		}
	}
	return inv, nil
}

func notFoundAs(err, as error) error {
	if apperr.KindOf(err) == apperr.NotFound {
		return as
	}
	return err
}

// JoinInvite makes the context's actor a member through an invite link: the invite page's door
// onto JoinOrganizationWithInvite. Errors: those of JoinOrganizationWithInvite.
func (r *App) JoinInvite(ctx context.Context, orgID, inviteID string) error {
	_, err := r.JoinOrganizationWithInvite(r.WithRequestState(ctx), orgID, inviteID)
	return err
}

// EmailDomainOpen reports whether an organization lets people with that e-mail address's domain
// join by themselves (its emailDomains setting), so that single sign-on may create their account.
func (r *App) EmailDomainOpen(ctx context.Context, email string) (bool, error) {
	orgs, err := r.Store.FindOrganizationsByEmailDomain(ctx, emailDomain(email))
	return len(orgs) > 0, err
}

// JoinByEmailDomain makes the context's actor (verified) a member of every organization their
// e-mail domain lets join, with its default role: JoinOrganization for each.
func (r *App) JoinByEmailDomain(ctx context.Context) error {
	ctx = r.WithRequestState(ctx)
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return err
	}
	orgs, err := r.Store.FindOrganizationsByEmailDomain(ctx, emailDomain(actor.Email))
	if err != nil {
		return err
	}
	for _, o := range orgs {
		if _, err := r.JoinOrganization(ctx, o.ID); err != nil {
			return err
		}
	}
	return nil
}
