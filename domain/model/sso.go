package model

import (
	"io"
	"slices"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/opt"
)

// SSORoleMapping makes members' organization roles follow a claim of the identity provider's ID
// token (a group list, say): at each single sign-on, a member whose claim holds a rule's value
// gets that rule's role; when several match, the highest; when none match, the role stays.
type SSORoleMapping struct {
	// Claim names the ID token's claim: a string or a list of strings.
	Claim string         `json:"claim"`
	Roles []*SSORoleRule `json:"roles"`
}

// SSORoleRule gives Role (nil: guest) to members whose claim holds Value.
type SSORoleRule struct {
	Value string      `json:"value"`
	Role  *MemberRole `json:"role"`
}

// SSORoleRuleInput is SSORoleRule as GraphQL's input.
type SSORoleRuleInput = SSORoleRule

// SSOProviderLogins is the contract's list of where members start a single sign-on.
type SSOProviderLogins struct {
	Items []*SSOProviderLogin `json:"items"`
}

// SSOProviderLogin is one identity provider members may sign in through.
type SSOProviderLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	StartURL string `json:"startURL"`
}

// SAMLProviderStatus: active when members can sign in through the provider (its entity id,
// certificate and sign-in URL are set), else pending.
type SAMLProviderStatus string

const (
	SAMLProviderStatusActive  SAMLProviderStatus = "active"
	SAMLProviderStatusPending SAMLProviderStatus = "pending"
)

// SAMLProvider is an organization's SAML identity provider.
type SAMLProvider struct {
	Object      string             `json:"object"`
	ID          string             `json:"id"`
	Label       string             `json:"label"`
	SSOURL      string             `json:"ssoURL"`
	EntityID    string             `json:"entityID"`
	Certificate string             `json:"certificate"`
	DefaultTeam *Team              `json:"defaultTeam,omitempty"`
	DefaultRole *MemberRole        `json:"defaultRole"`
	CreatedAt   time.Time          `json:"createdAt"`
	Status      SAMLProviderStatus `json:"status"`
	Service     SAMLService        `json:"service"`
	URLs        LocationURLs       `json:"urls"`

	OrganizationID string `json:"-"`
}

// SAMLService is what the identity provider is told of Bindery, the service provider.
type SAMLService struct {
	AcsURL   string `json:"acsURL"`
	StartURL string `json:"startURL"`
	EntityID string `json:"entityID"`
}

// SAMLProviderInput creates (label required) or changes a SAML provider; absent fields stay.
type SAMLProviderInput struct {
	Label       opt.Field[*string]     `json:"label"`
	EntityID    opt.Field[*string]     `json:"entityID"`
	Certificate opt.Field[*string]     `json:"certificate"`
	SSOURL      opt.Field[*string]     `json:"ssoURL"`
	DefaultTeam opt.Field[*string]     `json:"defaultTeam"`
	DefaultRole opt.Field[*MemberRole] `json:"defaultRole"`
}

// Validate checks a SAML provider's fields against the contract's limits; create requires a label.
func (in SAMLProviderInput) Validate(create bool) error {
	if v, ok := in.Label.ValueOK(); ok || create {
		if n := len([]rune(strings.TrimSpace(Deref(v)))); n < 1 || n > 30 {
			return apperr.Invalidf("label", "must be 1 to 30 characters")
		}
	}
	if v := Deref(in.EntityID.Value()); len(v) > 1024 {
		return apperr.Invalidf("entityID", "must be at most 1024 characters")
	}
	if v := Deref(in.Certificate.Value()); len(v) > 10000 {
		return apperr.Invalidf("certificate", "must be at most 10000 characters")
	}
	if v := Deref(in.SSOURL.Value()); v != "" {
		if err := validURL("ssoURL", v); err != nil {
			return err
		}
	}
	if r := in.DefaultRole.Value(); r != nil && !r.IsValid() {
		return apperr.Invalidf("defaultRole", "%q is not a role", *r)
	}
	return nil
}

var samlProviderStatuses = []SAMLProviderStatus{SAMLProviderStatusActive, SAMLProviderStatusPending}

func (e SAMLProviderStatus) IsValid() bool          { return slices.Contains(samlProviderStatuses, e) }
func (e SAMLProviderStatus) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *SAMLProviderStatus) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, samlProviderStatuses, e)
}

// The SAML provider connection of the schema.
type (
	SAMLProviderConnection = Connection[*SAMLProvider]
	SAMLProviderEdge       = Edge[*SAMLProvider]
)

// Deref is *s, or "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
