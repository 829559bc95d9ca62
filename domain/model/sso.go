package model

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
