package main

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestAdminPasswordResetLink(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			db := storagetest.DSN(t, d)
			ctx := context.Background()
			if _, err := run(t, ctx, "admin", "bootstrap", "--database", db, "--org-title", "Acme", "--email", "boss@acme.test"); err != nil {
				t.Fatal(err)
			}
			out, err := run(t, ctx, "admin", "password", "reset-link", "--database", db, "--email", "boss@acme.test", "--public-url", "https://docs.acme.test/", "--json")
			var printed struct{ URL string }
			if err != nil || json.Unmarshal([]byte(out), &printed) != nil {
				t.Fatalf("reset-link: %q %v", out, err)
			}
			u, err := url.Parse(printed.URL)
			if err != nil || u.Scheme+"://"+u.Host+u.Path != "https://docs.acme.test/auth/reset" {
				t.Fatalf("link = %q", printed.URL)
			}
			if _, err := run(t, ctx, "admin", "password", "reset-link", "--database", db, "--email", "nobody@acme.test"); err == nil {
				t.Fatal("a link for an unknown e-mail was printed")
			}
			store := storagetest.OpenAt(t, db)
			svc := account.New(store, func() time.Time { return time.Now().UTC() }, account.Config{})
			token := u.Query().Get("token")
			if !strings.HasPrefix(token, storage.LinkPrefix) {
				t.Fatalf("token = %q", token)
			}
			if _, err := svc.RedeemLink(ctx, token, storage.LinkReset, "the boss's new passphrase", account.Client{}); err != nil {
				t.Fatalf("redeem the printed link: %v", err)
			}
			if _, err := svc.RedeemLink(ctx, token, storage.LinkReset, "someone else's phrase", account.Client{}); apperr.KindOf(err) != apperr.Invalid {
				t.Fatalf("the printed link used twice: %v", err)
			}
			if _, err := svc.SignIn(ctx, "boss@acme.test", "the boss's new passphrase", account.Client{}); err != nil {
				t.Fatalf("sign in with the new password: %v", err)
			}
		})
	}
}
