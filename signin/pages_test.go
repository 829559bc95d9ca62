package signin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/storage"
)

// form posts a form as the page's own browser would.
func (s *site) form(path string, values url.Values, headers ...string) (*http.Response, string) {
	s.t.Helper()
	return s.call("POST", path, values.Encode(), append([]string{"Content-Type", "application/x-www-form-urlencoded", "Sec-Fetch-Site", "same-origin"}, headers...)...)
}

// inviteLink creates an invite link to the organization with role, through REST as its admin.
func (s *site) inviteLink(role string) string {
	s.t.Helper()
	resp, body := s.call("POST", "/v1/orgs/"+s.creds.OrganizationID+"/link-invites", `{"role":"`+role+`"}`, "Authorization", "Bearer "+s.creds.Token)
	if resp.StatusCode != http.StatusCreated {
		s.t.Fatalf("create invite link: %d %s", resp.StatusCode, body)
	}
	var link struct{ ID string }
	json.Unmarshal([]byte(body), &link) //nolint:errcheck
	return "/auth/invite/" + s.creds.OrganizationID + "/" + link.ID
}

// role is a user's role in the organization, read through REST ("" when not a member).
func (s *site) role(userID string) string {
	resp, body := s.call("GET", "/v1/orgs/"+s.creds.OrganizationID+"/members/"+userID, "", "Authorization", "Bearer "+s.creds.Token)
	if resp.StatusCode != http.StatusOK {
		return ""
	}
	var m struct{ Role string }
	json.Unmarshal([]byte(body), &m) //nolint:errcheck
	return m.Role
}

func TestInviteSignUpJoinsWithTheRole(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		link := s.inviteLink("edit")
		resp, body := s.call("GET", link, "")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Acme") || !strings.Contains(body, "<strong>edit</strong>") ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Fatalf("invite page: %d %s", resp.StatusCode, body)
		}
		// A refused sign-up (weak password) creates nothing.
		resp, body = s.form(link, url.Values{"action": {"sign-up"}, "name": {"Bo"}, "email": {"bo@example.com"}, "password": {"short"}})
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "at least 12") {
			t.Fatalf("weak password: %d %s", resp.StatusCode, body)
		}
		if _, err := s.res.Store.FindUserByEmail(context.Background(), "bo@example.com"); err == nil {
			t.Fatal("a refused sign-up created the user")
		}
		resp, body = s.form(link, url.Values{"action": {"sign-up"}, "name": {"Bo"}, "email": {"bo@example.com"}, "password": {"bo's long passphrase"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "You joined Acme") {
			t.Fatalf("sign-up: %d %s", resp.StatusCode, body)
		}
		cookie := sessionCookie(t, resp)
		bo, err := s.res.Store.FindUserByEmail(context.Background(), "bo@example.com")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.role(bo.ID); got != "edit" {
			t.Fatalf("role after joining = %q, want edit", got)
		}
		// The cookie works on /graphql, and shows the organization.
		resp, body = s.call("POST", "/graphql", gql(`{ viewer { email } organizations { nodes { id } } }`), "Cookie", cookie)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, s.creds.OrganizationID) {
			t.Fatalf("graphql as the new member: %d %s", resp.StatusCode, body)
		}
		// Signing up again with a taken address is refused: sign in instead.
		resp, body = s.form(link, url.Values{"action": {"sign-up"}, "name": {"X"}, "email": {"ada@example.com"}, "password": {"someone else's phrase"}})
		if resp.StatusCode != http.StatusConflict {
			t.Fatalf("sign-up with a taken address: %d %s", resp.StatusCode, body)
		}
	})
}

func TestInviteSignInOrSessionJoins(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		ctx := context.Background()
		u, err := s.res.Store.CreateUser(ctx, storage.NewUser{DisplayName: "Cy", Email: "cy@example.com"}, s.now)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.accounts.SetPassword(ctx, u.ID, "cy's long passphrase"); err != nil {
			t.Fatal(err)
		}
		link := s.inviteLink("read")
		resp, body := s.form(link, url.Values{"action": {"sign-in"}, "email": {"cy@example.com"}, "password": {"not cy's password"}})
		if resp.StatusCode != http.StatusUnauthorized || s.role(u.ID) != "" {
			t.Fatalf("wrong password: %d %s (role %q)", resp.StatusCode, body, s.role(u.ID))
		}
		resp, body = s.form(link, url.Values{"action": {"sign-in"}, "email": {"cy@example.com"}, "password": {"cy's long passphrase"}})
		if resp.StatusCode != http.StatusOK || s.role(u.ID) != "read" {
			t.Fatalf("sign in and join: %d %s (role %q)", resp.StatusCode, body, s.role(u.ID))
		}
		// Ada, signed in, joins through a link: as a current admin she keeps her role.
		cookie := s.signIn()
		resp, body = s.call("GET", link, "", "Cookie", cookie)
		if !strings.Contains(body, "Signed in as ada@example.com") {
			t.Fatalf("invite page with a session: %s", body)
		}
		resp, body = s.form(link, url.Values{"action": {"join"}}, "Cookie", cookie)
		if resp.StatusCode != http.StatusOK || s.role(s.creds.UserID) != "admin" {
			t.Fatalf("join with a session: %d %s (role %q)", resp.StatusCode, body, s.role(s.creds.UserID))
		}
		if resp, body := s.form(link, url.Values{"action": {"join"}}); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("join without a session: %d %s", resp.StatusCode, body)
		}
	})
}

