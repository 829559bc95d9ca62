package model

import (
	"io"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/opt"
)

// SiteType is a site's plan.
type SiteType string

// SiteTypeSelfHosted is the type of sites on a self-hosted Bindery: every feature.
const SiteTypeSelfHosted SiteType = "ultimate"

var siteTypes = []SiteType{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"}

func (e SiteType) IsValid() bool             { return slices.Contains(siteTypes, e) }
func (e SiteType) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *SiteType) UnmarshalGQL(v any) error { return unmarshalEnum(v, siteTypes, e) }

// SiteVisibility is who may read a published site.
type SiteVisibility string

var siteVisibilities = []SiteVisibility{"public", "unlisted", "share-link", "visitor-auth"}

func (e SiteVisibility) IsValid() bool             { return slices.Contains(siteVisibilities, e) }
func (e SiteVisibility) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *SiteVisibility) UnmarshalGQL(v any) error { return unmarshalEnum(v, siteVisibilities, e) }

// SiteAgentsContext tells whether AI agents may read the site.
type SiteAgentsContext string

var siteAgentsContexts = []SiteAgentsContext{"excluded", "included"}

func (e SiteAgentsContext) IsValid() bool          { return slices.Contains(siteAgentsContexts, e) }
func (e SiteAgentsContext) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *SiteAgentsContext) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, siteAgentsContexts, e)
}

// Site publishes spaces to readers.
type Site struct {
	Object          string              `json:"object"`
	ID              string              `json:"id"`
	Type            SiteType            `json:"type"`
	Title           string              `json:"title"`
	Basename        *string             `json:"basename,omitempty"`
	Visibility      SiteVisibility      `json:"visibility"`
	Published       bool                `json:"published"`
	SiteSpaces      int                 `json:"siteSpaces"`
	CreatedAt       time.Time           `json:"createdAt"`
	AdaptiveContent SiteAdaptiveContent `json:"adaptiveContent"`
	AgentsContext   SiteAgentsContext   `json:"agentsContext"`
	Features        []SiteFeature       `json:"features"`
	URLs            SiteURLs            `json:"urls"`

	OrganizationID string `json:"-"`
	// Hostname is the site's own host name, once its DNS points here.
	Hostname *string `json:"-"`
}

// SiteAdaptiveContent tells whether a site adapts its content to visitors.
type SiteAdaptiveContent struct {
	Enabled bool `json:"enabled"`
}

// SiteFeature is a feature of a site's plan. A self-hosted site has every feature, so none is
// listed as a plan limit.
type SiteFeature struct {
	ID     string   `json:"id"`
	Plan   SiteType `json:"plan"`
	Frozen bool     `json:"frozen"`
}

// SiteURLs are a site's addresses; Published only once it publishes something.
type SiteURLs struct {
	Location  string  `json:"location"`
	App       string  `json:"app"`
	Published *string `json:"published,omitempty"`
}

// SiteSpace publishes one space on a site, at a path.
type SiteSpace struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	Path      string        `json:"path"`
	Section   *string       `json:"section,omitempty"`
	Space     *Space        `json:"space"`
	Title     string        `json:"title"`
	Default   bool          `json:"default"`
	Condition *string       `json:"condition,omitempty"`
	URLs      PublishedURLs `json:"urls"`
}

// PublishedURLs is the {published} object of published things.
type PublishedURLs struct {
	Published *string `json:"published,omitempty"`
}

// ShareLink publishes a site to whoever holds it.
type ShareLink struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	CreatedAt time.Time     `json:"createdAt"`
	Name      string        `json:"name"`
	Active    bool          `json:"active"`
	URLs      PublishedURLs `json:"urls"`
}

// The connections of sites.
type (
	SiteConnection      = Connection[*Site]
	SiteEdge            = Edge[*Site]
	SiteSpaceConnection = Connection[*SiteSpace]
	SiteSpaceEdge       = Edge[*SiteSpace]
	ShareLinkConnection = Connection[*ShareLink]
	ShareLinkEdge       = Edge[*ShareLink]
)

// CreateSiteInput creates a site, optionally publishing spaces at once.
type CreateSiteInput struct {
	Type       *SiteType       `json:"type"`
	Title      *string         `json:"title"`
	Visibility *SiteVisibility `json:"visibility"`
	Spaces     []string        `json:"spaces"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateSiteInput) Validate() error {
	if in.Type != nil && !in.Type.IsValid() {
		return apperr.Invalidf("type", "%q is not a site type", *in.Type)
	}
	if in.Title != nil {
		if err := length("title", *in.Title, 2, 128); err != nil {
			return err
		}
	}
	if in.Visibility != nil && !in.Visibility.IsValid() {
		return apperr.Invalidf("visibility", "%q is not a site visibility", *in.Visibility)
	}
	if len(in.Spaces) > MaxInvites {
		return apperr.Invalidf("spaces", "at most %d per request", MaxInvites)
	}
	return nil
}

// UpdateSiteInput changes a site; absent fields stay as they are.
type UpdateSiteInput struct {
	Title              opt.Field[*string]              `json:"title"`
	Visibility         opt.Field[*SiteVisibility]      `json:"visibility"`
	Basename           opt.Field[*string]              `json:"basename"`
	AdaptiveContent    opt.Field[*SiteAdaptiveContent] `json:"adaptiveContent"`
	AgentsContext      opt.Field[*SiteAgentsContext]   `json:"agentsContext"`
	DefaultSiteSpace   opt.Field[*string]              `json:"defaultSiteSpace"`
	DefaultSiteSection opt.Field[*string]              `json:"defaultSiteSection"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *UpdateSiteInput) Validate() error {
	if v, set := in.Title.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("title", "cannot be null")
		}
		if err := length("title", *v, 2, 128); err != nil {
			return err
		}
	}
	if v, set := in.Visibility.ValueOK(); set && (v == nil || !v.IsValid()) {
		return apperr.Invalidf("visibility", "must be public, unlisted, share-link or visitor-auth")
	}
	if v := in.Basename.Value(); v != nil {
		if err := length("basename", *v, 1, 100); err != nil {
			return err
		}
		if !pathPattern.MatchString(*v) {
			return apperr.Invalidf("basename", "use lowercase letters, digits and inner hyphens")
		}
	}
	if v, set := in.AdaptiveContent.ValueOK(); set && v == nil {
		return apperr.Invalidf("adaptiveContent", "cannot be null")
	}
	if v, set := in.AgentsContext.ValueOK(); set && (v == nil || !v.IsValid()) {
		return apperr.Invalidf("agentsContext", `must be "excluded" or "included"`)
	}
	if v, set := in.DefaultSiteSpace.ValueOK(); set && v == nil {
		return apperr.Invalidf("defaultSiteSpace", "cannot be null: a published site always has a default one")
	}
	if v, set := in.DefaultSiteSection.ValueOK(); set && v == nil {
		return apperr.Invalidf("defaultSiteSection", "cannot be null: a site with sections always has a default one")
	}
	return nil
}

