package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Single sign-on in organizations (docs/accounts.md): enforcing it (Organization.sso, a member's
// sso), mapping the identity provider's claims to roles, and an admin ending a member's sessions.

// mayRequireSSO refuses to make single sign-on required in an organization when it cannot be
// satisfied: no provider serves it (the server's OpenID Connect provider, or an active SAML
// provider of the organization), or the caller's own browser session did not come through one
// (they would lock themselves out by the change they are making).
func (r *App) mayRequireSSO(ctx context.Context, orgID, field string) error {
	if r.Settings.SingleSignOn == "" {
		active, err := r.Store.HasActiveSAMLProvider(ctx, orgID)
		if err != nil {
			return err
		}
		if !active {
			return apperr.Invalidf(field, "no single sign-on provider serves this organization (the server's --oidc-issuer, or an active SAML provider): members could no longer sign in")
		}
	}
	if actor := authz.ActorFrom(ctx); actor != nil && !actor.SignedInThroughSSO(orgID) {
		return apperr.Invalidf(field, "sign in through single sign-on first: this browser session signed in otherwise and would lose access")
	}
	return nil
}

const maxSSORoleRules = 50

// SSORoleMapping returns an organization's claim-to-role mapping (nil: none). Errors: NotFound,
// Forbidden (not an admin).
func (r *App) SSORoleMapping(ctx context.Context, org *model.Organization) (*model.SSORoleMapping, error) {
	if err := authz.CanAdminister(org); err != nil {
		return nil, err
	}
	row, err := r.Store.FindSSORoles(ctx, org.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeSSORoles(row)
}

func decodeSSORoles(row *storage.SSORoles) (*model.SSORoleMapping, error) {
	m := &model.SSORoleMapping{Claim: row.Claim, Roles: []*model.SSORoleRule{}}
	if err := json.Unmarshal([]byte(row.Roles), &m.Roles); err != nil {
		return nil, fmt.Errorf("organization %s single sign-on roles: %w", row.OrganizationID, err)
	}
	return m, nil
}

// SetSSORoleMapping replaces an organization's claim-to-role mapping; an empty claim removes it.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) SetSSORoleMapping(ctx context.Context, orgID, claim string, rules []*model.SSORoleRule) (*model.SSORoleMapping, error) {
	claim = strings.TrimSpace(claim)
	switch {
	case len(claim) > 100:
		return nil, apperr.Invalidf("claim", "must be at most 100 characters")
	case claim == "" && len(rules) > 0:
		return nil, apperr.Invalidf("claim", "is required with rules (an empty claim removes the mapping)")
	case len(rules) > maxSSORoleRules:
		return nil, apperr.Invalidf("roles", "at most %d rules", maxSSORoleRules)
	}
	seen := map[string]bool{}
	for i, rule := range rules {
		switch {
		case rule == nil || strings.TrimSpace(rule.Value) == "" || len(rule.Value) > 256:
			return nil, apperr.Invalidf("roles", "rule %d: value must be 1 to 256 characters", i)
		case rule.Role != nil && !rule.Role.IsValid():
			return nil, apperr.Invalidf("roles", "rule %d: %q is not a role", i, *rule.Role)
		case seen[rule.Value]:
			return nil, apperr.Invalidf("roles", "rule %d: value %q appears twice", i, rule.Value)
		}
		seen[rule.Value] = true
	}
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if rules == nil {
		rules = []*model.SSORoleRule{}
	}
	encoded, _ := json.Marshal(rules)
	row := &storage.SSORoles{OrganizationID: org.ID, Claim: claim, Roles: string(encoded), UpdatedAt: r.Now()}
	if err := r.Store.SetSSORoles(ctx, row); err != nil {
		return nil, err
	}
	if claim == "" {
		return nil, nil
	}
	return &model.SSORoleMapping{Claim: claim, Roles: rules}, nil
}

// ApplySSOClaims sets the context's actor's role in each organization that maps the identity
// provider's claims to roles, from the claims of the ID token they just signed in with. A change
// that would leave an organization without an admin is skipped (and logged), as any demotion of
// the last admin is refused.
func (r *App) ApplySSOClaims(ctx context.Context, claims map[string]any) error {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return err
	}
	maps, members, err := r.Store.SSORolesOfMember(ctx, actor.UserID)
	if err != nil {
		return err
	}
	for _, row := range maps {
		mapping, err := decodeSSORoles(row)
		if err != nil {
			return err
		}
		role, matched := mappedRole(mapping, claims[mapping.Claim])
		m := members[row.OrganizationID]
		if !matched || m == nil || equalRole(m.Role, roleString(role)) {
			continue
		}
		err = r.Store.SetMemberRole(ctx, row.OrganizationID, actor.UserID, roleString(role))
		switch {
		case errors.Is(err, storage.ErrLastAdmin):
			slog.WarnContext(ctx, "single sign-on role not applied: the organization's last admin", "organization_id", row.OrganizationID, "user_id", actor.UserID)
		case err != nil:
			return err
		default:
			slog.InfoContext(ctx, "role set from single sign-on", "event", "member.role.sso", "organization_id", row.OrganizationID, "user_id", actor.UserID, "role", roleName(role))
		}
	}
	return nil
}

