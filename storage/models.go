package storage

import (
	"time"

	"github.com/uptrace/bun"
)

// User is a person who can sign in with API tokens.
type User struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID            string  `bun:"id,pk"`
	DisplayName   string  `bun:"display_name"`
	Email         string  `bun:"email"`
	EmailVerified bool    `bun:"email_verified"`
	PhotoURL      *string `bun:"photo_url"`
	CreatedAt     time.Time
}

// APIToken is a bearer token, kept only as its hash.
type APIToken struct {
	bun.BaseModel `bun:"table:api_tokens,alias:t"`

	ID        string `bun:"id,pk"`
	UserID    string
	TokenHash string
	CreatedAt time.Time
	ExpiresAt *time.Time
}

// Organization is a tenant: every other row that belongs to one carries its id.
type Organization struct {
	bun.BaseModel `bun:"table:organizations,alias:o"`

	ID                 string `bun:"id,pk"`
	Title              string
	Type               string
	UseCase            *string
	CommunityType      *string
	Hostname           *string
	EmailDomains       []string `bun:"email_domains,type:text"`
	DefaultRole        *string
	DefaultContentSite *string
	LogoURL            *string
	SSO                bool `bun:"sso"`
	AI                 bool `bun:"ai"`
	InviteLinks        bool
	Plan               string
	MergeRules         string // JSON, owned by the API layer
	CreatedAt          time.Time
	UpdatedAt          time.Time
}

// Member is a user's membership of an organization. Role nil is a guest.
type Member struct {
	bun.BaseModel `bun:"table:organization_members,alias:m"`

	OrganizationID string `bun:"organization_id,pk"`
	UserID         string `bun:"user_id,pk"`
	Role           *string
	Disabled       bool
	SSO            bool `bun:"sso"`
	JoinedAt       time.Time
	LastSeenAt     *time.Time

	User         *User         `bun:"rel:belongs-to,join:user_id=id"`
	Organization *Organization `bun:"rel:belongs-to,join:organization_id=id"`
}

// InviteLink lets whoever holds its id join an organization with its role.
type InviteLink struct {
	bun.BaseModel `bun:"table:organization_invite_links,alias:il"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Role           *string
	CreatedBy      string
	CreatedAt      time.Time
	// Redundant: an older link of the same organization grants the same role.
	Redundant bool `bun:",scanonly"`
}

// AgentInstructions are an organization's instructions for AI agents, a rich-text document kept
// as JSON.
type AgentInstructions struct {
	bun.BaseModel `bun:"table:organization_agent_instructions,alias:ai"`

	OrganizationID string `bun:"organization_id,pk"`
	Instructions   string // JSON document
	UpdatedBy      string
	UpdatedAt      time.Time
}
