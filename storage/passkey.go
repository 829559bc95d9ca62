package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// CeremonyPrefix starts every passkey ceremony token (held by the browser in a short-lived cookie).
const CeremonyPrefix = "bdyc_"

// Passkey is one of a user's WebAuthn credentials. Byte strings are base64url encoded.
type Passkey struct {
	bun.BaseModel `bun:"table:passkeys,alias:pk"`

	ID                string `bun:"id,pk"`
	UserID            string
	CredentialID      string
	PublicKey         string
	SignCount         int64
	Transports        string // comma-separated
	Flags             int    // the authenticator flags byte at registration, updated at each use
	AAGUID            string `bun:"aaguid"`
	AttestationFormat string
	Name              string
	CreatedAt         time.Time
	LastUsedAt        *time.Time
}

// PasskeyCeremony is a registration or sign-in in progress: the library's session data (JSON).
type PasskeyCeremony struct {
	bun.BaseModel `bun:"table:passkey_ceremonies,alias:pc"`

	TokenHash string `bun:"token_hash,pk"`
	Kind      string
	UserID    *string
	Data      string
	ExpiresAt time.Time
}

// CreatePasskey stores a new credential. Errors: ErrConflict when the credential id is registered
// already (to anyone).
func (s *Store) CreatePasskey(ctx context.Context, p *Passkey) error {
	p.ID = NewID()
	if _, err := s.db.NewInsert().Model(p).Exec(ctx); err != nil {
		return fmt.Errorf("create passkey: %w", translate(err))
	}
	return nil
}

// ListPasskeys returns a user's passkeys, oldest first.
func (s *Store) ListPasskeys(ctx context.Context, userID string) ([]*Passkey, error) {
	var out []*Passkey
	if err := s.db.NewSelect().Model(&out).Where("pk.user_id = ?", userID).OrderExpr("pk.created_at, pk.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list passkeys: %w", translate(err))
	}
	return out, nil
}

// FindPasskeyByCredential returns the passkey with that credential id. Errors: ErrNotFound.
func (s *Store) FindPasskeyByCredential(ctx context.Context, credentialID string) (*Passkey, error) {
	p := new(Passkey)
	if err := s.db.NewSelect().Model(p).Where("pk.credential_id = ?", credentialID).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return p, nil
}

// RecordPasskeyUse stores the sign count and flags an assertion brought, and when. Errors:
// ErrNotFound when the passkey was removed meanwhile.
func (s *Store) RecordPasskeyUse(ctx context.Context, id string, signCount int64, flags int, now time.Time) error {
	res, err := s.db.NewUpdate().Model((*Passkey)(nil)).Set("sign_count = ?", signCount).Set("flags = ?", flags).
		Set("last_used_at = ?", now).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record passkey use: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// RenamePasskey names one of a user's passkeys. Errors: ErrNotFound (also another user's).
func (s *Store) RenamePasskey(ctx context.Context, userID, id, name string) error {
	res, err := s.db.NewUpdate().Model((*Passkey)(nil)).Set("name = ?", name).Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("rename passkey: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeletePasskey removes one of a user's passkeys. Errors: ErrNotFound (also another user's).
func (s *Store) DeletePasskey(ctx context.Context, userID, id string) error {
	res, err := s.db.NewDelete().Model((*Passkey)(nil)).Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("remove passkey: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// CreatePasskeyCeremony keeps a ceremony's data and returns its token in clear, the only time it
// exists outside the caller. Expired ceremonies are swept on the way.
func (s *Store) CreatePasskeyCeremony(ctx context.Context, kind, userID, data string, now, expiresAt time.Time) (string, error) {
	token := CeremonyPrefix + randomString(40)
	c := &PasskeyCeremony{TokenHash: hashToken(token), Kind: kind, Data: data, ExpiresAt: expiresAt}
	if userID != "" {
		c.UserID = &userID
	}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*PasskeyCeremony)(nil)).Where("expires_at <= ?", now).Exec(ctx); err != nil {
			return translate(err)
		}
		_, err := tx.NewInsert().Model(c).Exec(ctx)
		return translate(err)
	})
	if err != nil {
		return "", fmt.Errorf("create passkey ceremony: %w", err)
	}
	return token, nil
}

// TakePasskeyCeremony deletes and returns the unexpired ceremony with that token and kind (and
// user, for a registration): of two finishes, one gets it. Errors: ErrNotFound.
func (s *Store) TakePasskeyCeremony(ctx context.Context, token, kind, userID string, now time.Time) (string, error) {
	var data []string
	q := s.db.NewDelete().Model((*PasskeyCeremony)(nil)).Where("token_hash = ?", hashToken(token)).Where("kind = ?", kind).
		Where("expires_at > ?", now)
	if userID != "" {
		q = q.Where("user_id = ?", userID)
	} else {
		q = q.Where("user_id IS NULL")
	}
	err := q.Returning("data").Scan(ctx, &data)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("take passkey ceremony: %w", translate(err))
	}
	if len(data) == 0 {
		return "", ErrNotFound
	}
	return data[0], nil
}

// TakeCeremony is TakePasskeyCeremony for a ceremony whose user the taker learns from it (a
// single sign-on that started in a signed-in browser): it returns the user (nil: none) and data.
// Errors: ErrNotFound.
func (s *Store) TakeCeremony(ctx context.Context, token, kind string, now time.Time) (*string, string, error) {
	var rows []PasskeyCeremony
	err := s.db.NewDelete().Model((*PasskeyCeremony)(nil)).Where("token_hash = ?", hashToken(token)).Where("kind = ?", kind).
		Where("expires_at > ?", now).Returning("user_id, data").Scan(ctx, &rows)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, "", fmt.Errorf("take ceremony: %w", translate(err))
	}
	if len(rows) == 0 {
		return nil, "", ErrNotFound
	}
	return rows[0].UserID, rows[0].Data, nil
}
