package model

import (
	"encoding/json"

	"github.com/bindery/bindery/domain/opt"
)

// The input types below are decoded from GraphQL arguments and, unchanged, from REST bodies.
// opt.Field tells an absent field from an explicit null in both doors.

// UpdateOrganizationInput changes an organization; absent fields stay as they are.
type UpdateOrganizationInput struct {
	Title          opt.Field[*string]      `json:"title"`
	EmailDomains   opt.Field[[]string]     `json:"emailDomains"`
	Hostname       opt.Field[*string]      `json:"hostname"`
	DefaultRole    opt.Field[*MemberRole]  `json:"defaultRole"`
	DefaultContent opt.Field[*SitePointer] `json:"defaultContent"`
	Logo           opt.Field[*string]      `json:"logo"`
	SSO            opt.Field[*bool]        `json:"sso"`
	AI             opt.Field[*bool]        `json:"ai"`
	InviteLinks    opt.Field[*bool]        `json:"inviteLinks"`
	MergeRules     opt.Field[*MergeRules]  `json:"mergeRules"`
}

// UpdateMemberInput changes a member's role; null makes them a guest.
type UpdateMemberInput struct {
	Role opt.Field[*MemberRole] `json:"role"`
}

// InviteUsersInput invites people by e-mail. Each address may carry its own role; Role applies to
// the others.
type InviteUsersInput struct {
	Emails []*InviteEmail         `json:"emails"`
	Role   opt.Field[*MemberRole] `json:"role"`
	SSO    *bool                  `json:"sso"`
}

// InviteEmail is one invited address. REST also accepts a bare string.
type InviteEmail struct {
	Email string                 `json:"email"`
	Role  opt.Field[*MemberRole] `json:"role"`
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
	Role       opt.Field[*MemberRole] `json:"role"`
	Level      opt.Field[*MemberRole] `json:"level"`
	Space      *string                `json:"space"`
	Collection *string                `json:"collection"`
}

// UpdateAgentInstructionsInput replaces an organization's agent instructions.
type UpdateAgentInstructionsInput struct {
	Instructions Document `json:"instructions"`
}
