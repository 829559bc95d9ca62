package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// User is a person who can sign in with API tokens.
type User struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID            string  `bun:"id,pk"`
	DisplayName   string  `bun:"display_name"`
	Email         string  `bun:"email"`
	EmailVerified bool    `bun:"email_verified"`
	PhotoURL      *string `bun:"photo_url"`
	// SearchKey is the folded name and e-mail that searches match: folded in Go because SQLite's
	// LOWER only knows ASCII.
	SearchKey string
	CreatedAt time.Time
}

// TokenPrefix starts every API token, so that a leaked one is easy to recognise and to scan for.
const TokenPrefix = "bdy_"

// NewUser describes a user to create.
type NewUser struct {
	DisplayName   string
	Email         string
	EmailVerified bool
}

// CreateUser inserts a user. Errors: ErrConflict when the e-mail is taken.
func (s *Store) CreateUser(ctx context.Context, in NewUser, now time.Time) (*User, error) {
	u := newUser(in, now)
	if _, err := s.db.NewInsert().Model(u).Exec(ctx); err != nil {
		return nil, fmt.Errorf("create user: %w", translate(err))
	}
	return u, nil
}

// FindUserByID returns a user. Errors: ErrNotFound.
func (s *Store) FindUserByID(ctx context.Context, id string) (*User, error) {
	u := new(User)
	if err := s.rdb.NewSelect().Model(u).Where("u.id = ?", id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return u, nil
}

// FindUserByEmail returns the user with that e-mail (case-insensitive). Errors: ErrNotFound.
func (s *Store) FindUserByEmail(ctx context.Context, email string) (*User, error) {
	u := new(User)
	if err := s.rdb.NewSelect().Model(u).Where("u.email = ?", strings.ToLower(email)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return u, nil
}

// UsersByIDs returns the users with those ids that share an organization with viewerID (or are
// the viewer), keyed by id: one statement for any number of ids.
func (s *Store) UsersByIDs(ctx context.Context, viewerID string, ids []string) (map[string]*User, error) {
	var users []*User
	err := s.rdb.NewSelect().Model(&users).
		Where("u.id IN (?)", bun.List(ids)).
		Where("(u.id = ? OR EXISTS (SELECT 1 FROM organization_members mu JOIN organization_members mv ON mv.organization_id = mu.organization_id WHERE mu.user_id = u.id AND mv.user_id = ?))", viewerID, viewerID).
		Scan(ctx)
	if err != nil {
		return nil, translate(err)
	}
	out := make(map[string]*User, len(users))
	for _, u := range users {
		out[u.ID] = u
	}
	return out, nil
}

// CreateToken issues a new API token for a user and returns it in clear, the only time it exists
// outside the caller. expiresAt nil means it never expires.
func (s *Store) CreateToken(ctx context.Context, userID string, now time.Time, expiresAt *time.Time) (string, error) {
	return s.CreateLimitedToken(ctx, userID, now, expiresAt, TokenLimit{})
}

// FindUserByToken authenticates a bearer token and returns its user (FindToken). Errors:
// ErrNotFound when the token is unknown or expired.
func (s *Store) FindUserByToken(ctx context.Context, token string, now time.Time) (*User, error) {
	t, err := s.FindToken(ctx, token, now)
	if err != nil {
		return nil, err
	}
	return t.User, nil
}

// CountUsers reports how many users exist; the server bootstraps an empty database.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	n, err := s.rdb.NewSelect().Model((*User)(nil)).Count(ctx)
	return int(n), translate(err)
}

func newUser(in NewUser, now time.Time) *User {
	email := strings.ToLower(in.Email)
	return &User{ID: NewID(), DisplayName: in.DisplayName, Email: email, EmailVerified: in.EmailVerified,
		SearchKey: userSearchKey(in.DisplayName, email), CreatedAt: now}
}

// TokenLimit narrows a new token: its scopes (JSON array) and the installation it belongs to.
type TokenLimit struct {
	Scopes         *string
	InstallationID *string
}

// CreateLimitedToken issues a token like CreateToken, narrowed by limit.
func (s *Store) CreateLimitedToken(ctx context.Context, userID string, now time.Time, expiresAt *time.Time, limit TokenLimit) (string, error) {
	token := TokenPrefix + randomString(40)
	t := &APIToken{ID: NewID(), UserID: userID, TokenHash: hashToken(token), CreatedAt: now, ExpiresAt: expiresAt,
		Scopes: limit.Scopes, InstallationID: limit.InstallationID}
	if _, err := s.write(ctx, func(db bun.IDB) execer { return db.NewInsert().Model(t) }); err != nil {
		return "", fmt.Errorf("create token: %w", translate(err))
	}
	return token, nil
}

// FindToken authenticates a bearer token with its user and limits: one prepared statement, or
// none while the token is in the cache (see tokenCache). Errors: ErrNotFound when the token is
// unknown or expired.
func (s *Store) FindToken(ctx context.Context, token string, now time.Time) (*APIToken, error) {
	hash := hashToken(token)
	if t, ok := s.tokens.get(hash, now); ok {
		return t, nil
	}
	p, err := s.statements(ctx)
	if err != nil {
		return nil, err
	}
	var rows []*APIToken
	if err := s.queryPrepared(ctx, p.tokenByHash, &rows, hash); err != nil {
		return nil, err
	}
	if len(rows) == 0 || rows[0].User == nil || (rows[0].ExpiresAt != nil && !rows[0].ExpiresAt.After(now)) {
		return nil, ErrNotFound
	}
	s.tokens.put(hash, rows[0])
	return rows[0], nil
}
