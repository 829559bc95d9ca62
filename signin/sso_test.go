package signin_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/signin"
	"github.com/oauth2-proxy/mockoidc"
)

// withSSO is withOIDC with the application told that a provider is configured, as the binary
// does: organizations may then require single sign-on.
func withSSO(t *testing.T, s *site, o *signin.Options) {
	withOIDC(t, s, o)
	s.res.Settings.SingleSignOn = o.OIDC.Name()
}

// graphQL runs a GraphQL document with a session cookie (or, when cookie starts with "Bearer ",
// a token) and returns the body.
func (s *site) graphQL(cookie, query string) string {
	s.t.Helper()
	headers := []string{"Cookie", cookie, "Sec-Fetch-Site", "same-origin"}
	if token, ok := strings.CutPrefix(cookie, "Bearer "); ok {
		headers = []string{"Authorization", "Bearer " + token}
	}
	resp, body := s.call("POST", "/graphql", gql(query), headers...)
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("graphql: %d %s", resp.StatusCode, body)
	}
	return body
}

func (s *site) ssoSession(user *mockoidc.MockUser) string {
	s.t.Helper()
	resp, body := s.finishSSO(s.startSSO(s.provider, user, ""))
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("single sign-on as %s: %d %s", user.Email, resp.StatusCode, body)
	}
	return sessionCookie(s.t, resp)
}

func TestOrganizationThatRequiresSSOAdmitsOnlySSOSessions(t *testing.T) {
	eachDBWith(t, account.Config{}, withSSO, func(t *testing.T, s *site) {
		org := s.creds.OrganizationID
		password := s.signIn()
		readOrg := `{ organization(id: "` + org + `") { id title } }`
		if body := s.graphQL(password, readOrg); !strings.Contains(body, `"title":"Acme"`) {
			t.Fatalf("before: %s", body)
		}
		// Requiring SSO from a session that did not come through it would lock its admin out.
		requireSSO := `mutation { updateOrganization(id: "` + org + `", input: {sso: true}) { sso } }`
		if body := s.graphQL(password, requireSSO); !strings.Contains(body, `"code":"INVALID"`) || !strings.Contains(body, "sign in through single sign-on first") {
			t.Fatalf("requiring SSO from a password session: %s", body)
		}
		if body := s.graphQL("Bearer "+s.creds.Token, requireSSO); !strings.Contains(body, `"sso":true`) {
			t.Fatalf("requiring SSO with a token: %s", body)
		}
		// The password session no longer reaches the organization or its content.
		body := s.graphQL(password, readOrg)
		if !strings.Contains(body, `"code":"FORBIDDEN"`) || !strings.Contains(body, "requires single sign-on") || strings.Contains(body, `"title":"Acme"`) {
			t.Fatalf("password session in an SSO organization: %s", body)
		}
		spaces := `{ organization(id: "` + org + `") { spaces { nodes { id } } } }`
		if body := s.graphQL(password, spaces); strings.Contains(body, `"nodes"`) {
			t.Fatalf("password session read the spaces: %s", body)
		}
		if resp, _ := s.call("GET", "/v1/orgs/"+org, "", "Authorization", "Bearer "+s.creds.Token); resp.StatusCode != http.StatusOK {
			t.Fatalf("API tokens are not sessions: %d", resp.StatusCode)
		}
		// The same person through the provider is admitted.
		sso := s.ssoSession(&mockoidc.MockUser{Subject: "ada", Email: "ada@example.com", EmailVerified: true})
		if body := s.graphQL(sso, readOrg); !strings.Contains(body, `"title":"Acme"`) || strings.Contains(body, "errors") {
			t.Fatalf("SSO session: %s", body)
		}
		// Nobody else gets in through the provider: no account, no invite, no open domain.
		resp, body := s.finishSSO(s.startSSO(s.provider, &mockoidc.MockUser{Subject: "eve", Email: "eve@elsewhere.test", EmailVerified: true}, ""))
		if resp.StatusCode != http.StatusForbidden || s.userExists("eve@elsewhere.test") {
			t.Fatalf("stranger through SSO: %d %s", resp.StatusCode, body)
		}
	})
}

func TestMemberMarkedSSOMustSignInThroughIt(t *testing.T) {
	eachDBWith(t, account.Config{}, withSSO, func(t *testing.T, s *site) {
		org := s.creds.OrganizationID
		password := s.signIn()
		mark := `mutation { setMemberSSO(organizationId: "` + org + `", userId: "` + s.creds.UserID + `") { sso } }`
		if body := s.graphQL("Bearer "+s.creds.Token, mark); !strings.Contains(body, `"sso":true`) {
			t.Fatalf("mark: %s", body)
		}
		if body := s.graphQL(password, `{ organization(id: "`+org+`") { id } }`); !strings.Contains(body, "requires single sign-on") {
			t.Fatalf("an SSO member's password session: %s", body)
		}
	})
}

