package storage

import (
	"context"
	"fmt"
	"time"
)

// TokenOwner is an API token with its user's e-mail, for operators' listings.
type TokenOwner struct {
	APIToken  `bun:",extend"`
	UserEmail string `bun:"user_email"`
}

// AuthenticateToken resolves a bearer token to its user and token row: one statement. Errors:
// ErrNotFound when the token is unknown, revoked or expired.
func (s *Store) AuthenticateToken(ctx context.Context, token string, now time.Time) (*User, *APIToken, error) {
	var row struct {
		User       `bun:",extend"`
		TokenID    string     `bun:"token_id"`
		LastUsedAt *time.Time `bun:"token_last_used_at"`
	}
	err := s.db.NewSelect().TableExpr("users AS u").
		ColumnExpr("u.*").ColumnExpr("t.id AS token_id, t.last_used_at AS token_last_used_at").
		Join("JOIN api_tokens AS t ON t.user_id = u.id").
		Where("t.token_hash = ?", hashToken(token)).
		Where("(t.expires_at IS NULL OR t.expires_at > ?)", now).
		Scan(ctx, &row)
	if err != nil {
		return nil, nil, translate(err)
	}
	u := row.User
	return &u, &APIToken{ID: row.TokenID, UserID: u.ID, LastUsedAt: row.LastUsedAt}, nil
}

// TouchToken records that a token was used at now.
func (s *Store) TouchToken(ctx context.Context, id string, now time.Time) error {
	_, err := s.db.NewUpdate().Model((*APIToken)(nil)).Set("last_used_at = ?", now).Where("id = ?", id).Exec(ctx)
	return translate(err)
}

// ListTokens returns a user's API tokens, newest first, or every user's (by e-mail, then newest
// first) when userID is empty. Only the hash of a token is stored; it is not selected.
func (s *Store) ListTokens(ctx context.Context, userID string) ([]*TokenOwner, error) {
	var out []*TokenOwner
	q := s.db.NewSelect().Model(&out).
		ColumnExpr("t.id, t.user_id, t.created_at, t.expires_at, t.last_used_at, u.email AS user_email").
		Join("JOIN users AS u ON u.id = t.user_id")
	if userID != "" {
		q = q.Where("t.user_id = ?", userID)
	}
	if err := q.OrderExpr("u.email, t.created_at DESC, t.id").Scan(ctx); err != nil {
		return nil, fmt.Errorf("list tokens: %w", translate(err))
	}
	return out, nil
}

// RevokeToken deletes a token so that it authenticates nothing more, and returns its hash (for
// caches keyed by it). When userID is not empty, only that user's token is revoked. Errors:
// ErrNotFound.
func (s *Store) RevokeToken(ctx context.Context, id, userID string) (string, error) {
	var hash string
	q := s.db.NewDelete().Model((*APIToken)(nil)).Where("id = ?", id)
	if userID != "" {
		q = q.Where("user_id = ?", userID)
	}
	rows, err := q.Returning("token_hash").Exec(ctx, &hash)
	if err != nil {
		return "", fmt.Errorf("revoke token: %w", translate(err))
	}
	if n, _ := rows.RowsAffected(); n == 0 && hash == "" {
		return "", ErrNotFound
	}
	return hash, nil
}
