package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/authz"
	"github.com/bindery/bindery/graph/loader"
	"github.com/bindery/bindery/graph/model"
	"github.com/bindery/bindery/storage"
)

// OrganizationByID returns an organization the caller belongs to. Errors: Unauthenticated, NotFound
// (also for organizations the caller is not a member of: existence is never revealed).
func (r *Resolver) OrganizationByID(ctx context.Context, id string) (*model.Organization, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, err
	}
	m, err := loader.For(ctx, r.Store).Membership.Load(ctx, id)()
	if err != nil {
		return nil, notFound(err, "organization")
	}
	return r.toOrganization(m.Organization, r.toMember(m)), nil
}

// Organizations lists the organizations the caller belongs to, oldest membership first.
// Errors: Unauthenticated, Invalid.
func (r *Resolver) Organizations(ctx context.Context, first *int, after *string) (*model.OrganizationConnection, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	page, err := pageOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FindMemberships(ctx, actor.UserID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(m *storage.Member) *model.Organization {
		return r.toOrganization(m.Organization, r.toMember(m))
	}), nil
}

// OrganizationsForEmailDomain shows the organizations allowing domain that the caller belongs to
// or could join with their own address. Errors: Invalid.
func (r *Resolver) OrganizationsForEmailDomain(ctx context.Context, domain string) ([]*model.Organization, error) {
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
		case ok:
			out = append(out, r.toOrganization(o, r.toMember(m)))
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
func (r *Resolver) UpdateOrganization(ctx context.Context, id string, in model.UpdateOrganizationInput) (*model.Organization, error) {
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
	var cols []string
	set := func(col string) { cols = append(cols, col) }
	if v, ok := in.Title.ValueOK(); ok {
		row.Title = *v
		set("title")
	}
	if v, ok := in.EmailDomains.ValueOK(); ok {
		row.EmailDomains = normalizeDomains(v)
		set("email_domains")
	}
	if v, ok := in.Hostname.ValueOK(); ok {
		row.Hostname = v
		set("hostname")
	}
	if v, ok := in.DefaultRole.ValueOK(); ok {
		row.DefaultRole = roleString(v)
		set("default_role")
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
		set("default_content_site")
	}
	if v, ok := in.Logo.ValueOK(); ok {
		row.LogoURL = v
		set("logo_url")
	}
	for _, b := range []struct {
		col string
		in  *bool
		dst *bool
	}{{"sso", in.SSO.Value(), &row.SSO}, {"ai", in.AI.Value(), &row.AI}, {"invite_links", in.InviteLinks.Value(), &row.InviteLinks}} {
		if b.in != nil {
			*b.dst = *b.in
			set(b.col)
		}
	}
	if v, ok := in.MergeRules.ValueOK(); ok {
		if err := r.checkRuleUsers(ctx, id, v); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(v)
		row.MergeRules = string(b)
		set("merge_rules")
	}
	row.UpdatedAt = r.Now()
	if err := r.Store.UpdateOrganization(ctx, row, cols); err != nil {
		if errors.Is(err, storage.ErrConflict) {
			return nil, apperr.Conflictf("hostname %q is already in use", *row.Hostname)
		}
		return nil, err
	}
	return r.toOrganization(row, org.Viewer), nil
}

// checkRuleUsers requires every user a merge rule names to be a member. Errors: Invalid.
func (r *Resolver) checkRuleUsers(ctx context.Context, orgID string, rules *model.MergeRules) error {
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