func TestRequiringSSOWithoutAProviderIsRefused(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		org := s.creds.OrganizationID
		resp, body := s.call("PATCH", "/v1/orgs/"+org, `{"sso":true}`, "Authorization", "Bearer "+s.creds.Token)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "no single sign-on provider serves") {
			t.Fatalf("sso without a provider: %d %s", resp.StatusCode, body)
		}
		resp, body = s.call("GET", "/v1/orgs/"+org, "", "Authorization", "Bearer "+s.creds.Token)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"sso":false`) {
			t.Fatalf("the refused change was written: %s", body)
		}
	})
}

func TestSSOClaimsSetRoles(t *testing.T) {
	eachDBWith(t, account.Config{}, withSSO, func(t *testing.T, s *site) {
		org := s.creds.OrganizationID
		token := "Bearer " + s.creds.Token
		setMapping := `mutation { setOrganizationSSORoleMapping(organizationId: "` + org + `", claim: "groups",
			roles: [{value: "docs-admins", role: ADMIN}, {value: "writers", role: EDIT}, {value: "visitors", role: null}]) { claim roles { value role } } }`
		if body := s.graphQL(token, setMapping); !strings.Contains(body, `{"value":"writers","role":"EDIT"}`) {
			t.Fatalf("set mapping: %s", body)
		}
		for _, bad := range []string{
			`claim: "groups", roles: [{value: "a", role: EDIT}, {value: "a", role: READ}]`,
			`claim: "", roles: [{value: "a", role: EDIT}]`,
			`claim: "groups", roles: [{value: "", role: EDIT}]`,
		} {
			body := s.graphQL(token, `mutation { setOrganizationSSORoleMapping(organizationId: "`+org+`", `+bad+`) { claim } }`)
			if !strings.Contains(body, `"code":"INVALID"`) {
				t.Errorf("%s: %s", bad, body)
			}
		}
		if body := s.graphQL(token, `{ organization(id: "`+org+`") { ssoRoleMapping { claim roles { value } } } }`); !strings.Contains(body, `"claim":"groups"`) {
			t.Fatalf("read mapping: %s", body)
		}
		// A newcomer by e-mail domain takes the mapped role rather than the default one.
		if resp, body := s.call("PATCH", "/v1/orgs/"+org, `{"emailDomains":["acme.test"],"defaultRole":"read"}`, "Authorization", token); resp.StatusCode != http.StatusOK {
			t.Fatalf("domain: %d %s", resp.StatusCode, body)
		}
		dee := &mockoidc.MockUser{Subject: "dee", Email: "dee@acme.test", EmailVerified: true, Groups: []string{"writers", "staff"}}
		s.ssoSession(dee)
		u, err := s.res.Store.FindUserByEmail(context.Background(), "dee@acme.test")
		if err != nil || s.role(u.ID) != "edit" {
			t.Fatalf("newcomer's role: %v %q, want edit", err, s.role(u.ID))
		}
		// No rule matches: the role stays. Several match: the highest. A null rule: guest.
		for _, step := range []struct {
			groups []string
			want   string
		}{{[]string{"staff"}, "edit"}, {[]string{"writers", "docs-admins"}, "admin"}, {[]string{"visitors"}, ""}} {
			dee.Groups = step.groups
			s.ssoSession(dee)
			if got := s.role(u.ID); got != step.want {
				t.Fatalf("groups %v: role %q, want %q", step.groups, got, step.want)
			}
		}
		// The last admin is never demoted by a claim.
		s.ssoSession(&mockoidc.MockUser{Subject: "ada", Email: "ada@example.com", EmailVerified: true, Groups: []string{"visitors"}})
		if got := s.role(s.creds.UserID); got != "admin" {
			t.Fatalf("last admin demoted to %q", got)
		}
		// Removing the mapping.
		if body := s.graphQL(token, `mutation { setOrganizationSSORoleMapping(organizationId: "`+org+`", claim: "", roles: []) { claim } }`); !strings.Contains(body, `"setOrganizationSSORoleMapping":null`) {
			t.Fatalf("remove mapping: %s", body)
		}
	})
}

func TestSSOMatchesPeopleByTheProvidersSubject(t *testing.T) {
	eachDBWith(t, account.Config{}, withSSO, func(t *testing.T, s *site) {
		s.ssoSession(&mockoidc.MockUser{Subject: "sub-ada", Email: "ada@example.com", EmailVerified: true})
		// Her address changes at the provider: the subject still finds her account.
		resp, body := s.finishSSO(s.startSSO(s.provider, &mockoidc.MockUser{Subject: "sub-ada", Email: "ada.lovelace@example.com", EmailVerified: true}, ""))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "signed in as ada@example.com") {
			t.Fatalf("changed address: %d %s", resp.StatusCode, body)
		}
		// Her old address, reassigned to someone else at the provider, does not reach her account.
		resp, body = s.finishSSO(s.startSSO(s.provider, &mockoidc.MockUser{Subject: "sub-mallory", Email: "ada@example.com", EmailVerified: true}, ""))
		if resp.StatusCode != http.StatusForbidden || strings.Contains(resp.Header.Get("Set-Cookie"), "bdys_") || !strings.Contains(body, "another identity") {
			t.Fatalf("reassigned address: %d %s", resp.StatusCode, body)
		}
	})
}

func TestAdminEndsAMembersSessions(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		org := s.creds.OrganizationID
		first, second := s.signIn(), s.signIn()
		body := s.graphQL("Bearer "+s.creds.Token, `mutation { endMemberSessions(organizationId: "`+org+`", userId: "`+s.creds.UserID+`") }`)
		if !strings.Contains(body, `"endMemberSessions":2`) {
			t.Fatalf("end sessions: %s", body)
		}
		for _, cookie := range []string{first, second} {
			if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", cookie); resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("a session survived: %d", resp.StatusCode)
			}
		}
		body = s.graphQL("Bearer "+s.creds.Token, `mutation { endMemberSessions(organizationId: "`+org+`", userId: "nobody") }`)
		if !strings.Contains(body, `"code":"NOT_FOUND"`) {
			t.Fatalf("not a member: %s", body)
		}
	})
}
