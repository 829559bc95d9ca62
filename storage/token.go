package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// APIToken is a bearer token, kept only as its hash.
type APIToken struct {
	bun.BaseModel `bun:"table:api_tokens,alias:t"`

	ID        string `bun:"id,pk"`
	UserID    string
	TokenHash string
	CreatedAt time.Time
	ExpiresAt *time.Time
	// Scopes is a JSON array of scopes (nil: the token may do all its user may).
	Scopes *string
	// InstallationID ties the token to an integration installation (nil: the user's own).
	InstallationID *string
	// User is loaded by FindToken.
	User *User `bun:"rel:belongs-to,join:user_id=id"`
	// LastUsedAt is when the token last authenticated a request, to a minute (see TouchToken).
	LastUsedAt *time.Time
}

// TokenOwner is an API token with its user's e-mail, for operators' listings.
type TokenOwner struct {
	APIToken  `bun:",extend"`
	UserEmail string `bun:"user_email"`
}

// TouchToken records that a token was used at now, in the database and in this instance's cache.
func (s *Store) TouchToken(ctx context.Context, t *APIToken, now time.Time) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model((*APIToken)(nil)).Set("last_used_at = ?", now).Where("id = ?", t.ID)
	})
	if err == nil {
		s.tokens.touched(t.TokenHash, now)
	}
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

// TokenPage lists a user's tokens, newest first.
func (s *Store) TokenPage(ctx context.Context, userID string, page Window) (List[*APIToken], error) {
	key := sortKey{name: "tokens", column: "t.created_at", idCol: "t.id", desc: true, isTime: true}
	return paginate(ctx, s.db, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("t.user_id = ?", userID)
	}, func(t *APIToken) (time.Time, string, string) { return t.CreatedAt, "", t.ID })
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

// PruneExpiredTokens deletes the tokens that expired before cutoff (short-lived installation and
// look-up tokens pile up otherwise) and returns how many. Tokens without an expiry stay.
func (s *Store) PruneExpiredTokens(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.db.NewDelete().Model((*APIToken)(nil)).Where("expires_at IS NOT NULL AND expires_at < ?", cutoff).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("prune expired tokens: %w", translate(err))
	}
	return res.RowsAffected()
}
