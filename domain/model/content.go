package model

import (
	"io"
	"slices"
	"time"
)

// DefaultLevel is the access members get to content without a grant of their own: a role, or
// "inherit" from the parent collection (or the organization). A nil *DefaultLevel is the
// contract's null: no access beyond grants.
type DefaultLevel string

// DefaultLevelInherit defers to the parent collection, or the organization.
const DefaultLevelInherit DefaultLevel = "inherit"

var defaultLevels = append([]DefaultLevel{DefaultLevelInherit}, asLevels(MemberRoles)...)

func asLevels(roles []MemberRole) []DefaultLevel {
	out := make([]DefaultLevel, len(roles))
	for i, r := range roles {
		out[i] = DefaultLevel(r)
	}
	return out
}

func (e DefaultLevel) IsValid() bool             { return slices.Contains(defaultLevels, e) }
func (e DefaultLevel) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *DefaultLevel) UnmarshalGQL(v any) error { return unmarshalEnum(v, defaultLevels, e) }

// SpaceEditMode tells whether a space is edited directly (live) or only through change requests.
type SpaceEditMode string

var spaceEditModes = []SpaceEditMode{"live", "locked"}

func (e SpaceEditMode) IsValid() bool             { return slices.Contains(spaceEditModes, e) }
func (e SpaceEditMode) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *SpaceEditMode) UnmarshalGQL(v any) error { return unmarshalEnum(v, spaceEditModes, e) }

// ContentVisibility is who can read published content.
type ContentVisibility string

var contentVisibilities = []ContentVisibility{"public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"}

func (e ContentVisibility) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *ContentVisibility) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, contentVisibilities, e)
}

// Language is a content language code.
type Language string

var languages = []Language{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"}

func (e Language) IsValid() bool             { return slices.Contains(languages, e) }
func (e Language) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *Language) UnmarshalGQL(v any) error { return unmarshalEnum(v, languages, e) }

// TeamMemberRole is a role inside a team.
type TeamMemberRole string

// The team roles: owners manage the team's members.
const (
	TeamMemberRoleOwner  TeamMemberRole = "owner"
	TeamMemberRoleMember TeamMemberRole = "member"
)

var teamMemberRoles = []TeamMemberRole{TeamMemberRoleOwner, TeamMemberRoleMember}

func (e TeamMemberRole) IsValid() bool             { return slices.Contains(teamMemberRoles, e) }
func (e TeamMemberRole) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *TeamMemberRole) UnmarshalGQL(v any) error { return unmarshalEnum(v, teamMemberRoles, e) }

// Space is a unit of content, seen by one caller: Permissions are theirs.
type Space struct {
	Object              string            `json:"object"`
	ID                  string            `json:"id"`
	Title               string            `json:"title"`
	Emoji               string            `json:"emoji"`
	Visibility          ContentVisibility `json:"visibility"`
	CreatedAt           time.Time         `json:"createdAt"`
	UpdatedAt           time.Time         `json:"updatedAt"`
	DeletedAt           *time.Time        `json:"deletedAt,omitempty"`
	EditMode            SpaceEditMode     `json:"editMode"`
	MergeRules          MergeRules        `json:"mergeRules"`
	URLs                SpaceURLs         `json:"urls"`
	Organization        string            `json:"organization"`
	Parent              *string           `json:"parent,omitempty"`
	Language            *Language         `json:"language,omitempty"`
	GitSync             *GitSyncState     `json:"gitSync,omitempty"`
	Revision            string            `json:"revision"`
	DefaultLevel        *DefaultLevel     `json:"defaultLevel"`
	Comments            int               `json:"comments"`
	ChangeRequests      int               `json:"changeRequests"`
	ChangeRequestsOpen  int               `json:"changeRequestsOpen"`
	ChangeRequestsDraft int               `json:"changeRequestsDraft"`
	Permissions         SpacePermissions  `json:"permissions"`

	// IsTemplate offers the space as a template to its organization (GraphQL only).
	IsTemplate bool `json:"-"`
	// ViewerRole is the caller's effective role, for resolvers; never encoded.
	ViewerRole *MemberRole `json:"-"`
}

