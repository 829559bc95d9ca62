package model

import (
	"fmt"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
)

// Validate checks every limit of the contract before anything is written. Errors: Invalid.
func (in *UpdateOrganizationInput) Validate() error {
	if v, set := in.Title.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("title", "cannot be null")
		}
		if err := length("title", *v, 2, 255); err != nil {
			return err
		}
	}
	if v, set := in.EmailDomains.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("emailDomains", "cannot be null; send [] to clear")
		}
		for i, d := range v {
			if !domainPattern.MatchString(strings.ToLower(d)) {
				return apperr.Invalidf(fmt.Sprintf("emailDomains[%d]", i), "%q is not a domain name", d)
			}
		}
	}
	if v, set := in.Hostname.ValueOK(); set && v != nil {
		if err := length("hostname", *v, 3, 32); err != nil {
			return err
		}
		if !hostnamePattern.MatchString(*v) {
			return apperr.Invalidf("hostname", "use lowercase letters, digits and inner hyphens")
		}
	}
	if v, set := in.DefaultRole.ValueOK(); set && v != nil && !v.IsValid() {
		return apperr.Invalidf("defaultRole", "%q is not a role", *v)
	}
	if v, set := in.DefaultContent.ValueOK(); set && v != nil {
		if v.Type != "site" {
			return apperr.Invalidf("defaultContent.type", `must be "site"`)
		}
		if v.Site == "" {
			return apperr.Invalidf("defaultContent.site", "is required")
		}
	}
	if v, set := in.Logo.ValueOK(); set && v != nil {
		if err := validURL("logo", *v); err != nil {
			return err
		}
	}
	for field, v := range map[string]*bool{"sso": in.SSO.Value(), "ai": in.AI.Value(), "inviteLinks": in.InviteLinks.Value()} {
		if v == nil && isSetNull(field, in) {
			return apperr.Invalidf(field, "cannot be null")
		}
	}
	if v, set := in.MergeRules.ValueOK(); set {
		if v == nil {
			return apperr.Invalidf("mergeRules", "cannot be null")
		}
		if err := v.validate("mergeRules", false); err != nil {
			return err
		}
	}
	return nil
}

func isSetNull(field string, in *UpdateOrganizationInput) bool {
	switch field {
	case "sso":
		return in.SSO.IsSet()
	case "ai":
		return in.AI.IsSet()
	default:
		return in.InviteLinks.IsSet()
	}
}

// validate checks a merge-rules configuration; inherit is allowed only for spaces.
func (m *MergeRules) validate(field string, inheritAllowed bool) error {
	switch m.Type {
	case MergeRulesNone:
		if len(m.Rules) > 0 {
			return apperr.Invalidf(field+".rules", `must be absent when type is "none"`)
		}
	case MergeRulesInherit:
		if !inheritAllowed {
			return apperr.Invalidf(field+".type", `must be "rules" or "none"`)
		}
	case MergeRulesRules:
		for i, r := range m.Rules {
			f := fmt.Sprintf("%s.rules[%d]", field, i)
			if r == nil || !r.Rule.IsValid() {
				return apperr.Invalidf(f+".rule", "is not a known merge rule")
			}
			if r.Rule.TakesUsers() && len(r.Users) == 0 {
				return apperr.Invalidf(f+".users", "%s needs at least one user", r.Rule)
			}
			if !r.Rule.TakesUsers() && len(r.Users) > 0 {
				return apperr.Invalidf(f+".users", "%s takes no users", r.Rule)
			}
			if r.Rule == MergeRuleCustom {
				if r.Expression == nil {
					return apperr.Invalidf(f+".expression", "is required for custom rules")
				}
				if err := length(f+".expression", *r.Expression, 0, 1024); err != nil {
					return err
				}
			} else if r.Expression != nil {
				return apperr.Invalidf(f+".expression", "only custom rules take an expression")
			}
		}
	default:
		return apperr.Invalidf(field+".type", `must be "rules" or "none"`)
	}
	return nil
}

