package domain

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/storage"
)

// Idempotency keys (docs/security.md): a POST that carries one runs once; its retries with the
// same key and the same request get the first answer back. The doors decide what a request and
// an answer are (REST and GraphQL alike: method, path and body in, status, headers and body
// out); this file keeps them, per token, in the database, so that every server sees them.
const (
	// IdempotencyTTL is how long a key and its answer are kept.
	IdempotencyTTL = 24 * time.Hour
	// IdempotencyLease is how long a claimed key waits for its request's answer: a request still
	// running after it (its server stopped) is taken as abandoned, and a retry runs again. It is
	// well beyond the request deadline of JSON requests (30 s), the only ones keys apply to.
	IdempotencyLease = 5 * time.Minute
	// MaxIdempotencyKeyLength bounds a key (Stripe's limit).
	MaxIdempotencyKeyLength = 255
)

// IdempotentAnswer is a stored answer: its status, the headers a replay repeats, and its body.
type IdempotentAnswer struct {
	Status int
	Header map[string]string
	Body   []byte
}

// IdempotencyClaim is what ClaimIdempotencyKey found. Exactly one holds: Claimed (the request
// runs, then FinishIdempotencyKey or ReleaseIdempotencyKey), Replay (the first answer),
// Running (the first request has not answered yet) or Mismatch (the key was used for another
// request).
type IdempotencyClaim struct {
	Claimed  bool
	Replay   *IdempotentAnswer
	Running  bool
	Mismatch bool
}

// ValidateIdempotencyKey checks a key: 1 to 255 printable ASCII characters. Errors: Invalid.
func ValidateIdempotencyKey(key string) error {
	if key == "" || len(key) > MaxIdempotencyKeyLength {
		return apperr.Invalidf("Idempotency-Key", "must be 1 to %d characters", MaxIdempotencyKeyLength)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return apperr.Invalidf("Idempotency-Key", "must be printable ASCII characters")
		}
	}
	return nil
}

// idempotencyScope is whose keys a request's key is among: its token's, so that no other caller
// (not even another token of the same user, which may have other scopes) can read its answers.
func idempotencyScope(ctx context.Context) (string, error) {
	a, err := authz.RequireActor(ctx)
	if err != nil {
		return "", err
	}
	if a.TokenID != "" {
		return "token:" + a.TokenID, nil
	}
	return "user:" + a.UserID, nil
}

// ClaimIdempotencyKey claims key for the caller's request with this fingerprint (a digest of
// what the request asks), or reports who holds it. Errors: Invalid, Unauthenticated.
func (r *App) ClaimIdempotencyKey(ctx context.Context, key, fingerprint string) (*IdempotencyClaim, error) {
	if err := ValidateIdempotencyKey(key); err != nil {
		return nil, err
	}
	scope, err := idempotencyScope(ctx)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	held, err := r.Store.ClaimIdempotencyKey(ctx, &storage.IdempotencyKey{Scope: scope, Key: key, Fingerprint: fingerprint,
		CreatedAt: now, LockedUntil: now.Add(IdempotencyLease), ExpiresAt: now.Add(IdempotencyTTL)})
	switch {
	case errors.Is(err, storage.ErrNotFound): // purged between the claim and its read
		return &IdempotencyClaim{Running: true}, nil
	case err != nil:
		return nil, err
	case held == nil:
		return &IdempotencyClaim{Claimed: true}, nil
	case held.Fingerprint != fingerprint:
		return &IdempotencyClaim{Mismatch: true}, nil
	case held.Status == nil:
		return &IdempotencyClaim{Running: true}, nil
	}
	answer := &IdempotentAnswer{Status: *held.Status, Body: held.Body}
	if held.Header != nil {
		if err := json.Unmarshal([]byte(*held.Header), &answer.Header); err != nil {
			return nil, err
		}
	}
	return &IdempotencyClaim{Replay: answer}, nil
}

// FinishIdempotencyKey stores the answer of the caller's request that claimed key.
func (r *App) FinishIdempotencyKey(ctx context.Context, key string, a IdempotentAnswer) error {
	scope, err := idempotencyScope(ctx)
	if err != nil {
		return err
	}
	header, err := json.Marshal(a.Header)
	if err != nil {
		return err
	}
	return r.Store.FinishIdempotencyKey(ctx, scope, key, a.Status, string(header), a.Body)
}

// ReleaseIdempotencyKey forgets the caller's claim on key without an answer, so that a retry runs
// the request again.
func (r *App) ReleaseIdempotencyKey(ctx context.Context, key string) error {
	scope, err := idempotencyScope(ctx)
	if err != nil {
		return err
	}
	return r.Store.ReleaseIdempotencyKey(ctx, scope, key)
}

// purgeArgs is the periodic job that deletes expired idempotency keys and rate-limit counts.
type purgeArgs struct{}

func (purgeArgs) Kind() string { return "purge_expired" }

// PurgeInterval is how often expired idempotency keys and rate-limit counts are deleted. Expired
// rows are never used in between: a claim replaces an expired key, and counts are read by window.
const PurgeInterval = time.Hour

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, func(ctx context.Context, _ *jobs.Job[purgeArgs]) error { return r.PurgeExpired(ctx) })
		jobs.Every(reg, PurgeInterval, purgeArgs{})
	})
}

// PurgeExpired deletes expired idempotency keys and rate-limit counts.
func (r *App) PurgeExpired(ctx context.Context) error {
	now := r.Now()
	keys, err := r.Store.PurgeIdempotencyKeys(ctx, now)
	if err != nil {
		return err
	}
	// Rate counts follow the wall clock (the limiter's), not the resolver's.
	counts, err := r.Store.PurgeRateCounts(ctx, time.Now())
	if err != nil {
		return err
	}
	if keys+counts > 0 {
		slog.InfoContext(ctx, "purged expired rows", "idempotency_keys", keys, "rate_limit_counts", counts)
	}
	return nil
}
