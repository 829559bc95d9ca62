// Package model holds the API types both doors share. Their JSON encoding is the REST wire shape
// of the contract (camelCase, optional fields omitted, meaningful nulls kept); gqlgen binds the
// GraphQL types to the same structs. Storage rows are separate types.
package model

import (
	"encoding/json"
	"time"
)

// MaxPageSize and DefaultPageSize bound every list, in both doors.
const (
	MaxPageSize     = 1000
	DefaultPageSize = 100
)

// ApiInformation describes the running server.
type ApiInformation struct {
	Version string `json:"version"`
	Build   string `json:"build"`
}

// User is a person, as others see them.
type User struct {
	Object      string   `json:"object"`
	ID          string   `json:"id"`
	DisplayName string   `json:"displayName"`
	Email       string   `json:"email,omitempty"`
	PhotoURL    *string  `json:"photoURL,omitempty"`
	URLs        UserURLs `json:"urls"`
}

// UserURLs are a user's addresses.
type UserURLs struct {
	Location string `json:"location"`
}

// Organization is a tenant, seen by one caller: Permissions and Viewer are theirs.
type Organization struct {
	Object               string                     `json:"object"`
	ID                   string                     `json:"id"`
	Title                string                     `json:"title"`
	CreatedAt            time.Time                  `json:"createdAt"`
	EmailDomains         []string                   `json:"emailDomains"`
	Hostname             *string                    `json:"hostname,omitempty"`
	Type                 OrganizationType           `json:"type"`
	UseCase              *OrganizationUseCase       `json:"useCase,omitempty"`
	CommunityType        *OrganizationCommunityType `json:"communityType,omitempty"`
	DefaultRole          *MemberRole                `json:"defaultRole"`
	DefaultContent       *SitePointer               `json:"defaultContent,omitempty"`
	SSO                  bool                       `json:"sso"`
	AI                   bool                       `json:"ai"`
	InviteLinks          bool                       `json:"inviteLinks"`
	Plan                 BillingProduct             `json:"plan"`
	MergeRules           MergeRules                 `json:"mergeRules"`
	URLs                 OrganizationURLs           `json:"urls"`
	Trial                OrganizationTrial          `json:"trial"`
	InternalIsOnNewTrial bool                       `json:"internal_isOnNewTrial"`
	Permissions          OrganizationPermissions    `json:"permissions"`

	// Viewer is the caller's membership, nil when they only see the organization (by e-mail
	// domain). Resolvers authorize with it; it is never encoded.
	Viewer *Member `json:"-"`
}

// SitePointer points at a site.
type SitePointer struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

// OrganizationURLs are an organization's addresses.
type OrganizationURLs struct {
	Location string  `json:"location"`
	App      string  `json:"app"`
	Logo     *string `json:"logo,omitempty"`
}

// OrganizationTrial is the trial state; a self-hosted organization has none.
type OrganizationTrial struct {
	Status BillingTrialStatus `json:"status"`
	Count  int                `json:"count"`
}

// OrganizationPermissions are what the caller may do in an organization.
type OrganizationPermissions struct {
	View                bool `json:"view"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	InstallIntegration  bool `json:"installIntegration"`
}

// MergeRules configure when a change request may be merged.
type MergeRules struct {
	Type  MergeRulesType `json:"type"`
	Rules []*MergeRule   `json:"rules,omitempty"`
}

// MergeRule is one rule: some name users, custom takes an expression.
type MergeRule struct {
	Rule       MergeRuleKind `json:"rule"`
	Users      []string      `json:"users,omitempty"`
	Expression *string       `json:"expression,omitempty"`
}

// MarshalJSON keeps "rules" present (possibly empty) for the rules type, as the contract requires.
func (m MergeRules) MarshalJSON() ([]byte, error) {
	if m.Type == MergeRulesRules && m.Rules == nil {
		m.Rules = []*MergeRule{}
	}
	type plain MergeRules
	if m.Type == MergeRulesRules {
		return json.Marshal(struct {
			Type  MergeRulesType `json:"type"`
			Rules []*MergeRule   `json:"rules"`
		}{m.Type, m.Rules})
	}
	return json.Marshal(plain(m))
}

// Member is a user's membership of an organization. Role nil is a guest.
type Member struct {
	Object     string      `json:"object"`
	ID         string      `json:"id"`
	Role       *MemberRole `json:"role"`
	User       *User       `json:"user"`
	Disabled   bool        `json:"disabled"`
	JoinedAt   time.Time   `json:"joinedAt"`
	LastSeenAt *time.Time  `json:"lastSeenAt,omitempty"`
	SSO        bool        `json:"sso"`
	Spaces     int         `json:"spaces"`
	Teams      int         `json:"teams"`

	OrganizationID string `json:"-"`
}

// InviteLink lets whoever holds its id join an organization with its role, or join it as a
// guest with Level on one space or collection.
type InviteLink struct {
	Object     string      `json:"object"`
	ID         string      `json:"id"`
	Role       *MemberRole `json:"role"`
	Level      *MemberRole `json:"level,omitempty"`
	Redundant  bool        `json:"redundant"`
	Space      *Space      `json:"space,omitempty"`
	Collection *Collection `json:"collection,omitempty"`
	CreatedAt  time.Time   `json:"-"`
}

// MarshalJSON writes the contract's variant: {role} for the organization, {level, space} or
// {level, collection} for content.
func (l InviteLink) MarshalJSON() ([]byte, error) {
	type plain InviteLink
	if l.Space == nil && l.Collection == nil {
		return json.Marshal(struct {
			plain
			Level *MemberRole `json:"level,omitempty"`
		}{plain: plain(l)})
	}
	return json.Marshal(struct {
		plain
		Role  *MemberRole `json:"role,omitempty"`
		Level *MemberRole `json:"level"`
	}{plain: plain(l), Level: l.Level})
}

// InviteUsersResult reports an invitation by e-mail: the users who became members.
type InviteUsersResult struct {
	Users   []string `json:"users"`
	Invited int      `json:"invited"`
}

// PingResult answers a member's ping. Both names of the visitor-claims token are emitted (the
// product spec's and the public contract's); no token is issued until sites carry visitor claims.
type PingResult struct {
	ServiceVisitorClaims *string `json:"serviceVisitorClaims,omitempty"`
	GitbookVisitorClaims *string `json:"gitbookVisitorClaims,omitempty"`
}

// AgentInstructions are an organization's instructions for AI agents.
type AgentInstructions struct {
	Object       string       `json:"object"`
	Instructions Document     `json:"instructions"`
	UpdatedAt    time.Time    `json:"updatedAt"`
	UpdatedBy    string       `json:"updatedBy"`
	URLs         LocationURLs `json:"urls"`
}

// LocationURLs is the {location} object many resources carry.
type LocationURLs struct {
	Location string `json:"location"`
}

// Session is one of the viewer's browser sessions (domain/account).
type Session struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
	UserAgent  string    `json:"userAgent"`
	Address    string    `json:"address"`
	Current    bool      `json:"current"`
}