func TestInviteRefusals(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		link := s.inviteLink("admin")
		id := link[strings.LastIndex(link, "/")+1:]
		tests := []struct {
			name, path string
			values     url.Values
			headers    []string
			want       int
		}{
			{"unknown link", "/auth/invite/" + s.creds.OrganizationID + "/nope", url.Values{"action": {"join"}}, nil, http.StatusNotFound},
			{"unknown organization", "/auth/invite/nope/" + id, url.Values{"action": {"join"}}, nil, http.StatusNotFound},
			{"unknown action", link, url.Values{"action": {"become-admin"}}, nil, http.StatusBadRequest},
			{"oversized form", link, url.Values{"action": {"sign-up"}, "name": {strings.Repeat("n", 20000)}}, nil, http.StatusRequestEntityTooLarge},
			{"forged from another site", link, url.Values{"action": {"sign-up"}, "name": {"Mal"}, "email": {"mal@example.com"}, "password": {"mal's long passphrase"}},
				[]string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden},
		}
		for _, tt := range tests {
			resp, body := s.form(tt.path, tt.values, tt.headers...)
			if resp.StatusCode != tt.want {
				t.Errorf("%s: %d %s, want %d", tt.name, resp.StatusCode, body, tt.want)
			}
		}
		if _, err := s.res.Store.FindUserByEmail(context.Background(), "mal@example.com"); err == nil {
			t.Fatal("a forged sign-up created a user")
		}
		// A deleted link, and links turned off: the page says the link is not valid.
		s.call("PATCH", "/v1/orgs/"+s.creds.OrganizationID, `{"inviteLinks":false}`, "Content-Type", "application/json", "Authorization", "Bearer "+s.creds.Token)
		if resp, body := s.call("GET", link, ""); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "not valid") {
			t.Fatalf("links turned off: %d %s", resp.StatusCode, body)
		}
		s.call("PATCH", "/v1/orgs/"+s.creds.OrganizationID, `{"inviteLinks":true}`, "Content-Type", "application/json", "Authorization", "Bearer "+s.creds.Token)
		s.call("DELETE", "/v1/orgs/"+s.creds.OrganizationID+"/link-invites/"+id, "", "Authorization", "Bearer "+s.creds.Token)
		resp, body := s.form(link, url.Values{"action": {"sign-up"}, "name": {"Late"}, "email": {"late@example.com"}, "password": {"late's long passphrase"}})
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("deleted link: %d %s", resp.StatusCode, body)
		}
		if _, err := s.res.Store.FindUserByEmail(context.Background(), "late@example.com"); err == nil {
			t.Fatal("a deleted link's sign-up created a user")
		}
	})
}

func TestResetLinkPage(t *testing.T) {
	eachDB(t, account.Config{LinkLifetime: time.Hour}, func(t *testing.T, s *site) {
		ctx := context.Background()
		before := s.signIn()
		token, _, err := s.accounts.IssueLink(ctx, "ada@example.com", storage.LinkReset)
		if err != nil {
			t.Fatal(err)
		}
		page := "/auth/reset?token=" + url.QueryEscape(token)
		if resp, body := s.call("GET", page, ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, "ada@example.com") || resp.Header.Get("Referrer-Policy") != "no-referrer" {
			t.Fatalf("reset page: %d %s", resp.StatusCode, body)
		}
		// A set-up page does not take a reset link.
		if resp, _ := s.call("GET", "/auth/setup?token="+url.QueryEscape(token), ""); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("reset link on the set-up page: %d", resp.StatusCode)
		}
		if resp, body := s.form("/auth/reset", url.Values{"token": {token}, "password": {"short"}}); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "at least 12") {
			t.Fatalf("weak password: %d %s", resp.StatusCode, body)
		}
		resp, body := s.form("/auth/reset", url.Values{"token": {token}, "password": {"a fresh long passphrase"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Your password is set") {
			t.Fatalf("reset: %d %s", resp.StatusCode, body)
		}
		after := sessionCookie(t, resp)
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", after); resp.StatusCode != http.StatusOK {
			t.Fatal("the reset did not sign in")
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", before); resp.StatusCode != http.StatusUnauthorized {
			t.Fatal("a session from before the reset survived it")
		}
		// Reused, forged and expired links: refused, nothing changes.
		expired, _, _ := s.accounts.IssueLink(ctx, "ada@example.com", storage.LinkReset)
		s.now = s.now.Add(time.Hour)
		for name, tok := range map[string]string{"reused": token, "forged": "bdyl_" + strings.Repeat("A", 40), "expired": expired, "not a link": "<script>"} {
			resp, body := s.form("/auth/reset", url.Values{"token": {tok}, "password": {"an attacker's passphrase"}})
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "not valid") || resp.Header.Get("Set-Cookie") != "" {
				t.Errorf("%s link: %d %s", name, resp.StatusCode, body)
			}
		}
		if _, err := s.accounts.SignIn(ctx, "ada@example.com", "a fresh long passphrase", account.Client{}); err != nil {
			t.Fatalf("refused links changed the password: %v", err)
		}
	})
}
