package model

import (
	"regexp"
	"time"

	"github.com/bindery/bindery/domain/apperr"
)

// OpenAPISpec is an organization's OpenAPI specification (the contract's OpenAPISpec).
type OpenAPISpec struct {
	Object               string                 `json:"object"`
	ID                   string                 `json:"id"`
	CreatedAt            time.Time              `json:"createdAt"`
	UpdatedAt            time.Time              `json:"updatedAt"`
	Slug                 string                 `json:"slug"`
	SourceURL            *string                `json:"sourceURL,omitempty"`
	ProcessingState      string                 `json:"processingState"`
	Visibility           string                 `json:"visibility"`
	LastVersion          *string                `json:"lastVersion,omitempty"`
	LastProcessedAt      *time.Time             `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode *string                `json:"lastProcessErrorCode,omitempty"`
	LastProcessedErrors  []*OpenAPIError        `json:"lastProcessedErrors,omitempty"`
	Permissions          OpenAPISpecPermissions `json:"permissions"`
	URLs                 OpenAPISpecURLs        `json:"urls"`
	OrganizationID       string                 `json:"-"`
}

// OpenAPISpecPermissions are what the caller may do with a specification.
type OpenAPISpecPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// OpenAPISpecURLs locate a specification in the API and in the app.
type OpenAPISpecURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

// OpenAPIError is one problem found in a specification: the library's message and where.
type OpenAPIError struct {
	Message  string `json:"message"`
	Code     string `json:"code,omitempty"`
	Location string `json:"location,omitempty"`
}

// OpenAPISpecVersion is one immutable content of a specification.
type OpenAPISpecVersion struct {
	Object    string       `json:"object"`
	ID        string       `json:"id"`
	CreatedAt time.Time    `json:"createdAt"`
	URL       string       `json:"url"`
	URLs      LocationURLs `json:"urls"`
	// Spec is the specification it belongs to (for its content).
	Spec *OpenAPISpec `json:"-"`
}

// OpenAPISpecContent is a version's document and the files it references, by path.
type OpenAPISpecContent struct {
	Filesystem JSON   `json:"filesystem"`
	URL        string `json:"url"`
}

// OpenAPISpecSource is where a specification comes from: exactly one of text and url.
type OpenAPISpecSource struct {
	Text *string `json:"text,omitempty"`
	URL  *string `json:"url,omitempty"`
}

// CreateOpenAPISpecInput creates a specification (POST /orgs/{id}/openapi).
type CreateOpenAPISpecInput struct {
	Slug   string            `json:"slug"`
	Source OpenAPISpecSource `json:"source"`
}

// PutOpenAPISpecInput creates or updates a specification by slug (PUT …/openapi/{slug}).
type PutOpenAPISpecInput struct {
	Source OpenAPISpecSource `json:"source"`
}

var specSlug = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// ValidateSpecSlug checks the contract's OpenAPISpecSlug. Errors: Invalid.
func ValidateSpecSlug(field, slug string) error {
	if len(slug) < 1 || len(slug) > 100 || !specSlug.MatchString(slug) {
		return apperr.Invalidf(field, "must be 1 to 100 lowercase letters, digits and single dashes (e.g. \"petstore-v2\")")
	}
	return nil
}

// Validate checks that exactly one source is given. Errors: Invalid.
func (s OpenAPISpecSource) Validate(field string) error {
	switch {
	case (s.Text == nil) == (s.URL == nil):
		return apperr.Invalidf(field, "give exactly one of text and url")
	case s.Text != nil && *s.Text == "":
		return apperr.Invalidf(field+".text", "must not be empty")
	case s.URL != nil && (len(*s.URL) == 0 || len(*s.URL) > 2048):
		return apperr.Invalidf(field+".url", "must be a URL of at most 2048 characters")
	}
	return nil
}

// Validate checks a creation. Errors: Invalid.
func (in CreateOpenAPISpecInput) Validate() error {
	if err := ValidateSpecSlug("slug", in.Slug); err != nil {
		return err
	}
	return in.Source.Validate("source")
}

// Validate checks a create-or-update. Errors: Invalid.
func (in PutOpenAPISpecInput) Validate() error { return in.Source.Validate("source") }

// The connections of OpenAPI specifications.
type (
	OpenAPISpecConnection        = Connection[*OpenAPISpec]
	OpenAPISpecEdge              = Edge[*OpenAPISpec]
	OpenAPISpecVersionConnection = Connection[*OpenAPISpecVersion]
	OpenAPISpecVersionEdge       = Edge[*OpenAPISpecVersion]
)

// InsertOpenAPIPagesInput inserts API-reference pages generated from a specification's version:
// one page per tag with its operations, and a models page when asked (docs/openapi.md).
type InsertOpenAPIPagesInput struct {
	// Spec is the specification's slug, in the space's organization.
	Spec string `json:"spec"`
	// Version is the id of the version to generate from and pin; the latest when absent.
	Version *string `json:"version"`
	// Parent, Before and After place the pages as createPage does (the root, last, by default).
	Parent *string `json:"parent"`
	Before *string `json:"before"`
	After  *string `json:"after"`
	// Models adds a page of the specification's schemas.
	Models *bool `json:"models"`
}

// Validate checks the input. Errors: Invalid.
func (in *InsertOpenAPIPagesInput) Validate() error {
	if err := ValidateSpecSlug("spec", in.Spec); err != nil {
		return err
	}
	if in.Before != nil && in.After != nil {
		return apperr.Invalidf("before", "give before or after, not both")
	}
	if in.Version != nil && *in.Version == "" {
		return apperr.Invalidf("version", "must be a version id (or absent for the latest)")
	}
	return nil
}

// UpdateOpenAPIPagesInput moves a specification's API-reference pages to another version.
type UpdateOpenAPIPagesInput struct {
	Spec string `json:"spec"`
	// Version is the id of the version to pin; the latest when absent.
	Version *string `json:"version"`
}

// Validate checks the input. Errors: Invalid.
func (in *UpdateOpenAPIPagesInput) Validate() error {
	if err := ValidateSpecSlug("spec", in.Spec); err != nil {
		return err
	}
	if in.Version != nil && *in.Version == "" {
		return apperr.Invalidf("version", "must be a version id (or absent for the latest)")
	}
	return nil
}
