package model

import (
	"fmt"
	"regexp"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
)

// Integration is a published integration (the contract's Integration). Bindery keeps its
// definition and never runs its code (docs/integrations.md).
type Integration struct {
	Object                string                 `json:"object"`
	Name                  string                 `json:"name"`
	Version               int                    `json:"version"`
	Title                 string                 `json:"title"`
	Description           string                 `json:"description"`
	Summary               *string                `json:"summary,omitempty"`
	PreviewImages         []string               `json:"previewImages"`
	Target                string                 `json:"target"`
	Verified              bool                   `json:"verified"`
	Visibility            string                 `json:"visibility"`
	Scopes                []string               `json:"scopes"`
	Categories            []string               `json:"categories"`
	Blocks                []*IntegrationBlock    `json:"blocks,omitempty"`
	ContentSources        JSON                   `json:"contentSources,omitempty"`
	Configurations        JSON                   `json:"configurations,omitempty"`
	ExternalLinks         []*IntegrationLink     `json:"externalLinks"`
	Owner                 *Organization          `json:"owner"`
	URLs                  IntegrationURLs        `json:"urls"`
	Permissions           IntegrationPermissions `json:"permissions"`
	ContentSecurityPolicy JSON                   `json:"contentSecurityPolicy,omitempty"`
}

// IntegrationBlock is a content block an integration provides.
type IntegrationBlock struct {
	ID          string                    `json:"id"`
	Title       string                    `json:"title"`
	Description *string                   `json:"description,omitempty"`
	Icon        *string                   `json:"icon,omitempty"`
	URLUnfurl   []string                  `json:"urlUnfurl,omitempty"`
	Markdown    *IntegrationBlockMarkdown `json:"markdown,omitempty"`
}

// IntegrationBlockMarkdown maps a markdown code block (```codeblock) to the block.
type IntegrationBlockMarkdown struct {
	Codeblock string `json:"codeblock"`
	Body      string `json:"body"`
}

// IntegrationLink is one of an integration's external links.
type IntegrationLink struct {
	URL   string `json:"url"`
	Label string `json:"label"`
}

// IntegrationURLs locate an integration.
type IntegrationURLs struct {
	Location       string `json:"location"`
	App            string `json:"app"`
	Assets         string `json:"assets"`
	PublicEndpoint string `json:"publicEndpoint"`
}

// IntegrationPermissions say whether the caller administers the integration (its owner's admins).
type IntegrationPermissions struct {
	Admin bool `json:"admin"`
}

// SpaceIntegrationBlocks are the blocks of one integration installed on a space.
type SpaceIntegrationBlocks struct {
	Name   string              `json:"name"`
	Blocks []*IntegrationBlock `json:"blocks"`
}

// IntegrationInstallation is an integration installed on an organization.
type IntegrationInstallation struct {
	ID             string                      `json:"id"`
	Status         string                      `json:"status"`
	SpaceSelection string                      `json:"space_selection"`
	SiteSelection  string                      `json:"site_selection"`
	Spaces         int                         `json:"spaces"`
	Configuration  JSON                        `json:"configuration"`
	CreatedAt      time.Time                   `json:"createdAt"`
	UpdatedAt      time.Time                   `json:"updatedAt"`
	URLs           IntegrationInstallationURLs `json:"urls"`
	ExternalIDs    []string                    `json:"externalIds"`
	Target         OrganizationTarget          `json:"target"`
	Integration    string                      `json:"-"`
}

// IntegrationInstallationURLs locate an installation.
type IntegrationInstallationURLs struct {
	Location       string `json:"location"`
	App            string `json:"app"`
	PublicEndpoint string `json:"publicEndpoint"`
}

// OrganizationTarget names an organization (the body of installIntegration).
type OrganizationTarget struct {
	Organization string `json:"organization"`
}

// IntegrationSpaceInstallation is an installation's presence on a space.
type IntegrationSpaceInstallation struct {
	Integration   string                           `json:"integration"`
	Installation  string                           `json:"installation"`
	Status        string                           `json:"status"`
	Configuration JSON                             `json:"configuration"`
	ExternalIDs   []string                         `json:"externalIds"`
	URLs          IntegrationSpaceInstallationURLs `json:"urls"`
	Space         string                           `json:"space"`
}

// IntegrationSpaceInstallationURLs locate a space installation.
type IntegrationSpaceInstallationURLs struct {
	Location       string `json:"location"`
	PublicEndpoint string `json:"publicEndpoint"`
}

// InstallOnSpaceInput names the space (the body of installIntegrationOnSpace).
type InstallOnSpaceInput struct {
	Space string `json:"space"`
}

