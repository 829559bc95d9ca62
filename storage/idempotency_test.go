package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// An idempotency key is held by its first request until it answers, then replays that answer
// until it expires; a request abandoned past its lease, or a key past its expiry, is claimed
// again; another caller's key of the same name is another key.
func TestIdempotencyKeyClaims(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
		claim := func(scope, key, fingerprint string, at time.Time) *storage.IdempotencyKey {
			t.Helper()
			held, err := s.ClaimIdempotencyKey(ctx, &storage.IdempotencyKey{Scope: scope, Key: key, Fingerprint: fingerprint,
				CreatedAt: at, LockedUntil: at.Add(5 * time.Minute), ExpiresAt: at.Add(24 * time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			return held
		}

		if held := claim("token:a", "k", "f1", t0); held != nil {
			t.Fatalf("a new key is held by %+v", held)
		}
		held := claim("token:a", "k", "f2", t0.Add(time.Second))
		if held == nil || held.Fingerprint != "f1" || held.Status != nil {
			t.Fatalf("a running key's second claim = %+v, want the first request's, running", held)
		}
		if held := claim("token:b", "k", "f3", t0.Add(time.Second)); held != nil {
			t.Errorf("another token's key of the same name is held by %+v", held)
		}

		if err := s.FinishIdempotencyKey(ctx, "token:a", "k", 201, `{"Location":"/x"}`, []byte(`{"id":"x"}`)); err != nil {
			t.Fatal(err)
		}
		// Past its lease but answered: replayed, not claimed again.
		held = claim("token:a", "k", "f1", t0.Add(time.Hour))
		if held == nil || held.Status == nil || *held.Status != 201 || string(held.Body) != `{"id":"x"}` || held.Header == nil {
			t.Fatalf("an answered key's claim = %+v, want its answer", held)
		}
		// A second answer does not replace the first; a release of an answered key forgets nothing.
		if err := s.FinishIdempotencyKey(ctx, "token:a", "k", 500, `{}`, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.ReleaseIdempotencyKey(ctx, "token:a", "k"); err != nil {
			t.Fatal(err)
		}
		if held := claim("token:a", "k", "f1", t0.Add(time.Hour)); held == nil || held.Status == nil || *held.Status != 201 {
			t.Fatalf("the answer after a second finish and a release = %+v, want the first", held)
		}
		// Past its expiry: claimed again, its old answer gone.
		if held := claim("token:a", "k", "f9", t0.Add(24*time.Hour)); held != nil {
			t.Fatalf("an expired key is held by %+v", held)
		}
		if held := claim("token:a", "k", "f1", t0.Add(24*time.Hour+time.Minute)); held == nil || held.Fingerprint != "f9" || held.Status != nil {
			t.Fatalf("the reclaimed key = %+v, want the new request's, running", held)
		}

		// Running within its lease: held; abandoned past it: claimed again.
		claim("token:a", "lease", "f1", t0)
		if held := claim("token:a", "lease", "f1", t0.Add(5*time.Minute-time.Second)); held == nil {
			t.Error("a running key was claimed again within its lease")
		}
		if held := claim("token:a", "lease", "f1", t0.Add(5*time.Minute)); held != nil {
			t.Errorf("an abandoned key is still held by %+v", held)
		}

		// Released without an answer: a retry runs again.
		claim("token:a", "released", "f1", t0)
		if err := s.ReleaseIdempotencyKey(ctx, "token:a", "released"); err != nil {
			t.Fatal(err)
		}
		if held := claim("token:a", "released", "f1", t0.Add(time.Second)); held != nil {
			t.Errorf("a released key is held by %+v", held)
		}

		// The purge removes what expired, and only that: token:b's k and released (claimed at
		// t0 + 1 s), not lease (claimed again at t0 + 5 min) nor token:a's k (at t0 + 24 h).
		n, err := s.PurgeIdempotencyKeys(ctx, t0.Add(24*time.Hour+2*time.Second))
		if err != nil || n != 2 {
			t.Errorf("PurgeIdempotencyKeys = %d, %v; want 2", n, err)
		}
		if held := claim("token:a", "k", "f1", t0.Add(24*time.Hour+time.Minute)); held == nil || held.Fingerprint != "f9" {
			t.Errorf("after the purge, token:a's k = %+v, want still held", held)
		}
	})
}

// A user revokes only their own tokens; a revoked token authenticates nothing more.
func TestRevokeTokenIsScopedToItsUser(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
		ann, err := s.CreateUser(ctx, storage.NewUser{DisplayName: "Ann", Email: "ann@revoke.test"}, now)
		if err != nil {
			t.Fatal(err)
		}
		bob, err := s.CreateUser(ctx, storage.NewUser{DisplayName: "Bob", Email: "bob@revoke.test"}, now)
		if err != nil {
			t.Fatal(err)
		}
		token, err := s.CreateToken(ctx, ann.ID, now, nil)
		if err != nil {
			t.Fatal(err)
		}
		found, err := s.FindToken(ctx, token, now)
		if err != nil || found.UserID != ann.ID {
			t.Fatalf("FindToken = %+v, %v", found, err)
		}
		if _, err := s.RevokeToken(ctx, found.ID, bob.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("another user revoked the token: err %v, want ErrNotFound", err)
		}
		s.ForgetToken(token)
		if _, err := s.FindToken(ctx, token, now); err != nil {
			t.Fatalf("the token stopped authenticating after another user's refused revocation: %v", err)
		}
		if _, err := s.RevokeToken(ctx, found.ID, ann.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FindToken(ctx, token, now); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("a revoked token authenticates: %v", err)
		}
		if _, err := s.FindToken(ctx, token+"x", now); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("an unknown token authenticates: %v", err)
		}
	})
}
