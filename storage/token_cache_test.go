package storage_test

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// The authentication cache never lets a token outlive its expiry or a revocation on this
// instance, and sees another instance's revocation within its TTL.
func TestTokenCacheEndsWithTheToken(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := storagetest.DSN(t, d)
			// The cache ages by a clock of the test's: passing its TTL is a step, not a wait.
			const ttl = 3 * time.Second
			var mu sync.Mutex
			wall := time.Now()
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return wall }
			pass := func(d time.Duration) { mu.Lock(); wall = wall.Add(d); mu.Unlock() }
			s := storagetest.OpenAt(t, dsn, storage.WithMaxConns(2), storage.WithTokenCache(ttl), storage.WithTokenCacheClock(clock))
			// Another instance's view of the same database, to revoke behind this one's back.
			driver, raw := "pgx", dsn
			if d == storage.SQLite {
				driver, raw = "sqlite", "file:"+dsn+"?_pragma=busy_timeout(10000)"
			}
			other, err := sql.Open(driver, raw)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			revokeElsewhere := func() {
				if _, err := other.Exec(`DELETE FROM api_tokens`); err != nil {
					t.Fatal(err)
				}
			}

			now := time.Now().UTC()
			u, err := s.CreateUser(ctx, storage.NewUser{DisplayName: "Ada", Email: "ada@example.com"}, now)
			if err != nil {
				t.Fatal(err)
			}
			later := now.Add(time.Hour)
			token := func() string {
				tok, err := s.CreateToken(ctx, u.ID, now, &later)
				if err != nil {
					t.Fatal(err)
				}
				return tok
			}
			found := func(tok string, at time.Time) bool {
				t.Helper()
				got, err := s.FindUserByToken(ctx, tok, at)
				if errors.Is(err, storage.ErrNotFound) {
					return false
				}
				if err != nil || got.ID != u.ID {
					t.Fatalf("FindUserByToken = %v, %v", got, err)
				}
				return true
			}

			// Revoked on another instance: seen within the TTL.
			tok := token()
			if !found(tok, now) {
				t.Fatal("a fresh token does not authenticate")
			}
			revokeElsewhere()
			if !found(tok, now) {
				t.Error("the cache did not answer (the test proves nothing)")
			}
			pass(ttl - time.Millisecond)
			if !found(tok, now) {
				t.Error("the cache forgot the token before its TTL")
			}
			pass(2 * time.Millisecond)
			if found(tok, now) {
				t.Error("a token revoked elsewhere still works after the cache's TTL")
			}

			// Revoked here: ForgetToken ends it at once.
			tok = token()
			found(tok, now)
			revokeElsewhere()
			s.ForgetToken(tok)
			if found(tok, now) {
				t.Error("a forgotten token still works")
			}

			// Expired: ends at its expiry, cached or not.
			tok = token()
			found(tok, now)
			if found(tok, later) {
				t.Error("an expired token still works from the cache")
			}

			// ForgetUserTokens drops all of a user's.
			tok = token()
			found(tok, now)
			revokeElsewhere()
			s.ForgetUserTokens(u.ID)
			if found(tok, now) {
				t.Error("a token of a forgotten user still works")
			}
		})
	}
}
