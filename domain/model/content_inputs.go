package model

import (
	"encoding/json"
	"fmt"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/opt"
)

// CreateSpaceInput creates a space, optionally inside a collection.
type CreateSpaceInput struct {
	Title    *string        `json:"title"`
	Emoji    *string        `json:"emoji"`
	Parent   *string        `json:"parent"`
	Language *Language      `json:"language"`
	EditMode *SpaceEditMode `json:"editMode"`
	// Template and ComputedSource start a space with content: they arrive with content
	// templates and computed content; until then they are refused rather than ignored.
	Template       json.RawMessage `json:"template"`
	ComputedSource json.RawMessage `json:"computedSource"`
	Empty          *bool           `json:"empty"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateSpaceInput) Validate() error {
	if in.Title != nil {
		if err := length("title", *in.Title, 0, 50); err != nil {
			return err
		}
	}
	if in.Emoji != nil {
		if err := length("emoji", *in.Emoji, 0, 50); err != nil {
			return err
		}
	}
	if in.Language != nil && !in.Language.IsValid() {
		return apperr.Invalidf("language", "%q is not a supported language", *in.Language)
	}
	if in.EditMode != nil && !in.EditMode.IsValid() {
		return apperr.Invalidf("editMode", `must be "live" or "locked"`)
	}
	if len(in.Template) > 0 && string(in.Template) != "null" {
		return apperr.Invalidf("template", "starting a space from a template is not available yet")
	}
	if len(in.ComputedSource) > 0 && string(in.ComputedSource) != "null" {
		return apperr.Invalidf("computedSource", "computed content is not available yet")
	}
	return nil
}

// UpdateSpaceInput changes a space; absent fields stay as they are. Emoji and icon are
// exclusive; null clears either.
type UpdateSpaceInput struct {
	Title        opt.Field[*string]        `json:"title"`
	Emoji        opt.Field[*string]        `json:"emoji"`
	Icon         opt.Field[*string]        `json:"icon"`
	EditMode     opt.Field[*SpaceEditMode] `json:"editMode"`
	DefaultLevel opt.Field[*DefaultLevel]  `json:"defaultLevel"`
	Language     opt.Field[*Language]      `json:"language"`
	MergeRules   opt.Field[*MergeRules]    `json:"mergeRules"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *UpdateSpaceInput) Validate() error {
	if v, set := in.Title.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("title", "cannot be null")
		}
		if err := length("title", *v, 0, 50); err != nil {
			return err
		}
	}
	emoji, icon := in.Emoji.Value(), in.Icon.Value()
	if emoji != nil && icon != nil {
		return apperr.Invalidf("icon", "a space has an emoji or an icon, not both")
	}
	if emoji != nil {
		if err := length("emoji", *emoji, 0, 50); err != nil {
			return err
		}
	}
	if icon != nil {
		if err := validURL("icon", *icon); err != nil {
			return err
		}
	}
	if v, set := in.EditMode.ValueOK(); set && (v == nil || !v.IsValid()) {
		return apperr.Invalidf("editMode", `must be "live" or "locked"`)
	}
	if v, set := in.DefaultLevel.ValueOK(); set && v != nil && !v.IsValid() {
		return apperr.Invalidf("defaultLevel", "must be a role, \"inherit\" or null")
	}
	if v, set := in.Language.ValueOK(); set && v != nil && !v.IsValid() {
		return apperr.Invalidf("language", "%q is not a supported language", *v)
	}
	if v, set := in.MergeRules.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("mergeRules", "cannot be null")
		}
		return v.validate("mergeRules", true)
	}
	return nil
}

// CreateCollectionInput creates a collection, optionally inside another.
type CreateCollectionInput struct {
	Title  *string `json:"title"`
	Parent *string `json:"parent"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateCollectionInput) Validate() error {
	if in.Title != nil {
		return length("title", *in.Title, 0, 50)
	}
	return nil
}

// UpdateCollectionInput changes a collection; absent fields stay as they are.
type UpdateCollectionInput struct {
	Title        opt.Field[*string]       `json:"title"`
	Description  opt.Field[*string]       `json:"description"`
	DefaultLevel opt.Field[*DefaultLevel] `json:"defaultLevel"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *UpdateCollectionInput) Validate() error {
	if v, set := in.Title.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("title", "cannot be null")
		}
		if err := length("title", *v, 0, 50); err != nil {
			return err
		}
	}
	if v := in.Description.Value(); v != nil {
		if err := length("description", *v, 0, 100); err != nil {
			return err
		}
	}
	if v, set := in.DefaultLevel.ValueOK(); set && v != nil && !v.IsValid() {
		return apperr.Invalidf("defaultLevel", "must be a role, \"inherit\" or null")
	}
	return nil
}

