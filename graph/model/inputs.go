package model

import (
	"encoding/json"

	"github.com/99designs/gqlgen/graphql"
)

// The input types below are decoded from GraphQL arguments and, unchanged, from REST bodies.
// graphql.Omittable tells an absent field from an explicit null in both doors.

// UpdateOrganizationInput changes an organization; absent fields stay as they are.
type UpdateOrganizationInput struct {
	Title          graphql.Omittable[*string]      `json:"title"`
	EmailDomains   graphql.Omittable[[]string]     `json:"emailDomains"`
	Hostname       graphql.Omittable[*string]      `json:"hostname"`
	DefaultRole    graphql.Omittable[*MemberRole]  `json:"defaultRole"`
	DefaultContent graphql.Omittable[*SitePointer] `json:"defaultContent"`
	Logo           graphql.Omittable[*string]      `json:"logo"`
	SSO            graphql.Omittable[*bool]        `json:"sso"`
	AI             graphql.Omittable[*bool]        `json:"ai"`
	InviteLinks    graphql.Omittable[*bool]        `json:"inviteLinks"`
	MergeRules     graphql.Omittable[*MergeRules]  `json:"mergeRules"`
}

// UpdateMemberInput changes a member's role; null makes them a guest.
type UpdateMemberInput struct {
	Role graphql.Omittable[*MemberRole] `json:"role"`
}

// InviteUsersInput invites people by e-mail. Each address may carry its own role; Role applies to
// the others.
type InviteUsersInput struct {
	Emails []*InviteEmail                 `json:"emails"`
	Role   graphql.Omittable[*MemberRole] `json:"role"`
	SSO    *bool                          `json:"sso"`
}

// InviteEmail is one invited address. REST also accepts a bare string.
type InviteEmail struct {
	Email string                         `json:"email"`
	Role  graphql.Omittable[*MemberRole] `json:"role"`
}

// UnmarshalJSON accepts "a@b.c" as well as {"email":"a@b.c","role":"read"}.
func (e *InviteEmail) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*e = InviteEmail{Email: s}
		return nil
	}
	type plain InviteEmail
	return json.Unmarshal(b, (*plain)(e))
}

// CreateInviteLinkInput creates an invite link to the organization with a role (null: guest).
// Space and Collection (with Level) are the contract's other invite targets.
type CreateInviteLinkInput struct {
	Role       graphql.Omittable[*MemberRole] `json:"role"`
	Level      graphql.Omittable[*MemberRole] `json:"level"`
	Space      *string                        `json:"space"`
	Collection *string                        `json:"collection"`
}

// UpdateAgentInstructionsInput replaces an organization's agent instructions.
type UpdateAgentInstructionsInput struct {
	Instructions Document `json:"instructions"`
}
