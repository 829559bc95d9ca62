package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// OrganizationByID returns an organization the caller belongs to. Errors: Unauthenticated, NotFound
// (also for organizations the caller is not a member of: existence is never revealed).
func (r *App) OrganizationByID(ctx context.Context, id string) (*model.Organization, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if !actor.Limit.InOrganization(id) {
		return nil, apperr.NotFoundf("organization not found")
	}
	m, err := loader.For(ctx, r.Store).Membership.Find(ctx, id)
	if err != nil {
		return nil, notFound(err, "organization")
	}
	if ssoBarred(actor, m) {
		return nil, errSSORequired
	}
	return r.limited(ctx, r.toOrganization(m.Organization, r.toMember(m))), nil
}

// Organizations lists the organizations the caller belongs to, oldest membership first.
// Errors: Unauthenticated, Invalid.
func (r *App) Organizations(ctx context.Context, first *int, after *string) (*model.OrganizationConnection, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	if actor.Limit != nil && actor.Limit.Organization != "" {
		return r.confinedOrganizations(ctx, actor.Limit.Organization)
	}
	list, err := r.Store.FindMemberships(ctx, actor.UserID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(m *storage.Member) *model.Organization {
		return r.limited(ctx, r.toOrganization(m.Organization, r.toMember(m)))
	}), nil
}

// OrganizationsForEmailDomain shows the organizations allowing domain that the caller belongs to
// or could join with their own address. Errors: Invalid.
func (r *App) OrganizationsForEmailDomain(ctx context.Context, domain string) ([]*model.Organization, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	domain = strings.ToLower(domain)
	if !model.ValidDomain(domain) {
		return nil, apperr.Invalidf("emailDomain", "%q is not a domain name", domain)
	}
	orgs, err := r.Store.FindOrganizationsByEmailDomain(ctx, domain)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(orgs))
	for i, o := range orgs {
		ids[i] = o.ID
	}
	mine, err := r.Store.MembershipsIn(ctx, actor.UserID, ids)
	if err != nil {
		return nil, err
	}
	out := []*model.Organization{}
	ownDomain := emailDomain(actor.Email)
	for _, o := range orgs {
		switch m, ok := mine[o.ID]; {
		case !actor.Limit.InOrganization(o.ID), ssoBarred(actor, m):
		case ok:
			out = append(out, r.limited(ctx, r.toOrganization(o, r.toMember(m))))
		case ownDomain == domain:
			out = append(out, r.toOrganization(o, nil))
		}
	}
	return out, nil
}

func emailDomain(email string) string {
	return strings.ToLower(email[strings.LastIndexByte(email, '@')+1:])
}

// UpdateOrganization applies a validated patch. Errors: Invalid, NotFound, Forbidden, Conflict
// (hostname taken).
func (r *App) UpdateOrganization(ctx context.Context, id string, in model.UpdateOrganizationInput) (*model.Organization, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	org, err := r.OrganizationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := authz.CanAdminister(org); err != nil {
		return nil, err
	}
	row, err := r.Store.FindOrganizationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	var set storage.OrganizationField
	if v, ok := in.Title.ValueOK(); ok {
		row.Title = *v
		set |= storage.OrganizationTitle
	}
	if v, ok := in.EmailDomains.ValueOK(); ok {
		row.EmailDomains = normalizeDomains(v)
		set |= storage.OrganizationEmailDomains
	}
	if v, ok := in.Hostname.ValueOK(); ok {
		row.Hostname = v
		set |= storage.OrganizationHostname
	}
	if v, ok := in.DefaultRole.ValueOK(); ok {
		row.DefaultRole = roleString(v)
		set |= storage.OrganizationDefaultRole
	}
	if v, ok := in.DefaultContent.ValueOK(); ok {
		if v != nil {
			if _, err := r.Store.FindSite(ctx, id, v.Site); errors.Is(err, storage.ErrNotFound) {
				return nil, apperr.Invalidf("defaultContent.site", "site %q not found in this organization", v.Site)
			} else if err != nil {
				return nil, err
			}
			row.DefaultContentSite = &v.Site
		} else {
			row.DefaultContentSite = nil
		}
		set |= storage.OrganizationDefaultContent
	}
	if v, ok := in.Logo.ValueOK(); ok {
		row.LogoURL = v
		set |= storage.OrganizationLogo
	}
	if v := in.SSO.Value(); v != nil && *v && !row.SSO {
		if err := r.mayRequireSSO(ctx, id, "sso"); err != nil {
			return nil, err
		}
	}
	for _, b := range []struct {
		field storage.OrganizationField
		in    *bool
		dst   *bool
	}{{storage.OrganizationSSO, in.SSO.Value(), &row.SSO}, {storage.OrganizationAI, in.AI.Value(), &row.AI}, {storage.OrganizationInviteLinks, in.InviteLinks.Value(), &row.InviteLinks}} {
		if b.in != nil {
			*b.dst = *b.in
			set |= b.field
		}
	}
	if v, ok := in.MergeRules.ValueOK(); ok {
		if err := r.checkRuleUsers(ctx, id, v); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(v)
		row.MergeRules = string(b)
		set |= storage.OrganizationMergeRules
	}
	row.UpdatedAt = r.Now()
	ctx = r.emit(ctx, &storage.Event{Type: EventOrganizationUpdated, OrganizationID: row.ID, TargetType: "organization", TargetID: row.ID, TargetLabel: row.Title}, nil)
	if err := r.Store.UpdateOrganization(ctx, row, set); err != nil {
		if errors.Is(err, storage.ErrConflict) {
			return nil, apperr.Conflictf("hostname %q is already in use", *row.Hostname)
		}
		return nil, err
	}
	return r.toOrganization(row, org.Viewer), nil
}

// checkRuleUsers requires every user a merge rule names to be a member. Errors: Invalid.
func (r *App) checkRuleUsers(ctx context.Context, orgID string, rules *model.MergeRules) error {
	var ids []string
	for _, rule := range rules.Rules {
		ids = append(ids, rule.Users...)
	}
	members, err := r.Store.MemberIDsIn(ctx, orgID, ids)
	if err != nil {
		return err
	}
	for i, rule := range rules.Rules {
		for j, u := range rule.Users {
			if !members[u] {
				return apperr.Invalidf(fmt.Sprintf("mergeRules.rules[%d].users[%d]", i, j), "user %q is not a member of this organization", u)
			}
		}
	}
	return nil
}

func normalizeDomains(in []string) []string {
	out := make([]string, 0, len(in))
	for _, d := range in {
		d = strings.ToLower(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// limited masks an organization's permissions by the caller's token scopes.
func (r *App) limited(ctx context.Context, org *model.Organization) *model.Organization {
	org.Permissions = authz.LimitFrom(ctx).OrganizationPermissions(org.Permissions)
	return org
}

// confinedOrganizations lists the one organization a confined token (an installation's) may
// act in.
func (r *App) confinedOrganizations(ctx context.Context, orgID string) (*model.OrganizationConnection, error) {
	org, err := r.OrganizationByID(ctx, orgID)
	if apperr.KindOf(err) == apperr.NotFound {
		return model.NewConnection[*model.Organization](nil, nil, 0, false), nil
	}
	if err != nil {
		return nil, err
	}
	return model.NewConnection([]*model.Organization{org}, []string{org.ID}, 1, false), nil
}