// APITemporaryToken is an installation's API token, shown once.
type APITemporaryToken struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// PublishIntegrationInput publishes an integration (the contract's PublishIntegration). The
// script, icon and secrets are accepted and not kept: Bindery runs no integration code.
type PublishIntegrationInput struct {
	Runtime               *string             `json:"runtime,omitempty"`
	Icon                  *string             `json:"icon,omitempty"`
	Title                 string              `json:"title"`
	Description           string              `json:"description"`
	Summary               *string             `json:"summary,omitempty"`
	PreviewImages         []string            `json:"previewImages,omitempty"`
	Visibility            *string             `json:"visibility,omitempty"`
	Target                *string             `json:"target,omitempty"`
	Scopes                []string            `json:"scopes"`
	Categories            []string            `json:"categories,omitempty"`
	Blocks                []*IntegrationBlock `json:"blocks,omitempty"`
	ContentSources        JSON                `json:"contentSources,omitempty"`
	ExternalLinks         []*IntegrationLink  `json:"externalLinks,omitempty"`
	Configurations        JSON                `json:"configurations,omitempty"`
	Script                string              `json:"script"`
	Organization          string              `json:"organization"`
	Secrets               JSON                `json:"secrets,omitempty"`
	ContentSecurityPolicy JSON                `json:"contentSecurityPolicy,omitempty"`
}

var integrationName = regexp.MustCompile(`^[a-zA-Z0-9-_.]+$`)

// ValidateIntegrationName checks the contract's integration name. Errors: Invalid.
func ValidateIntegrationName(name string) error {
	if len(name) == 0 || len(name) > 100 || !integrationName.MatchString(name) {
		return apperr.Invalidf("integrationName", "must be 1 to 100 letters, digits, '-', '_' or '.'")
	}
	return nil
}

// Known values of the contract's enums.
var (
	IntegrationVisibilities = []string{"public", "private", "unlisted"}
	IntegrationTargets      = []string{"all", "site", "space", "organization"}
	IntegrationCategories   = []string{"analytics", "collaboration", "content", "gitsync", "marketing", "visitor-auth", "other"}
)

func oneOf(field string, v *string, allowed []string) error {
	if v != nil && !slices.Contains(allowed, *v) {
		return apperr.Invalidf(field, "must be one of %v", allowed)
	}
	return nil
}

// Validate checks the contract's limits; scopes are checked by the permission engine's list.
// Errors: Invalid.
func (in *PublishIntegrationInput) Validate() error {
	switch n := utf8.RuneCountInString(in.Title); {
	case n < 2 || n > 30:
		return apperr.Invalidf("title", "must be 2 to 30 characters")
	case utf8.RuneCountInString(in.Description) > 100:
		return apperr.Invalidf("description", "must be at most 100 characters")
	case in.Summary != nil && utf8.RuneCountInString(*in.Summary) > 2048:
		return apperr.Invalidf("summary", "must be at most 2048 characters")
	case in.Organization == "":
		return apperr.Invalidf("organization", "is required")
	case in.Script == "":
		return apperr.Invalidf("script", "is required (it is not run: Bindery runs no integration code)")
	case len(in.PreviewImages) > 3:
		return apperr.Invalidf("previewImages", "at most 3")
	case len(in.ExternalLinks) > 5:
		return apperr.Invalidf("externalLinks", "at most 5")
	case in.Runtime != nil && *in.Runtime != "v1" && *in.Runtime != "v2":
		return apperr.Invalidf("runtime", "must be v1 or v2")
	}
	if err := oneOf("visibility", in.Visibility, IntegrationVisibilities); err != nil {
		return err
	}
	if err := oneOf("target", in.Target, IntegrationTargets); err != nil {
		return err
	}
	for i, c := range in.Categories {
		if !slices.Contains(IntegrationCategories, c) {
			return apperr.Invalidf(fmt.Sprintf("categories[%d]", i), "must be one of %v", IntegrationCategories)
		}
	}
	ids := map[string]bool{}
	for i, b := range in.Blocks {
		field := fmt.Sprintf("blocks[%d]", i)
		switch {
		case b == nil || b.ID == "":
			return apperr.Invalidf(field+".id", "is required")
		case ids[b.ID]:
			return apperr.Invalidf(field+".id", "%q is used by another block", b.ID)
		case utf8.RuneCountInString(b.Title) < 2 || utf8.RuneCountInString(b.Title) > 40:
			return apperr.Invalidf(field+".title", "must be 2 to 40 characters")
		case b.Description != nil && utf8.RuneCountInString(*b.Description) > 150:
			return apperr.Invalidf(field+".description", "must be at most 150 characters")
		case b.Markdown != nil && (b.Markdown.Codeblock == "" || b.Markdown.Body == ""):
			return apperr.Invalidf(field+".markdown", "needs codeblock and body")
		}
		ids[b.ID] = true
	}
	for i, l := range in.ExternalLinks {
		if l == nil || l.URL == "" || l.Label == "" {
			return apperr.Invalidf(fmt.Sprintf("externalLinks[%d]", i), "needs url and label")
		}
	}
	return nil
}
