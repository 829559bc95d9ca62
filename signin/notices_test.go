package signin_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/mailer"
	"github.com/bindery/bindery/internal/smtptest"
	"github.com/bindery/bindery/signin"
	"github.com/bindery/bindery/storage"
)

// withMail gives the server an SMTP server to mail through, sign-in notices on, and its background
// jobs running (invites and notices are mailed by jobs).
func withMail(t *testing.T, s *site, o *signin.Options) {
	s.mailbox = smtptest.Start(t)
	m, err := mailer.New("smtp://" + s.mailbox.Addr + "?from=bindery@example.com")
	if err != nil {
		t.Fatal(err)
	}
	s.res.Mail, o.Mailer = m, m
	s.accounts = account.New(s.res.Store, func() time.Time { return s.now }, account.Config{Notify: s.res.NoticeSignIn})
	s.res.Accounts = s.accounts
	runner, err := s.res.StartJobs(context.Background(), jobs.Config{PollInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runner.Stop(context.Background()) }) //nolint:errcheck
}

func TestInvitedPeopleAreMailed(t *testing.T) {
	eachDBWith(t, account.Config{}, withMail, func(t *testing.T, s *site) {
		org := s.creds.OrganizationID
		resp, body := s.call("POST", "/v1/orgs/"+org+"/invites", `{"emails":["grace@example.com"],"role":"edit"}`, "Authorization", "Bearer "+s.creds.Token)
		if resp.StatusCode >= 300 {
			t.Fatalf("invite: %d %s", resp.StatusCode, body)
		}
		msg := s.mailbox.Next(t)
		if msg.To != "grace@example.com" || !strings.Contains(msg.Data, "Subject: You are invited to Acme on Bindery") || !strings.Contains(msg.Data, "Ada invited you") {
			t.Fatalf("invite message: %+v", msg)
		}
		// The mailed link lets the newcomer choose a password and sign in.
		link := regexp.MustCompile(`http://\S+/auth/setup\?token=\S+`).FindString(msg.Data)
		u, err := url.Parse(link)
		if err != nil || link == "" {
			t.Fatalf("no set-up link in %q", msg.Data)
		}
		resp, page := s.form("/auth/setup", url.Values{"token": {u.Query().Get("token")}, "password": {"grace's long passphrase"}})
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("set up from the invite: %d %s", resp.StatusCode, page)
		}
		if resp, body := s.call("POST", "/auth/sign-in", `{"email":"grace@example.com","password":"grace's long passphrase"}`); resp.StatusCode != http.StatusOK {
			t.Fatalf("sign in after the invite: %d %s", resp.StatusCode, body)
		}
		// Following the mailed link proved the address.
		if grace, err := s.res.Store.FindUserByEmail(context.Background(), "grace@example.com"); err != nil || !grace.EmailVerified {
			t.Fatalf("the invitee's address is not verified after the set-up link: %v", err)
		}
		// Someone who already has an account is told where to go, with no link to spend.
		s.call("POST", "/v1/orgs/"+org+"/invites", `{"emails":["grace@example.com"]}`, "Authorization", "Bearer "+s.creds.Token)
		s.mailbox.None(t, 300*time.Millisecond) // already a member: nobody was added
	})
}

func TestSignInFromANewBrowserIsNoticed(t *testing.T) {
	eachDBWith(t, account.Config{}, withMail, func(t *testing.T, s *site) {
		s.signIn("User-Agent", "Firefox on a laptop")
		s.mailbox.None(t, 300*time.Millisecond) // the first session is not news
		s.signIn("User-Agent", "Firefox on a laptop")
		s.mailbox.None(t, 300*time.Millisecond) // the same browser again
		s.signIn("User-Agent", "Chrome on a phone")
		msg := s.mailbox.Next(t)
		if msg.To != "ada@example.com" || !strings.Contains(msg.Data, "Subject: New sign-in to your Bindery account") ||
			!strings.Contains(msg.Data, "Chrome on a phone") || !strings.Contains(msg.Data, "password") {
			t.Fatalf("notice: %+v", msg)
		}
		// Each sign-in is one event of the organization's audit log, the noticed one too.
		events, err := s.res.Store.FindEvents(context.Background(), storage.EventFilter{OrganizationID: s.creds.OrganizationID, Type: "user_signed_in"}, storage.Window{Limit: 10})
		if err != nil || len(events.Items) != 3 {
			t.Fatalf("sign-in events: %d, %v; want 3", len(events.Items), err)
		}
	})
}

// Signing out, ending sessions, changing a password and an admin's sign-out are audit events of
// the person's organization, written with the change.
func TestSessionEndsAndPasswordChangesAreEvents(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		count := func(typ string) int {
			t.Helper()
			l, err := s.res.Store.FindEvents(context.Background(), storage.EventFilter{OrganizationID: s.creds.OrganizationID, Type: typ}, storage.Window{Limit: 20})
			if err != nil {
				t.Fatal(err)
			}
			return len(l.Items)
		}
		first := s.signIn()
		if resp, body := s.call("POST", "/auth/sign-out", "", "Cookie", first, "Sec-Fetch-Site", "same-origin"); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("sign-out: %d %s", resp.StatusCode, body)
		}
		s.call("POST", "/auth/sign-out", "", "Cookie", first, "Sec-Fetch-Site", "same-origin") // already ended: no event
		if n := count("user_signed_out"); n != 1 {
			t.Fatalf("sign-out events: %d, want 1", n)
		}
		cookie := s.signIn()
		resp, body := s.call("POST", "/auth/password", `{"currentPassword":"`+password+`","newPassword":"a brand new passphrase"}`, "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
		if resp.StatusCode >= 300 {
			t.Fatalf("change password: %d %s", resp.StatusCode, body)
		}
		if n := count("user_password_changed"); n != 1 {
			t.Fatalf("password events: %d, want 1", n)
		}
		s.graphQL("Bearer "+s.creds.Token, `mutation { endMemberSessions(organizationId: "`+s.creds.OrganizationID+`", userId: "`+s.creds.UserID+`") }`)
		if n := count("user_signed_out"); n != 2 {
			t.Fatalf("sign-out events after the admin's: %d, want 2", n)
		}
	})
}
