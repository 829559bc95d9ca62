package authz

import (
	"context"
	"slices"

	"github.com/bindery/bindery/domain/model"
)

// Token scopes: what a token may do, below what its user may. A token without scopes may do all
// its user may. Scoped tokens and integration installation tokens are one mechanism: an
// installation token is a scoped token confined to one organization and the spaces the
// installation is on. docs/permissions.md ("Token scopes") lists what each scope allows.
const (
	// ScopeRead lets a token read everything its user can read, and write nothing.
	ScopeRead = "read"

	ScopeSpaceContentRead   = "space:content:read"
	ScopeSpaceContentWrite  = "space:content:write"
	ScopeSpaceMetadataRead  = "space:metadata:read"
	ScopeSpaceMetadataWrite = "space:metadata:write"
	ScopeOpenAPIRead        = "openapi:read"
	ScopeOpenAPIWrite       = "openapi:write"
)

// KnownScopes are the scopes a token may carry: "read" and the contract's integration scopes.
// Scopes that name something Bindery does not serve (sites' scripts, visitor auth, …) are
// accepted so that integrations publish unchanged, and allow nothing.
var KnownScopes = []string{
	ScopeRead,
	"space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write",
	"space:git:sync", "page:feedback:read", "site:metadata:read", "site:views:read",
	"site:script:inject", "site:script:cookies", "site:visitor:auth", "site:adaptive:read",
	"site:adaptive:write", "openapi:read", "openapi:write", "conversations:ingest",
}

// Limit narrows a token below its user's roles. A nil *Limit limits nothing.
type Limit struct {
	Scopes []string
	// Organization confines the token to one organization ("" : any). Everywhere else the
	// token's user is treated as a non-member: reads answer 404.
	Organization string
	// Spaces confines the token to these spaces (nil: not confined). Other spaces and every
	// collection are invisible to it.
	Spaces map[string]bool
	// Installation names the integration installation the token belongs to ("" for a user's
	// own scoped token).
	Installation string
}

// LimitFrom returns the caller's token limit (nil: none).
func LimitFrom(ctx context.Context) *Limit {
	if a := ActorFrom(ctx); a != nil {
		return a.Limit
	}
	return nil
}

func (l *Limit) has(scopes ...string) bool {
	for _, s := range scopes {
		if slices.Contains(l.Scopes, s) {
			return true
		}
	}
	return false
}

// Allows reports whether the token carries one of scopes (always true without a limit).
func (l *Limit) Allows(scopes ...string) bool { return l == nil || l.has(scopes...) }

// Unlimited reports whether the token may do all its user may. Rules that grant by ownership
// (authors change their own change requests, members leave teams, users join organizations)
// hold only for unlimited tokens: a scoped token acts through roles alone, which it caps.
func (l *Limit) Unlimited() bool { return l == nil }

// InOrganization reports whether the token may act in an organization at all.
func (l *Limit) InOrganization(orgID string) bool {
	return l == nil || l.Organization == "" || l.Organization == orgID
}

var (
	readRole = model.MemberRoleRead
	editRole = model.MemberRoleEdit
)

// capRole returns the lower of role and limit (nil: none).
func capRole(role, limit *model.MemberRole) *model.MemberRole {
	if role == nil || limit == nil {
		return nil
	}
	if rank[*role] > rank[*limit] {
		return limit
	}
	return role
}

// SpaceRole caps a user's role on a space to what the token allows: edit with a space write
// scope, read with a read scope, nothing on spaces it is not confined to.
func (l *Limit) SpaceRole(spaceID string, role *model.MemberRole) *model.MemberRole {
	if l == nil {
		return role
	}
	if l.Spaces != nil && !l.Spaces[spaceID] {
		return nil
	}
	switch {
	case l.has(ScopeSpaceContentWrite, ScopeSpaceMetadataWrite):
		return capRole(role, &editRole)
	case l.has(ScopeRead, ScopeSpaceContentRead, ScopeSpaceMetadataRead):
		return capRole(role, &readRole)
	}
	return nil
}

// SpaceReach is what SpaceRole leaves of a user's spaces, for lists decided in SQL: whether the
// token reads spaces at all, and the spaces it is confined to (nil: not confined).
func (l *Limit) SpaceReach() (reads bool, only map[string]bool) {
	if l == nil {
		return true, nil
	}
	return l.has(ScopeSpaceContentWrite, ScopeSpaceMetadataWrite, ScopeRead, ScopeSpaceContentRead, ScopeSpaceMetadataRead), l.Spaces
}

// CollectionRole caps a user's role on a collection: a token confined to spaces sees none; a
// read scope reads them; writing collections needs an unlimited token.
func (l *Limit) CollectionRole(role *model.MemberRole) *model.MemberRole {
	if l == nil {
		return role
	}
	if l.Spaces == nil && l.has(ScopeRead, ScopeSpaceContentRead, ScopeSpaceMetadataRead, ScopeSpaceContentWrite, ScopeSpaceMetadataWrite) {
		return capRole(role, &readRole)
	}
	return nil
}

// OrganizationRole caps a user's organization role, for rules that ask it directly (creating
// content at the root, managing teams): a limited token never holds more than read.
func (l *Limit) OrganizationRole(role *model.MemberRole) *model.MemberRole {
	if l == nil {
		return role
	}
	if l.has(ScopeRead) {
		return capRole(role, &readRole)
	}
	return nil
}

// OrganizationPermissions masks an organization's permissions: a limited token keeps `view`,
// the listing reads with the read scope, and creating OpenAPI specifications with openapi:write;
// every other write and admin flag is off.
func (l *Limit) OrganizationPermissions(p model.OrganizationPermissions) model.OrganizationPermissions {
	if l == nil {
		return p
	}
	read := l.has(ScopeRead)
	return model.OrganizationPermissions{
		View:              p.View,
		ListMembers:       p.ListMembers && read,
		ListTeams:         p.ListTeams && read,
		ListIntegrations:  p.ListIntegrations && read,
		CreateOpenAPISpec: p.CreateOpenAPISpec && l.has(ScopeOpenAPIWrite),
	}
}

// RequireUnlimited guards a rule that grants by ownership (see Unlimited). Errors: Forbidden.
func RequireUnlimited(ctx context.Context, what string) error {
	if LimitFrom(ctx).Unlimited() {
		return nil
	}
	return errScoped(what)
}
