package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// IdempotencyKey is a request's Idempotency-Key, scoped by its caller, with a fingerprint of the
// request and, once the request has run, its answer. Status is nil while the request runs.
type IdempotencyKey struct {
	bun.BaseModel `bun:"table:idempotency_keys,alias:k"`

	Scope       string    `bun:"scope,pk"`
	Key         string    `bun:"idempotency_key,pk"`
	Fingerprint string    `bun:"fingerprint,notnull"`
	Status      *int      `bun:"status"`
	Header      *string   `bun:"header"` // the answer's headers that a replay repeats, as a JSON object
	Body        []byte    `bun:"body"`
	CreatedAt   time.Time `bun:"created_at,notnull"`
	LockedUntil time.Time `bun:"locked_until,notnull"` // a request still running then was abandoned
	ExpiresAt   time.Time `bun:"expires_at,notnull"`
}

// ClaimIdempotencyKey claims k (Scope, Key, Fingerprint and times set) for a request about to
// run: it is inserted, or replaces a row that has expired or whose request was abandoned (still
// running at its LockedUntil). It returns nil when the key is claimed, and otherwise the row that
// holds it: the caller compares its fingerprint and replays its answer, or waits for it. One
// statement when the key is new, two when it is held.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, k *IdempotencyKey) (*IdempotencyKey, error) {
	res, err := s.db.NewInsert().Model(k).
		On("CONFLICT (scope, idempotency_key) DO UPDATE").
		Set("fingerprint = EXCLUDED.fingerprint, status = NULL, header = NULL, body = NULL").
		Set("created_at = EXCLUDED.created_at, locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at").
		Where("k.expires_at <= EXCLUDED.created_at OR (k.status IS NULL AND k.locked_until <= EXCLUDED.created_at)").
		Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("claim idempotency key: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil, nil
	}
	held := new(IdempotencyKey)
	err = s.db.NewSelect().Model(held).Where("scope = ?", k.Scope).Where("idempotency_key = ?", k.Key).Scan(ctx)
	if err != nil {
		// Gone between the two statements (purged): the caller may try again.
		return nil, fmt.Errorf("read idempotency key: %w", translate(err))
	}
	return held, nil
}

// FinishIdempotencyKey stores the answer of the request that claimed (scope, key), for its
// retries to replay.
func (s *Store) FinishIdempotencyKey(ctx context.Context, scope, key string, status int, header string, body []byte) error {
	_, err := s.db.NewUpdate().Model((*IdempotencyKey)(nil)).
		Set("status = ?", status).Set("header = ?", header).Set("body = ?", body).
		Where("scope = ?", scope).Where("idempotency_key = ?", key).Where("status IS NULL").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("store idempotent answer: %w", translate(err))
	}
	return nil
}

// ReleaseIdempotencyKey forgets a claim whose request did not produce an answer worth keeping,
// so that a retry runs it again.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, scope, key string) error {
	_, err := s.db.NewDelete().Model((*IdempotencyKey)(nil)).
		Where("scope = ?", scope).Where("idempotency_key = ?", key).Where("status IS NULL").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("release idempotency key: %w", translate(err))
	}
	return nil
}

// PurgeIdempotencyKeys deletes the keys that expired before now, and returns how many.
func (s *Store) PurgeIdempotencyKeys(ctx context.Context, now time.Time) (int, error) {
	res, err := s.db.NewDelete().Model((*IdempotencyKey)(nil)).Where("expires_at <= ?", now).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("purge idempotency keys: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