// CreateTeamInput creates a team with optional first members (user ids).
type CreateTeamInput struct {
	Title   string   `json:"title"`
	Members []string `json:"members"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateTeamInput) Validate() error {
	if len(in.Members) > MaxInvites {
		return apperr.Invalidf("members", "at most %d per request", MaxInvites)
	}
	return length("title", in.Title, 1, 64)
}

// UpdateTeamInput renames a team.
type UpdateTeamInput struct {
	Title string `json:"title"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *UpdateTeamInput) Validate() error { return length("title", in.Title, 1, 64) }

// UpdateTeamMembersInput adds and removes members (each a user id or an e-mail) and sets roles.
// REST sends roles as "memberships": {userId: {role}}; GraphQL as a list in "roles".
type UpdateTeamMembersInput struct {
	Add         []string               `json:"add"`
	Remove      []string               `json:"remove"`
	Memberships map[string]TeamRole    `json:"memberships"`
	Roles       []*TeamMembershipInput `json:"-"`
}

// TeamMembershipInput sets one member's role in a team.
type TeamMembershipInput struct {
	User string         `json:"user"`
	Role TeamMemberRole `json:"role"`
}

// RoleByUser merges both spellings of the roles.
func (in *UpdateTeamMembersInput) RoleByUser() map[string]TeamMemberRole {
	out := map[string]TeamMemberRole{}
	for u, r := range in.Memberships {
		out[u] = r.Role
	}
	for _, r := range in.Roles {
		out[r.User] = r.Role
	}
	return out
}

// Validate checks sizes and roles. Errors: Invalid.
func (in *UpdateTeamMembersInput) Validate() error {
	if len(in.Add)+len(in.Remove)+len(in.Memberships)+len(in.Roles) > 10*MaxInvites {
		return apperr.Invalidf("", "at most %d changes per request", 10*MaxInvites)
	}
	for u, r := range in.RoleByUser() {
		if !r.IsValid() {
			return apperr.Invalidf(fmt.Sprintf("memberships.%s.role", u), `must be "owner" or "member"`)
		}
	}
	return nil
}

// SetTeamMemberInput adds a member to a team or changes their role (default: member).
type SetTeamMemberInput struct {
	Role *TeamMemberRole `json:"role"`
}

// Validate checks the role. Errors: Invalid.
func (in *SetTeamMemberInput) Validate() error {
	if in.Role != nil && !in.Role.IsValid() {
		return apperr.Invalidf("role", `must be "owner" or "member"`)
	}
	return nil
}

// GrantAccessInput gives users and teams a role on a space or collection; a null role takes
// their grants away.
type GrantAccessInput struct {
	Role  opt.Field[*MemberRole] `json:"role"`
	Users []string               `json:"users"`
	Teams []string               `json:"teams"`
}

// Validate checks the role and the lists. Errors: Invalid.
func (in *GrantAccessInput) Validate() error {
	if !in.Role.IsSet() {
		return apperr.Invalidf("role", "is required (a role, or null to remove access)")
	}
	if v := in.Role.Value(); v != nil && !v.IsValid() {
		return apperr.Invalidf("role", "%q is not a role", *v)
	}
	if len(in.Users) == 0 && len(in.Teams) == 0 {
		return apperr.Invalidf("users", "name at least one user or team")
	}
	if len(in.Users)+len(in.Teams) > MaxInvites {
		return apperr.Invalidf("users", "at most %d users and teams per request", MaxInvites)
	}
	return nil
}

// UpdateGrantInput changes one user's or team's role on a space or collection; null removes it.
type UpdateGrantInput struct {
	Role opt.Field[*MemberRole] `json:"role"`
}

// Validate checks the role. Errors: Invalid.
func (in *UpdateGrantInput) Validate() error {
	if v := in.Role.Value(); v != nil && !v.IsValid() {
		return apperr.Invalidf("role", "%q is not a role", *v)
	}
	return nil
}
