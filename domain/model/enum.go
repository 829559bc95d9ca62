package model

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Enums are Go string types holding the contract's value ("admin", "internalDocs", "pt-br"), which
// is their JSON form. GraphQL shows the same value in UPPER_SNAKE_CASE (ADMIN, INTERNAL_DOCS,
// PT_BR); gqlName is the one mapping between the two.

func gqlName(v string) string {
	var b strings.Builder
	for i, r := range v {
		switch {
		case r == '-' || r == ':' || r == '.':
			b.WriteByte('_')
		case unicode.IsUpper(r) && i > 0:
			b.WriteByte('_')
			b.WriteRune(r)
		default:
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

func marshalEnum[T ~string](w io.Writer, v T) {
	io.WriteString(w, strconv.Quote(gqlName(string(v)))) //nolint:errcheck // gqlgen's writer API has no error path
}

func unmarshalEnum[T ~string](v any, values []T, dst *T) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("enum value must be a string")
	}
	for _, x := range values {
		if gqlName(string(x)) == s {
			*dst = x
			return nil
		}
	}
	return fmt.Errorf("%q is not a valid value", s)
}

// MemberRole is a role in an organization, space or collection. A nil *MemberRole is a guest.
type MemberRole string

// The roles, highest first.
const (
	MemberRoleAdmin   MemberRole = "admin"
	MemberRoleCreate  MemberRole = "create"
	MemberRoleEdit    MemberRole = "edit"
	MemberRoleReview  MemberRole = "review"
	MemberRoleComment MemberRole = "comment"
	MemberRoleRead    MemberRole = "read"
)

// MemberRoles lists every role.
var MemberRoles = []MemberRole{MemberRoleAdmin, MemberRoleCreate, MemberRoleEdit, MemberRoleReview, MemberRoleComment, MemberRoleRead}

func (e MemberRole) IsValid() bool             { return slices.Contains(MemberRoles, e) }
func (e MemberRole) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *MemberRole) UnmarshalGQL(v any) error { return unmarshalEnum(v, MemberRoles, e) }

// MemberRoleFilter selects members by role; "guest" selects members without one.
type MemberRoleFilter string

// MemberRoleFilterGuest selects guests.
const MemberRoleFilterGuest MemberRoleFilter = "guest"

var memberRoleFilters = append(slices.Clone(asFilters(MemberRoles)), MemberRoleFilterGuest)

func asFilters(roles []MemberRole) []MemberRoleFilter {
	out := make([]MemberRoleFilter, len(roles))
	for i, r := range roles {
		out[i] = MemberRoleFilter(r)
	}
	return out
}

func (e MemberRoleFilter) IsValid() bool             { return slices.Contains(memberRoleFilters, e) }
func (e MemberRoleFilter) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *MemberRoleFilter) UnmarshalGQL(v any) error { return unmarshalEnum(v, memberRoleFilters, e) }

// ListOrder orders a list; lists default to descending.
type ListOrder string

// The orders.
const (
	ListOrderAsc  ListOrder = "asc"
	ListOrderDesc ListOrder = "desc"
)

var listOrders = []ListOrder{ListOrderAsc, ListOrderDesc}

func (e ListOrder) IsValid() bool             { return slices.Contains(listOrders, e) }
func (e ListOrder) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *ListOrder) UnmarshalGQL(v any) error { return unmarshalEnum(v, listOrders, e) }

// MemberSort is the key a member list is sorted by.
type MemberSort string

// The member sort keys.
const (
	MemberSortJoinedAt   MemberSort = "joinedAt"
	MemberSortLastSeenAt MemberSort = "lastSeenAt"
)

var memberSorts = []MemberSort{MemberSortJoinedAt, MemberSortLastSeenAt}

func (e MemberSort) IsValid() bool             { return slices.Contains(memberSorts, e) }
func (e MemberSort) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *MemberSort) UnmarshalGQL(v any) error { return unmarshalEnum(v, memberSorts, e) }

// OrganizationType tells businesses from communities.
type OrganizationType string

// The organization types.
const (
	OrganizationTypeBusiness  OrganizationType = "business"
	OrganizationTypeCommunity OrganizationType = "community"
)

var organizationTypes = []OrganizationType{OrganizationTypeBusiness, OrganizationTypeCommunity}