// mappedRole is the highest role among the rules whose value the claim holds (a string, or a list
// of them); matched is false when none does.
func mappedRole(m *model.SSORoleMapping, claim any) (role *model.MemberRole, matched bool) {
	var values []string
	switch v := claim.(type) {
	case string:
		values = []string{v}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				values = append(values, s)
			}
		}
	}
	for _, rule := range m.Roles {
		if !slices.Contains(values, rule.Value) {
			continue
		}
		if !matched || rule.Role != nil && (role == nil || authz.AtLeast(rule.Role, *role)) {
			role = rule.Role
		}
		matched = true
	}
	return role, matched
}

func equalRole(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func roleName(r *model.MemberRole) string {
	if r == nil {
		return "guest"
	}
	return string(*r)
}

// EndMemberSessions signs a member out everywhere (an admin's answer to a lost laptop or a
// departure). Errors: NotFound (not a member), Forbidden.
func (r *App) EndMemberSessions(ctx context.Context, orgID, userID string) (int, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return 0, err
	}
	if _, err := r.Store.FindMembership(ctx, org.ID, userID); err != nil {
		return 0, notFound(err, "member")
	}
	ctx = r.emit(ctx, memberEvent(EventUserSignedOut, org.ID, userID), map[string]any{"everywhere": true})
	n, err := r.Store.DeleteSessions(ctx, userID, "")
	if err != nil {
		return 0, err
	}
	slog.InfoContext(ctx, "member signed out by an admin", "event", "session.ended_by_admin", "organization_id", org.ID, "user_id", userID, "sessions", n)
	return n, nil
}

// SSOProviderLogins lists where the organization's members start a single sign-on: the server's
// identity provider, when one is configured. Members whose session the organization's SSO
// requirement bars may read it too: it is what they need. Errors: NotFound (not a member).
func (r *App) SSOProviderLogins(ctx context.Context, orgID string) (*model.SSOProviderLogins, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if !actor.Limit.InOrganization(orgID) {
		return nil, apperr.NotFoundf("organization not found")
	}
	if _, err := loader.For(ctx, r.Store).Membership.Find(ctx, orgID); err != nil {
		return nil, notFound(err, "organization")
	}
	out := &model.SSOProviderLogins{Items: []*model.SSOProviderLogin{}}
	if name := r.Settings.SingleSignOn; name != "" {
		if label := []rune(name); len(label) > 30 { // the contract's limit
			name = string(label[:30])
		}
		out.Items = append(out.Items, &model.SSOProviderLogin{ID: authz.MethodSingleSignOn, Label: name,
			StartURL: strings.TrimRight(r.Settings.PublicURL, "/") + "/auth/oidc/start"})
	}
	return out, nil
}