// SpaceURLs are a space's addresses.
type SpaceURLs struct {
	Location string  `json:"location"`
	App      string  `json:"app"`
	Icon     *string `json:"icon,omitempty"`
}

// SpacePermissions are what the caller may do in a space.
type SpacePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Admin              bool `json:"admin"`
	ViewInviteLinks    bool `json:"viewInviteLinks"`
	Edit               bool `json:"edit"`
	TriggerGitSync     bool `json:"triggerGitSync"`
	Comment            bool `json:"comment"`
	Merge              bool `json:"merge"`
	Review             bool `json:"review"`
	InstallIntegration bool `json:"installIntegration"`
}

// Collection groups spaces and passes access down to them.
type Collection struct {
	Object       string                `json:"object"`
	ID           string                `json:"id"`
	Title        string                `json:"title"`
	Description  *string               `json:"description,omitempty"`
	Organization string                `json:"organization"`
	Parent       *string               `json:"parent,omitempty"`
	DefaultLevel *DefaultLevel         `json:"defaultLevel"`
	URLs         LocationAppURLs       `json:"urls"`
	Permissions  CollectionPermissions `json:"permissions"`

	ViewerRole *MemberRole `json:"-"`
	CreatedAt  time.Time   `json:"-"`
}

// LocationAppURLs is the {location, app} object.
type LocationAppURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

// CollectionPermissions are what the caller may do in a collection.
type CollectionPermissions struct {
	View            bool `json:"view"`
	Admin           bool `json:"admin"`
	ViewInviteLinks bool `json:"viewInviteLinks"`
	Create          bool `json:"create"`
}

// Team is a group of members (the contract's OrganizationTeam).
type Team struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Members     int             `json:"members"`
	Spaces      int             `json:"spaces"`
	CreatedAt   time.Time       `json:"createdAt"`
	Permissions TeamPermissions `json:"permissions"`

	OrganizationID string `json:"-"`
}

// TeamPermissions are what the caller may do with a team.
type TeamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// TeamRole is a member's role inside a team ({role}).
type TeamRole struct {
	Role TeamMemberRole `json:"role"`
}

// TeamMember is one member of a team.
type TeamMember struct {
	Organization *Member          `json:"organization"`
	Team         TeamRole         `json:"team"`
	Permissions  TeamMemberAccess `json:"permissions"`
}

// TeamMemberAccess tells whether the caller may view a team member.
type TeamMemberAccess struct {
	View bool `json:"view"`
}

// MemberTeam is one team of a member, with the member's role in it.
type MemberTeam struct {
	Team   *Team    `json:"team"`
	Member TeamRole `json:"member"`
}

// MemberSpace is one space a member can access, with their effective role.
type MemberSpace struct {
	Permission MemberRole `json:"permission"`
	Space      *Space     `json:"space"`
}

// TeamGrant is a team's role on a space or collection.
type TeamGrant struct {
	Permission MemberRole `json:"permission"`
	Team       *Team      `json:"team"`
}

// UserGrant is a user's own role on a space or collection.
type UserGrant struct {
	Permission MemberRole `json:"permission"`
	User       *User      `json:"user"`
}

// The connections of the content graph.
type (
	SpaceConnection       = Connection[*Space]
	SpaceEdge             = Edge[*Space]
	CollectionConnection  = Connection[*Collection]
	CollectionEdge        = Edge[*Collection]
	TeamConnection        = Connection[*Team]
	TeamEdge              = Edge[*Team]
	TeamMemberConnection  = Connection[*TeamMember]
	TeamMemberEdge        = Edge[*TeamMember]
	MemberTeamConnection  = Connection[*MemberTeam]
	MemberTeamEdge        = Edge[*MemberTeam]
	MemberSpaceConnection = Connection[*MemberSpace]
	MemberSpaceEdge       = Edge[*MemberSpace]
	TeamGrantConnection   = Connection[*TeamGrant]
	TeamGrantEdge         = Edge[*TeamGrant]
	UserGrantConnection   = Connection[*UserGrant]
	UserGrantEdge         = Edge[*UserGrant]
)
