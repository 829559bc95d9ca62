package model

import (
	"encoding/json"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/opt"
)

// SiteSection groups site spaces under a path of a site.
type SiteSection struct {
	Object       string        `json:"object"`
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Description  *string       `json:"description,omitempty"`
	Default      bool          `json:"default"`
	Path         string        `json:"path"`
	Condition    *string       `json:"condition,omitempty"`
	SectionGroup *string       `json:"sectionGroup,omitempty"`
	Icon         *string       `json:"icon,omitempty"`
	SiteSpaces   []*SiteSpace  `json:"siteSpaces"`
	URLs         PublishedURLs `json:"urls"`
}

// SiteSectionGroup groups sections and other groups of a site.
type SiteSectionGroup struct {
	Object       string  `json:"object"`
	ID           string  `json:"id"`
	Title        string  `json:"title"`
	SectionGroup *string `json:"sectionGroup,omitempty"`
	Icon         *string `json:"icon,omitempty"`
	// Sections are the sections directly in the group; the contract keeps them, deprecated, next
	// to Children.
	Sections []*SiteSection    `json:"sections"`
	Children []SiteSectionItem `json:"children"`
}

// SiteSectionItem is an item of a site with sections: a *SiteSection or a *SiteSectionGroup.
type SiteSectionItem interface{ isSiteSectionItem() }

// SiteStructureItem is what a sort moves: a *SiteSpace, *SiteSection or *SiteSectionGroup.
type SiteStructureItem interface{ isSiteStructureItem() }

func (*SiteSection) isSiteSectionItem()        {}
func (*SiteSectionGroup) isSiteSectionItem()   {}
func (*SiteSpace) isSiteStructureItem()        {}
func (*SiteSection) isSiteStructureItem()      {}
func (*SiteSectionGroup) isSiteStructureItem() {}

// The two variants of a site's structure.
const (
	StructureSections   = "sections"
	StructureSiteSpaces = "siteSpaces"
)

// SiteStructure is what readers navigate: the sections and groups of a site with sections
// (Type "sections"), or the site spaces of a site without (Type "siteSpaces"). REST shows either
// list as "structure"; GraphQL keeps them apart, typed.
type SiteStructure struct {
	Type      string
	Structure []*SiteSpace
	Sections  []SiteSectionItem
}

// MarshalJSON writes the contract's shape: {type, structure}.
func (s SiteStructure) MarshalJSON() ([]byte, error) {
	var items any = nonNil(s.Structure)
	if s.Type == StructureSections {
		items = nonNil(s.Sections)
	}
	return json.Marshal(struct {
		Type      string `json:"type"`
		Structure any    `json:"structure"`
	}{s.Type, items})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// The connections of sections and groups.
type (
	SiteSectionConnection      = Connection[*SiteSection]
	SiteSectionEdge            = Edge[*SiteSection]
	SiteSectionGroupConnection = Connection[*SiteSectionGroup]
	SiteSectionGroupEdge       = Edge[*SiteSectionGroup]
)

// CreateSiteSectionInput adds a section publishing a space.
type CreateSiteSectionInput struct {
	SpaceID string  `json:"spaceId"`
	Title   *string `json:"title"`
	Icon    *string `json:"icon"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateSiteSectionInput) Validate() error {
	if in.SpaceID == "" {
		return apperr.Invalidf("spaceId", "is required")
	}
	if in.Title != nil {
		if err := length("title", *in.Title, 2, 128); err != nil {
			return err
		}
	}
	return validIcon(in.Icon)
}

func validIcon(icon *string) error {
	if icon == nil {
		return nil
	}
	return length("icon", *icon, 1, 50)
}

// UpdateSiteSectionInput changes a section; absent fields stay, null clears condition, icon and
// description.
type UpdateSiteSectionInput struct {
	Title            opt.Field[*string] `json:"title"`
	Path             opt.Field[*string] `json:"path"`
	DefaultSiteSpace opt.Field[*string] `json:"defaultSiteSpace"`
	Condition        opt.Field[*string] `json:"condition"`
	Icon             opt.Field[*string] `json:"icon"`
	Description      opt.Field[*string] `json:"description"`
}

// Validate checks the contract's limits; the condition's expression is checked by its resolver.
// Errors: Invalid.
func (in *UpdateSiteSectionInput) Validate() error {
	for field, v := range map[string]opt.Field[*string]{"title": in.Title, "path": in.Path, "defaultSiteSpace": in.DefaultSiteSpace} {
		if p, set := v.ValueOK(); set && p == nil {
			return apperr.Invalidf(field, "cannot be null")
		}
	}
	if v := in.Title.Value(); v != nil {
		if err := length("title", *v, 2, 128); err != nil {
			return err
		}
	}
	if v := in.Path.Value(); v != nil {
		if err := ValidPath("path", *v); err != nil {
			return err
		}
	}
	if v := in.Condition.Value(); v != nil {
		if err := length("condition", *v, 1, 1024); err != nil {
			return err
		}
	}
	if v := in.Description.Value(); v != nil {
		if err := length("description", *v, 0, 256); err != nil {
			return err
		}
	}
	return validIcon(in.Icon.Value())
}

// CreateSiteSectionGroupInput adds a group, under parent (absent: the site's root), holding the
// given sections.
type CreateSiteSectionGroupInput struct {
	Title    string   `json:"title"`
	Icon     *string  `json:"icon"`
	Sections []string `json:"sections"`
	Parent   *string  `json:"parent"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *CreateSiteSectionGroupInput) Validate() error {
	if in.Title == "" {
		return apperr.Invalidf("title", "is required")
	}
	if err := length("title", in.Title, 1, 100); err != nil {
		return err
	}
	if err := validIcon(in.Icon); err != nil {
		return err
	}
	if len(in.Sections) > MaxInvites {
		return apperr.Invalidf("sections", "at most %d per request", MaxInvites)
	}
	seen := map[string]bool{}
	for _, id := range in.Sections {
		if seen[id] {
			return apperr.Invalidf("sections", "%q is listed twice", id)
		}
		seen[id] = true
	}
	return nil
}

// UpdateSiteSectionGroupInput renames a group or changes its icon (null removes it).
type UpdateSiteSectionGroupInput struct {
	Title opt.Field[*string] `json:"title"`
	Icon  opt.Field[*string] `json:"icon"`
}

// Validate checks the contract's limits. Errors: Invalid.
func (in *UpdateSiteSectionGroupInput) Validate() error {
	if v, set := in.Title.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("title", "cannot be null")
		}
		if err := length("title", *v, 1, 100); err != nil {
			return err
		}
	}
	return validIcon(in.Icon.Value())
}

// AddSectionToGroupInput names the section to put in a group.
type AddSectionToGroupInput struct {
	SectionID string `json:"sectionId"`
}

// Validate checks the input. Errors: Invalid.
func (in *AddSectionToGroupInput) Validate() error {
	if in.SectionID == "" {
		return apperr.Invalidf("sectionId", "is required")
	}
	return nil
}
