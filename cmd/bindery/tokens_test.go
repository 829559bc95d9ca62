package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestAdminTokenListAndRevoke(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			db := storagetest.DSN(t, d)
			ctx := context.Background()
			out, err := run(t, ctx, "admin", "bootstrap", "--database", db, "--org-title", "Acme", "--email", "boss@acme.test", "--json")
			var boot struct{ Token string }
			if err != nil || json.Unmarshal([]byte(out), &boot) != nil {
				t.Fatalf("bootstrap: %q %v", out, err)
			}
			if _, err := run(t, ctx, "admin", "user", "create", "--database", db, "--email", "ed@acme.test"); err != nil {
				t.Fatal(err)
			}
			if _, err := run(t, ctx, "admin", "token", "create", "--database", db, "--email", "ed@acme.test", "--expires", "1h"); err != nil {
				t.Fatal(err)
			}

			out, err = run(t, ctx, "admin", "token", "list", "--database", db, "--json")
			var list struct {
				Items []struct {
					ID, UserEmail string
					ExpiresAt     *time.Time
				}
				Count int
			}
			if err != nil || json.Unmarshal([]byte(out), &list) != nil || list.Count != 3 {
				t.Fatalf("list: %q %v", out, err)
			}
			if strings.Contains(out, "bdy_") {
				t.Fatalf("list shows a secret: %s", out)
			}
			out, err = run(t, ctx, "admin", "token", "list", "--database", db, "--email", "boss@acme.test")
			if err != nil || !strings.Contains(out, "LAST USED") || !strings.Contains(out, "boss@acme.test") || strings.Contains(out, "ed@acme.test") {
				t.Fatalf("list --email: %q %v", out, err)
			}
			bossToken := ""
			for _, it := range list.Items {
				if it.UserEmail == "boss@acme.test" {
					bossToken = it.ID
				}
			}
			if _, err := run(t, ctx, "admin", "token", "list", "--database", db, "--email", "nobody@acme.test"); err == nil || exitCode(err) != exitFailure {
				t.Errorf("listing an unknown user's tokens: %v", err)
			}

			s, err := storage.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.FindUserByToken(ctx, boot.Token, time.Now()); err != nil {
				t.Fatal(err)
			}
			if out, err := run(t, ctx, "admin", "token", "revoke", "--database", db, "--id", bossToken); err != nil || !strings.Contains(out, bossToken) {
				t.Fatalf("revoke: %q %v", out, err)
			}
			if _, err := s.FindUserByToken(ctx, boot.Token, time.Now()); !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("revoked token still authenticates: %v", err)
			}
			if _, err := run(t, ctx, "admin", "token", "revoke", "--database", db, "--id", bossToken); err == nil {
				t.Error("revoking twice succeeded")
			}
		})
	}
}