func (e OrganizationType) IsValid() bool             { return slices.Contains(organizationTypes, e) }
func (e OrganizationType) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *OrganizationType) UnmarshalGQL(v any) error { return unmarshalEnum(v, organizationTypes, e) }

// OrganizationUseCase is what an organization said it uses the platform for.
type OrganizationUseCase string

var organizationUseCases = []OrganizationUseCase{"internalDocs", "docsSite", "audienceControlledSite", "productDocs", "teamKnowledgeBase", "designSystem", "openSourceDocs", "notes", "other"}

func (e OrganizationUseCase) IsValid() bool          { return slices.Contains(organizationUseCases, e) }
func (e OrganizationUseCase) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *OrganizationUseCase) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, organizationUseCases, e)
}

// OrganizationCommunityType is the kind of community organization.
type OrganizationCommunityType string

var organizationCommunityTypes = []OrganizationCommunityType{"nonProfit", "openSource", "education"}

func (e OrganizationCommunityType) IsValid() bool {
	return slices.Contains(organizationCommunityTypes, e)
}
func (e OrganizationCommunityType) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *OrganizationCommunityType) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, organizationCommunityTypes, e)
}

// BillingProduct is an organization's plan.
type BillingProduct string

// BillingProductSelfHosted is the plan of every organization on a self-hosted Bindery: every
// feature, no billing.
const BillingProductSelfHosted BillingProduct = "enterprise_2024"

var billingProducts = []BillingProduct{"free_2024", "plus_2024", "pro_2024", "enterprise_2024", "community_2024", "free", "plus", "pro", "internal"}

func (e BillingProduct) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *BillingProduct) UnmarshalGQL(v any) error { return unmarshalEnum(v, billingProducts, e) }

// BillingTrialStatus is the state of an organization's trial.
type BillingTrialStatus string

// BillingTrialNotApplicable: self-hosted organizations have no trial.
const BillingTrialNotApplicable BillingTrialStatus = "notapplicable"

var billingTrialStatuses = []BillingTrialStatus{"notapplicable", "none", "active", "ended", "expired"}

func (e BillingTrialStatus) MarshalGQL(w io.Writer) { marshalEnum(w, e) }
func (e *BillingTrialStatus) UnmarshalGQL(v any) error {
	return unmarshalEnum(v, billingTrialStatuses, e)
}

// MergeRulesType tells how merge rules are configured.
type MergeRulesType string

// The merge rule configurations. Organizations use rules or none; spaces may also inherit.
const (
	MergeRulesInherit MergeRulesType = "inherit"
	MergeRulesRules   MergeRulesType = "rules"
	MergeRulesNone    MergeRulesType = "none"
)

var mergeRulesTypes = []MergeRulesType{MergeRulesInherit, MergeRulesRules, MergeRulesNone}

func (e MergeRulesType) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *MergeRulesType) UnmarshalGQL(v any) error { return unmarshalEnum(v, mergeRulesTypes, e) }

// MergeRuleKind names one merge rule.
type MergeRuleKind string

// The merge rules that take a list of users, and the one that takes an expression.
const (
	MergeRuleRequireSpecificReviewers      MergeRuleKind = "require_specific_reviewers"
	MergeRuleRequireOneOfSpecificReviewers MergeRuleKind = "require_one_of_specific_reviewers"
	MergeRuleAllowBypass                   MergeRuleKind = "allow_bypass"
	MergeRuleCustom                        MergeRuleKind = "custom"
)

var mergeRuleKinds = []MergeRuleKind{
	MergeRuleRequireSpecificReviewers, MergeRuleRequireOneOfSpecificReviewers, MergeRuleAllowBypass,
	"require_at_least_one_review", "require_all_reviews_approved", "require_agent_review",
	"require_up_to_date_change_request", "require_change_request_subject", "require_change_request_description",
	MergeRuleCustom,
}

// TakesUsers reports whether the rule names users.
func (e MergeRuleKind) TakesUsers() bool {
	return e == MergeRuleRequireSpecificReviewers || e == MergeRuleRequireOneOfSpecificReviewers || e == MergeRuleAllowBypass
}

func (e MergeRuleKind) IsValid() bool             { return slices.Contains(mergeRuleKinds, e) }
func (e MergeRuleKind) MarshalGQL(w io.Writer)    { marshalEnum(w, e) }
func (e *MergeRuleKind) UnmarshalGQL(v any) error { return unmarshalEnum(v, mergeRuleKinds, e) }
