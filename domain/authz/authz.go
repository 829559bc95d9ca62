// Package authz knows who is asking and what they may do. Middleware only authenticates; every
// resolver asks this package before it reads or writes.
package authz

import (
	"context"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
)

// Actor is the authenticated caller.
type Actor struct {
	UserID string
	// TokenID is the id of the token the caller authenticated with: rate limits and idempotency
	// keys are counted and scoped per token.
	TokenID       string
	Email         string
	EmailVerified bool
	// Limit narrows what the token may do below the user's roles (nil: nothing narrowed).
	Limit *Limit
	// SignedInWith is how a browser session's person signed in ("password", "passkey", "oidc",
	// …); empty for an API token.
	SignedInWith string
}

// MethodSingleSignOn is SignedInWith for a session opened through the server's OpenID Connect
// provider; MethodSAML(orgID) for one opened through a SAML provider of that organization.
const MethodSingleSignOn = "oidc"

// MethodSAML is SignedInWith for a session opened through one of orgID's SAML providers.
func MethodSAML(orgID string) string { return "saml:" + orgID }

// SignedInThroughSSO reports whether the actor may act in an organization that enforces single
// sign-on: a browser session that came through the server's provider or one of that
// organization's, or an API token (credentials of their own, managed by admins: enforcement
// applies to people's sign-ins).
func (a *Actor) SignedInThroughSSO(orgID string) bool {
	return a.SignedInWith == "" || a.SignedInWith == MethodSingleSignOn || a.SignedInWith == MethodSAML(orgID)
}

type actorKey struct{}

// WithActor returns ctx carrying the authenticated caller.
func WithActor(ctx context.Context, a *Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the caller, or nil when the request is not authenticated.
func ActorFrom(ctx context.Context) *Actor {
	a, _ := ctx.Value(actorKey{}).(*Actor)
	return a
}

// RequireActor returns the caller. Errors: Unauthenticated.
func RequireActor(ctx context.Context) (*Actor, error) {
	if a := ActorFrom(ctx); a != nil {
		return a, nil
	}
	return nil, apperr.ErrUnauthenticated
}

// rank orders roles: a higher rank may do everything a lower one may. Guests (nil) rank 0.
var rank = map[model.MemberRole]int{
	model.MemberRoleRead:    1,
	model.MemberRoleComment: 2,
	model.MemberRoleReview:  3,
	model.MemberRoleEdit:    4,
	model.MemberRoleCreate:  5,
	model.MemberRoleAdmin:   6,
}

// AtLeast reports whether role (nil: guest) grants at least min.
func AtLeast(role *model.MemberRole, min model.MemberRole) bool {
	return role != nil && rank[*role] >= rank[min]
}

// OrganizationPermissions computes what a caller with that membership may do in an organization.
// member is false for someone who only sees the organization (e.g. by e-mail domain).
func OrganizationPermissions(member bool, role *model.MemberRole) model.OrganizationPermissions {
	admin := member && AtLeast(role, model.MemberRoleAdmin)
	creator := member && AtLeast(role, model.MemberRoleCreate)
	insider := member && role != nil // guests see only what they were invited to
	return model.OrganizationPermissions{
		View:                member,
		Admin:               admin,
		OwnTeam:             creator,
		CreateContent:       creator,
		CreateOpenAPISpec:   creator,
		IngestConversations: admin,
		ViewBilling:         admin,
		ListMembers:         insider,
		ListTeams:           insider,
		ListIntegrations:    insider,
		ListInstallations:   admin,
		InstallIntegration:  admin,
	}
}

// Organization actions, each answered from the caller's organization permissions.

// CanListMembers guards reading an organization's member list. Errors: Forbidden.
func CanListMembers(org *model.Organization) error {
	if !org.Permissions.ListMembers {
		return apperr.Forbiddenf("your role in this organization cannot list its members")
	}
	return nil
}

// CanAdminister guards changing an organization, its members and its invites. Errors: Forbidden.
func CanAdminister(org *model.Organization) error {
	if !org.Permissions.Admin {
		return apperr.Forbiddenf("only an admin of this organization can do this")
	}
	return nil
}

func errScoped(what string) error {
	return apperr.Forbiddenf("this token's scopes do not allow %s", what)
}
