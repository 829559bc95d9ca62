package signin_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/mailer"
	"github.com/bindery/bindery/internal/smtptest"
	"github.com/bindery/bindery/signin"
)

func TestResetLinkByEmail(t *testing.T) {
	eachDBWith(t, account.Config{}, func(t *testing.T, s *site, o *signin.Options) {
		s.mailbox = smtptest.Start(t)
		m, err := mailer.New("smtp://" + s.mailbox.Addr + "?from=bindery@example.com")
		if err != nil {
			t.Fatal(err)
		}
		o.Mailer = m
	}, func(t *testing.T, s *site) {
		mailbox := s.mailbox
		known, body := s.call("POST", "/auth/reset-request", `{"email":"Ada@example.com"}`)
		unknown, body2 := s.call("POST", "/auth/reset-request", `{"email":"nobody@example.com"}`)
		if known.StatusCode != http.StatusAccepted || unknown.StatusCode != http.StatusAccepted || body != body2 {
			t.Fatalf("answers: %d %s / %d %s, want the same 202", known.StatusCode, body, unknown.StatusCode, body2)
		}
		msg := mailbox.Next(t)
		if msg.To != "ada@example.com" || msg.From != "bindery@example.com" || !strings.Contains(msg.Data, "Subject: Reset your Bindery password") {
			t.Fatalf("message: %+v", msg)
		}
		mailbox.None(t, 200*time.Millisecond) // nothing to the unknown address
		link := regexp.MustCompile(`http://\S+/auth/reset\?token=\S+`).FindString(msg.Data)
		u, err := url.Parse(link)
		if err != nil || link == "" {
			t.Fatalf("no link in %q", msg.Data)
		}
		resp, page := s.form("/auth/reset", url.Values{"token": {u.Query().Get("token")}, "password": {"the mailed new passphrase"}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Your password is set") {
			t.Fatalf("use the mailed link: %d %s", resp.StatusCode, page)
		}
		// Malformed and too frequent requests are refused.
		if resp, body := s.call("POST", "/auth/reset-request", `{"email":"not an address"}`); resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("malformed address: %d %s", resp.StatusCode, body)
		}
		var last *http.Response
		for i := 0; i < 6; i++ {
			last, _ = s.call("POST", "/auth/reset-request", `{"email":"someone@example.com"}`)
		}
		if last.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("sixth request for one address: %d, want 429", last.StatusCode)
		}
	})
}

func TestNewMailerRefusesBadURLs(t *testing.T) {
	for _, raw := range []string{"", "http://mail.example.com", "smtp://mail.example.com", "smtp://mail.example.com?from=not-an-address", "smtp:///?from=a@b.c"} {
		if _, err := mailer.New(raw); err == nil {
			t.Errorf("mailer.New(%q) accepted it", raw)
		}
	}
	if _, err := mailer.New("smtps://user:secret@mail.example.com?from=bindery@example.com"); err != nil {
		t.Errorf("a good URL: %v", err)
	}
}