// Validate checks a role change. Errors: Invalid.
func (in *UpdateMemberInput) Validate() error {
	if v, set := in.Role.ValueOK(); set && v != nil && !v.IsValid() {
		return apperr.Invalidf("role", "%q is not a role", *v)
	}
	return nil
}

// MaxInvites bounds one invitation request.
const MaxInvites = 100

// Validate checks the addresses and roles. Errors: Invalid.
func (in *InviteUsersInput) Validate() error {
	if len(in.Emails) == 0 {
		return apperr.Invalidf("emails", "at least one address is required")
	}
	if len(in.Emails) > MaxInvites {
		return apperr.Invalidf("emails", "at most %d addresses per request", MaxInvites)
	}
	if v := in.Role.Value(); v != nil && !v.IsValid() {
		return apperr.Invalidf("role", "%q is not a role", *v)
	}
	seen := map[string]bool{}
	for i, e := range in.Emails {
		f := fmt.Sprintf("emails[%d]", i)
		if e == nil || !validEmail(e.Email) {
			return apperr.Invalidf(f, "not a valid e-mail address")
		}
		if seen[strings.ToLower(e.Email)] {
			return apperr.Invalidf(f, "%s is listed twice", e.Email)
		}
		seen[strings.ToLower(e.Email)] = true
		if v := e.Role.Value(); v != nil && !v.IsValid() {
			return apperr.Invalidf(f+".role", "%q is not a role", *v)
		}
	}
	return nil
}

// RoleOf is the role an address is invited with: its own if given, else the request's.
func (in *InviteUsersInput) RoleOf(e *InviteEmail) *MemberRole {
	if e.Role.IsSet() {
		return e.Role.Value()
	}
	return in.Role.Value()
}

// Validate checks an invite link's target and role: the organization with a role (null: guest),
// or one space or collection with a level. Errors: Invalid.
func (in *CreateInviteLinkInput) Validate() error {
	if in.Space == nil && in.Collection == nil {
		if in.Level.IsSet() {
			return apperr.Invalidf("level", "goes with a space or a collection; an organization link takes a role")
		}
		if v := in.Role.Value(); v != nil && !v.IsValid() {
			return apperr.Invalidf("role", "%q is not a role", *v)
		}
		return nil
	}
	if in.Space != nil && in.Collection != nil {
		return apperr.Invalidf("space", "a link invites to a space or to a collection, not both")
	}
	if in.Role.IsSet() {
		return apperr.Invalidf("role", "a space or collection link takes a level, not a role")
	}
	if v := in.Level.Value(); v == nil || !v.IsValid() {
		return apperr.Invalidf("level", "is required: the role the link gives on the content")
	}
	return nil
}

// Target names the content a link invites to: kind ("space" or "collection") and id, or "" for
// the organization.
func (in *CreateInviteLinkInput) Target() (kind, id string) {
	switch {
	case in.Space != nil:
		return "space", *in.Space
	case in.Collection != nil:
		return "collection", *in.Collection
	}
	return "", ""
}

// Validate checks the document. Errors: Invalid.
func (in *UpdateAgentInstructionsInput) Validate() error {
	return in.Instructions.Validate("instructions")
}

var (
	domainPattern   = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)
	hostnamePattern = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)
)

// ValidDomain reports whether d is a domain name such as example.com.
func ValidDomain(d string) bool { return domainPattern.MatchString(strings.ToLower(d)) }

func validEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > 254 {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && ValidDomain(s[at+1:])
}

// ValidEmail reports whether s is a plain e-mail address (no display name).
func ValidEmail(s string) bool { return validEmail(s) }

func length(field, s string, min, max int) error {
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		if min == 0 {
			return apperr.Invalidf(field, "must be at most %d characters", max)
		}
		return apperr.Invalidf(field, "must be %d to %d characters", min, max)
	}
	return nil
}

func validURL(field, s string) error {
	if len(s) > 2048 {
		return apperr.Invalidf(field, "must be at most 2048 characters")
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Invalidf(field, "must be an http(s) URL")
	}
	return nil
}

var pathPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
