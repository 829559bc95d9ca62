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
	// SearchKey is the folded name and e-mail that searches match: folded in Go because SQLite's
	// LOWER only knows ASCII.
	SearchKey string
	CreatedAt time.Time
}

// APIToken is a bearer token, kept only as its hash.
type APIToken struct {
	bun.BaseModel `bun:"table:api_tokens,alias:t"`

	ID        string `bun:"id,pk"`
	UserID    string
	TokenHash string
	CreatedAt time.Time
	ExpiresAt *time.Time
	// Scopes is a JSON array of scopes (nil: the token may do all its user may).
	Scopes *string
	// InstallationID ties the token to an integration installation (nil: the user's own).
	InstallationID *string
	// User is loaded by FindToken.
	User *User `bun:"rel:belongs-to,join:user_id=id"`
	// LastUsedAt is when the token last authenticated a request, to a minute (see TouchToken).
	LastUsedAt *time.Time
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

// InviteLink lets whoever holds its id join an organization with its role, or (with a target)
// join it as a guest with the role on one space or collection.
type InviteLink struct {
	bun.BaseModel `bun:"table:organization_invite_links,alias:il"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Role           *string
	TargetKind     *string // TargetSpace, TargetCollection, or nil for the organization
	TargetID       *string
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

// Collection groups spaces (and other collections) and passes its access down to them.
type Collection struct {
	bun.BaseModel `bun:"table:collections,alias:c"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	ParentID       *string
	Title          string
	Description    *string
	DefaultLevel   *string // "inherit", a role, or nil: no access beyond grants
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Space is a unit of content with its own history and access.
type Space struct {
	bun.BaseModel `bun:"table:spaces,alias:s"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	CollectionID   *string
	Title          string
	Emoji          string
	IconURL        *string
	EditMode       string
	Language       *string
	DefaultLevel   *string // "inherit", a role, or nil: no access beyond grants
	MergeRules     string  // JSON, owned by the API layer
	RevisionID     string
	RevisionSeq    int64   // sequence of RevisionID on the space's line
	IsTemplate     bool    // offered as a template to the organization's spaces
	GitSync        *string // JSON: the Git Sync set-up (gitsync.go), nil until a sync
	CreatedAt      time.Time
	UpdatedAt      time.Time
	DeletedAt      *time.Time `bun:",nullzero"`
}

// Revision is an immutable snapshot of a space's content: the state of a line (the space's, or a
// change request's) at a sequence number. See View.
type Revision struct {
	bun.BaseModel `bun:"table:revisions,alias:r"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	SpaceID         string
	Line            string // the space id, or the change request id
	Seq             int64
	BaseSeq         *int64 // change request revisions: the space sequence they are layered on
	Type            string // edits, merge, update
	Parents         string // JSON array of revision ids
	ChangeRequestID *string
	MergedFrom      *string // merge revisions: the change request merged
	CreatedBy       *string
	Git             *string // JSON: the Git commit the revision was imported from or exported to
	CreatedAt       time.Time
}

// Team is a named group of members that can be granted access together.
type Team struct {
	bun.BaseModel `bun:"table:teams,alias:tm"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	Title          string
	TitleKey       string // the folded title that title filters match
	CreatedAt      time.Time
	// Members is counted by the queries that list teams.
	Members int `bun:",scanonly"`
	// MemberRole is a listed member's role in the team, when a query lists one member's teams.
	MemberRole string `bun:",scanonly"`
	// MemberUserID is that member, when a query lists several members' teams.
	MemberUserID string `bun:",scanonly"`
}

// TeamMember is a user's membership of a team, as owner or member.
type TeamMember struct {
	bun.BaseModel `bun:"table:team_members,alias:tmm"`

	TeamID         string `bun:"team_id,pk"`
	OrganizationID string
	UserID         string `bun:"user_id,pk"`
	Role           string
	CreatedAt      time.Time

	Member *Member `bun:"rel:belongs-to,join:organization_id=organization_id,join:user_id=user_id"`
}

// Grant gives a user or a team a role on a space or a collection.
type Grant struct {
	bun.BaseModel `bun:"table:content_grants,alias:g"`

	OrganizationID string
	TargetKind     string `bun:"target_kind,pk"` // "space" or "collection"
	TargetID       string `bun:"target_id,pk"`
	PrincipalKind  string `bun:"principal_kind,pk"` // "user" or "team"
	PrincipalID    string `bun:"principal_id,pk"`
	Role           string
	CreatedAt      time.Time
}

// The kinds of grant targets and principals.
const (
	TargetSpace      = "space"
	TargetCollection = "collection"
	PrincipalUser    = "user"
	PrincipalTeam    = "team"
)

// Site publishes spaces to readers.
type Site struct {
	bun.BaseModel `bun:"table:sites,alias:si"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	Title           string
	TitleKey        string // the folded title that title filters match
	Type            string
	Visibility      string
	Basename        *string
	AgentsContext   string
	AdaptiveContent bool
	CreatedAt       time.Time
	UpdatedAt       time.Time
	// SiteSpaces is counted by the queries that read sites.
	SiteSpaces int `bun:",scanonly"`
}

// SiteSpace publishes one space on a site, at a path.
type SiteSpace struct {
	bun.BaseModel `bun:"table:site_spaces,alias:ss"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	SpaceID        string
	// SectionID is the section the site space belongs to; nil at the root of a site without
	// sections.
	SectionID *string
	Path      string
	Condition *string
	// IsDefault marks the default site space of its section (or of the site without sections).
	IsDefault bool
	// Position orders the site spaces of one section (or of the root).
	Position  int
	CreatedAt time.Time
}

// SiteSection groups site spaces under a path of a site.
type SiteSection struct {
	bun.BaseModel `bun:"table:site_sections,alias:sc"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	GroupID        *string // nil: at the site's root
	Title          string
	Path           string
	Description    *string
	Icon           *string
	Condition      *string
	IsDefault      bool
	Position       int // shared with the groups of the same parent
	CreatedAt      time.Time
}

// SiteSectionGroup groups sections and other groups of a site.
type SiteSectionGroup struct {
	bun.BaseModel `bun:"table:site_section_groups,alias:sg"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	ParentID       *string // nil: at the site's root
	Title          string
	Icon           *string
	Position       int // shared with the sections of the same parent
	CreatedAt      time.Time
}

// ShareLink publishes a site to whoever holds its key.
type ShareLink struct {
	bun.BaseModel `bun:"table:site_share_links,alias:sl"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	Name           string
	ShareKey       string
	Active         bool
	CreatedAt      time.Time
}
