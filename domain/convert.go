package domain

import (
	"encoding/json"
	"fmt"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Conversions from storage rows to API types. Storage rows never leave graph/: the database
// schema can change without changing either door's wire shape.

func (r *App) apiURL(format string, args ...any) string {
	return r.Settings.PublicURL + "/v1" + fmt.Sprintf(format, args...)
}

func (r *App) toUser(u *storage.User) *model.User {
	return &model.User{
		Object:      "user",
		ID:          u.ID,
		DisplayName: u.DisplayName,
		Email:       u.Email,
		PhotoURL:    u.PhotoURL,
		URLs:        model.UserURLs{Location: r.apiURL("/users/%s", u.ID)},
	}
}

// mergeRulesNoneJSON and mergeRulesInheritJSON are how an organization's and a space's default
// merge rules are stored.
const (
	mergeRulesNoneJSON    = `{"type":"none"}`
	mergeRulesInheritJSON = `{"type":"inherit"}`
)

// toOrganization shows org to a viewer; viewer is nil for someone who is not a member.
func (r *App) toOrganization(o *storage.Organization, viewer *model.Member) *model.Organization {
	org := &model.Organization{
		Object:               "organization",
		ID:                   o.ID,
		Title:                o.Title,
		CreatedAt:            o.CreatedAt,
		EmailDomains:         o.EmailDomains,
		Hostname:             o.Hostname,
		Type:                 model.OrganizationType(o.Type),
		UseCase:              (*model.OrganizationUseCase)(o.UseCase),
		CommunityType:        (*model.OrganizationCommunityType)(o.CommunityType),
		DefaultRole:          (*model.MemberRole)(o.DefaultRole),
		SSO:                  o.SSO,
		AI:                   o.AI,
		InviteLinks:          o.InviteLinks,
		Plan:                 model.BillingProduct(o.Plan),
		URLs:                 model.OrganizationURLs{Location: r.apiURL("/orgs/%s", o.ID), App: r.Settings.AppURL + "/o/" + o.ID + "/", Logo: o.LogoURL},
		Trial:                model.OrganizationTrial{Status: model.BillingTrialNotApplicable},
		InternalIsOnNewTrial: true,
	}
	if org.EmailDomains == nil {
		org.EmailDomains = []string{}
	}
	if o.DefaultContentSite != nil {
		org.DefaultContent = &model.SitePointer{Type: "site", Site: *o.DefaultContentSite}
	}
	if o.MergeRules == "" || o.MergeRules == mergeRulesNoneJSON { // the default needs no decoder
		org.MergeRules = model.MergeRules{Type: model.MergeRulesNone}
	} else if err := json.Unmarshal([]byte(o.MergeRules), &org.MergeRules); err != nil || org.MergeRules.Type == "" {
		org.MergeRules = model.MergeRules{Type: model.MergeRulesNone}
	}
	org.Viewer = viewer
	if viewer != nil {
		org.Permissions = authz.OrganizationPermissions(true, viewer.Role)
	} else {
		org.Permissions = authz.OrganizationPermissions(false, nil)
	}
	return org
}

// toMember converts a membership whose User relation is loaded.
func (r *App) toMember(m *storage.Member) *model.Member {
	out := &model.Member{
		Object:         "member",
		ID:             m.UserID,
		Role:           (*model.MemberRole)(m.Role),
		Disabled:       m.Disabled,
		JoinedAt:       m.JoinedAt,
		LastSeenAt:     m.LastSeenAt,
		SSO:            m.SSO,
		OrganizationID: m.OrganizationID,
		// Spaces and teams arrive with their own capability; until then a member has none.
	}
	if m.User != nil {
		out.User = r.toUser(m.User)
	}
	return out
}

func roleString(r *model.MemberRole) *string {
	if r == nil {
		return nil
	}
	s := string(*r)
	return &s
}

// connectionOf converts one storage page into a connection of API types.
func connectionOf[S, T any](list storage.List[S], convert func(S) T) *model.Connection[T] {
	items := make([]T, len(list.Items))
	for i, it := range list.Items {
		items[i] = convert(it)
	}
	return model.NewConnection(items, list.Cursors, list.Total, list.HasMore)
}

// windowOf reads GraphQL's first/after (REST's limit/page) into a storage window. Errors: Invalid.
func windowOf(first *int, after *string) (storage.Window, error) {
	p := storage.Window{Limit: model.DefaultPageSize}
	if first != nil {
		if *first < 0 || *first > model.MaxPageSize {
			return p, invalidPageSize
		}
		if *first > 0 {
			p.Limit = *first
		}
	}
	if after != nil {
		p.After = *after
	}
	return p, nil
}
