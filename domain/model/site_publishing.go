package model

import (
	"encoding/json"
	"time"
)

// PublishedContentSite is what a site publishes: the site, its structure, its customizations
// (the site's and each site space's, merged), and the scripts of its integrations.
type PublishedContentSite struct {
	Object         string                   `json:"object"`
	Site           *Site                    `json:"site"`
	Structure      *SiteStructure           `json:"structure"`
	Customizations PublishedCustomizations  `json:"customizations"`
	Scripts        []*SiteIntegrationScript `json:"scripts"`
}

// PublishedCustomizations are a site's customization and, by site space id, each site space's
// (the site's with the site space's overrides).
type PublishedCustomizations struct {
	Site       JSON            `json:"site"`
	SiteSpaces map[string]JSON `json:"siteSpaces"`
}

// SiteSpacesJSON is SiteSpaces as one JSON object.
func (c *PublishedCustomizations) SiteSpacesJSON() (JSON, error) { return json.Marshal(c.SiteSpaces) }

// SiteIntegrationScript is a script an integration adds to a published site. Bindery's
// integrations add none.
type SiteIntegrationScript struct {
	Script string `json:"script"`
}

// SiteAdaptiveSchema is the JSON schema of the claims a site's visitors carry.
type SiteAdaptiveSchema struct {
	Object     string    `json:"object"`
	JSONSchema JSON      `json:"jsonSchema"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// SiteAdaptiveTemplateCondition is a condition suggested from a site's adaptive schema.
type SiteAdaptiveTemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// SitePublishingPreview is where a site can be previewed.
type SitePublishingPreview struct {
	URL string `json:"url"`
}

// SiteSearchScope narrows a site search: mode default (each section's default site space, and
// currentSiteSpace), specific (siteSpaceIds) or all.
type SiteSearchScope struct {
	Mode             string   `json:"mode"`
	CurrentSiteSpace *string  `json:"currentSiteSpace,omitempty"`
	SiteSpaceIds     []string `json:"siteSpaceIds,omitempty"`
}

// SiteSearchInput is a search of a site's content: the contract's body (scope, or the
// deprecated mode with siteSpaceIds or siteSpaceId) and the page.
type SiteSearchInput struct {
	Query        string           `json:"query"`
	Scope        *SiteSearchScope `json:"scope,omitempty"`
	Mode         *string          `json:"mode,omitempty"`
	SiteSpaceIds []string         `json:"siteSpaceIds,omitempty"`
	SiteSpaceID  *string          `json:"siteSpaceId,omitempty"`
	First        *int             `json:"-"`
	After        *string          `json:"-"`
}