// AddSiteSpaceInput publishes a space on a site.
type AddSiteSpaceInput struct {
	SpaceID   string  `json:"spaceId"`
	SectionID *string `json:"sectionId"`
}

// Validate checks the input. Errors: Invalid.
func (in *AddSiteSpaceInput) Validate() error {
	if in.SpaceID == "" {
		return apperr.Invalidf("spaceId", "is required")
	}
	return nil
}

// UpdateSiteSpaceInput changes a site space; absent fields stay, a null condition is removed.
type UpdateSiteSpaceInput struct {
	Path      *string            `json:"path"`
	Condition opt.Field[*string] `json:"condition"`
	SpaceID   *string            `json:"spaceId"`
}

// Validate checks the contract's limits; the condition's expression is checked by its
// resolver. Errors: Invalid.
func (in *UpdateSiteSpaceInput) Validate() error {
	if in.Path != nil {
		if err := ValidPath("path", *in.Path); err != nil {
			return err
		}
	}
	if v := in.Condition.Value(); v != nil {
		if err := length("condition", *v, 1, 1024); err != nil {
			return err
		}
	}
	return nil
}

// ValidPath checks a published path segment. Errors: Invalid.
func ValidPath(field, p string) error {
	if err := length(field, p, 1, 100); err != nil {
		return err
	}
	if !pathPattern.MatchString(p) {
		return apperr.Invalidf(field, "%q: use lowercase letters, digits and inner hyphens", p)
	}
	return nil
}

// CreateShareLinkInput names a new share link.
type CreateShareLinkInput struct {
	Name *string `json:"name"`
}

// Validate checks the name. Errors: Invalid.
func (in *CreateShareLinkInput) Validate() error {
	if in.Name == nil {
		return apperr.Invalidf("name", "is required")
	}
	return length("name", *in.Name, 0, 50)
}

// UpdateShareLinkInput renames or (de)activates a share link.
type UpdateShareLinkInput struct {
	Active *bool   `json:"active"`
	Name   *string `json:"name"`
}

// Validate checks the name. Errors: Invalid.
func (in *UpdateShareLinkInput) Validate() error {
	if in.Name != nil {
		return length("name", *in.Name, 0, 50)
	}
	return nil
}

// StructurePointer names an item of a site's structure.
type StructurePointer struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// StructurePosition places an item before or after another.
type StructurePosition struct {
	Before *StructurePointer `json:"before"`
	After  *StructurePointer `json:"after"`
}

// SortSiteStructureInput moves one item of a site's structure.
type SortSiteStructureInput struct {
	Item     *StructurePointer  `json:"item"`
	Position *StructurePosition `json:"position"`
}

// Validate checks the pointers. Errors: Invalid.
func (in *SortSiteStructureInput) Validate() error {
	if in.Item == nil || in.Item.ID == "" {
		return apperr.Invalidf("item", "is required: {type, id}")
	}
	if in.Position == nil || (in.Position.Before == nil) == (in.Position.After == nil) {
		return apperr.Invalidf("position", "give exactly one of before and after")
	}
	for field, p := range map[string]*StructurePointer{"item": in.Item, "position.before": in.Position.Before, "position.after": in.Position.After} {
		if p == nil {
			continue
		}
		switch p.Type {
		case "site-space", "site-section", "site-section-group":
		default:
			return apperr.Invalidf(field+".type", "must be site-space, site-section or site-section-group")
		}
	}
	anchor := in.Anchor()
	if (in.Item.Type == "site-space") != (anchor.Type == "site-space") {
		return apperr.Invalidf("position", "a site space moves among the site spaces of its section, and a section or group among sections and groups")
	}
	if anchor.ID == "" && anchor.Type != "site-space" {
		return apperr.Invalidf("position", "name the section or group to move next to: {type, id}")
	}
	return nil
}

// Anchor is the item the sort places the moved one next to, and whether after it.
func (in *SortSiteStructureInput) Anchor() *StructurePointer {
	if in.Position.Before != nil {
		return in.Position.Before
	}
	return in.Position.After
}

// ConditionCheck reports whether a visitor condition compiles to a boolean expression.
type ConditionCheck struct {
	Valid bool    `json:"valid"`
	Error *string `json:"error,omitempty"`
}
