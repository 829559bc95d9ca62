package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// SessionPrefix starts every browser session id, so that a leaked one is easy to recognise.
const SessionPrefix = "bdys_"

// LinkPrefix starts every one-time account link token (set-up, password reset).
const LinkPrefix = "bdyl_"

// UserPassword is a user's password, kept only as an encoded argon2id hash.
type UserPassword struct {
	bun.BaseModel `bun:"table:user_passwords,alias:up"`

	UserID    string `bun:"user_id,pk"`
	Hash      string
	UpdatedAt time.Time
}

// Session is a person's browser session, kept only as the hash of its id.
type Session struct {
	bun.BaseModel `bun:"table:sessions,alias:se"`

	ID         string `bun:"id,pk"`
	UserID     string
	TokenHash  string
	CreatedAt  time.Time
	LastSeenAt time.Time
	// ExpiresAt is the absolute end of the session, however active it is.
	ExpiresAt time.Time
	UserAgent string
	Address   string
	// Method is how the person signed in: "password", "passkey", "oidc", "setup", "reset",
	// "signup". Organizations that enforce single sign-on admit only "oidc".
	Method string
	// User is loaded by FindSession.
	User *User `bun:"rel:belongs-to,join:user_id=id"`
}

// AccountLink is a one-time link that lets its holder choose a user's password.
type AccountLink struct {
	bun.BaseModel `bun:"table:account_links,alias:al"`

	ID        string `bun:"id,pk"`
	UserID    string
	Purpose   string
	TokenHash string
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// Account link purposes.
const (
	LinkSetup = "setup"
	LinkReset = "reset"
)

// Account is a user with their password hash ("" when they have none).
type Account struct {
	User         *User
	PasswordHash string
}

// FindAccountByEmail returns the user with that e-mail and their password hash in one statement.
// Errors: ErrNotFound.
func (s *Store) FindAccountByEmail(ctx context.Context, email string) (*Account, error) {
	var row struct {
		User `bun:",extend"`
		Hash sql.NullString `bun:"password_hash"`
	}
	err := s.db.NewSelect().Model(&row).ModelTableExpr("users AS u").ColumnExpr("u.*, up.hash AS password_hash").
		Join("LEFT JOIN user_passwords AS up ON up.user_id = u.id").
		Where("u.email = ?", strings.ToLower(email)).Limit(1).Scan(ctx)
	if err != nil {
		return nil, translate(err)
	}
	u := row.User
	return &Account{User: &u, PasswordHash: row.Hash.String}, nil
}

// PasswordHash returns a user's password hash. Errors: ErrNotFound when they have none.
func (s *Store) PasswordHash(ctx context.Context, userID string) (string, error) {
	p := new(UserPassword)
	if err := s.db.NewSelect().Model(p).Where("up.user_id = ?", userID).Scan(ctx); err != nil {
		return "", translate(err)
	}
	return p.Hash, nil
}

// SetPassword stores a user's new password hash and ends every session of theirs but keepSessionID
// (empty: all of them), in one transaction. Errors: ErrNotFound when the user does not exist.
func (s *Store) SetPassword(ctx context.Context, userID, hash, keepSessionID string, now time.Time) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		return setPassword(ctx, tx, userID, hash, keepSessionID, now)
	})
}

func setPassword(ctx context.Context, tx bun.Tx, userID, hash, keepSessionID string, now time.Time) error {
	if n, err := tx.NewSelect().Model((*User)(nil)).Where("u.id = ?", userID).Count(ctx); err != nil {
		return translate(err)
	} else if n == 0 {
		return ErrNotFound
	}
	p := &UserPassword{UserID: userID, Hash: hash, UpdatedAt: now}
	if _, err := tx.NewInsert().Model(p).On("CONFLICT (user_id) DO UPDATE").
		Set("hash = EXCLUDED.hash").Set("updated_at = EXCLUDED.updated_at").Exec(ctx); err != nil {
		return fmt.Errorf("set password: %w", translate(err))
	}
	q := tx.NewDelete().Model((*Session)(nil)).Where("user_id = ?", userID)
	if keepSessionID != "" {
		q = q.Where("id <> ?", keepSessionID)
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("end sessions: %w", translate(err))
	}
	return nil
}

// NewSession describes a session to open.
type NewSession struct {
	UserID    string
	ExpiresAt time.Time
	UserAgent string
	Address   string
	Method    string
	// Replaces is the id (in clear) of a session the browser presented, ended in the same
	// transaction so that an id set before sign-in never becomes signed in (session fixation).
	Replaces string
}

// CreateSession opens a session and returns it with its id in clear, the only time it exists
// outside the caller.
func (s *Store) CreateSession(ctx context.Context, in NewSession, now time.Time) (string, *Session, error) {
	token := SessionPrefix + randomString(40)
	se := &Session{ID: NewID(), UserID: in.UserID, TokenHash: hashToken(token), CreatedAt: now, LastSeenAt: now,
		ExpiresAt: in.ExpiresAt, UserAgent: in.UserAgent, Address: in.Address, Method: in.Method}
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if in.Replaces != "" {
			if _, err := tx.NewDelete().Model((*Session)(nil)).Where("token_hash = ?", hashToken(in.Replaces)).Exec(ctx); err != nil {
				return translate(err)
			}
		}
		_, err := tx.NewInsert().Model(se).Exec(ctx)
		return translate(err)
	})
	if err != nil {
		return "", nil, fmt.Errorf("create session: %w", err)
	}
	return token, se, nil
}

// FindSession returns the session with that id (in clear) and its user, expired or not: the
// caller decides, and ends it. Errors: ErrNotFound.
func (s *Store) FindSession(ctx context.Context, token string) (*Session, error) {
	se := new(Session)
	if err := s.db.NewSelect().Model(se).Relation("User").Where("se.token_hash = ?", hashToken(token)).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	if se.User == nil {
		return nil, ErrNotFound
	}
	return se, nil
}

// TouchSession records that a session was used at now.
func (s *Store) TouchSession(ctx context.Context, id string, now time.Time) error {
	_, err := s.db.NewUpdate().Model((*Session)(nil)).Set("last_seen_at = ?", now).Where("id = ?", id).Exec(ctx)
	return translate(err)
}

// ListSessions returns a user's sessions, most recently used first.
func (s *Store) ListSessions(ctx context.Context, userID string) ([]*Session, error) {
	var out []*Session
	err := s.db.NewSelect().Model(&out).ExcludeColumn("token_hash").Where("se.user_id = ?", userID).
		OrderExpr("se.last_seen_at DESC, se.id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", translate(err))
	}
	return out, nil
}

// DeleteSession ends one of a user's sessions. Errors: ErrNotFound when the user has no such
// session.
func (s *Store) DeleteSession(ctx context.Context, userID, id string) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		res, err := db.NewDelete().Model((*Session)(nil)).Where("id = ?", id).Where("user_id = ?", userID).Exec(ctx)
		if err != nil {
			return fmt.Errorf("end session: %w", translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound // rolls the event back: nothing ended
		}
		return nil
	})
}

// DeleteSessions ends every session of a user but keepID (empty: all) and reports how many.
func (s *Store) DeleteSessions(ctx context.Context, userID, keepID string) (int, error) {
	var n int64
	_, err := s.execChanged(ctx, func(ctx context.Context, db bun.IDB) (bool, error) {
		q := db.NewDelete().Model((*Session)(nil)).Where("user_id = ?", userID)
		if keepID != "" {
			q = q.Where("id <> ?", keepID)
		}
		res, err := q.Exec(ctx)
		if err != nil {
			return false, fmt.Errorf("end sessions: %w", translate(err))
		}
		n, _ = res.RowsAffected()
		return n > 0, nil // no session ended: no event
	})
	return int(n), err
}

// CreateAccountLink issues a one-time link token for a user and returns it in clear, the only
// time it exists outside the caller. Earlier unused links of the same purpose stop working.
func (s *Store) CreateAccountLink(ctx context.Context, userID, purpose string, now, expiresAt time.Time) (string, error) {
	token := LinkPrefix + randomString(40)
	l := &AccountLink{ID: NewID(), UserID: userID, Purpose: purpose, TokenHash: hashToken(token), CreatedAt: now, ExpiresAt: expiresAt}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*AccountLink)(nil)).Where("user_id = ?", userID).Where("purpose = ?", purpose).
			Where("used_at IS NULL").Exec(ctx); err != nil {
			return translate(err)
		}
		_, err := tx.NewInsert().Model(l).Exec(ctx)
		return translate(err)
	})
	if err != nil {
		return "", fmt.Errorf("create account link: %w", err)
	}
	return token, nil
}

// FindAccountLink returns the unused, unexpired link with that token and purpose, with its user.
// Errors: ErrNotFound (unknown, used, expired, or of another purpose: all alike).
func (s *Store) FindAccountLink(ctx context.Context, token, purpose string, now time.Time) (*AccountLink, *User, error) {
	l := new(AccountLink)
	err := s.db.NewSelect().Model(l).Where("al.token_hash = ?", hashToken(token)).Where("al.purpose = ?", purpose).
		Where("al.used_at IS NULL").Where("al.expires_at > ?", now).Scan(ctx)
	if err != nil {
		return nil, nil, translate(err)
	}
	u, err := s.FindUserByID(ctx, l.UserID)
	if err != nil {
		return nil, nil, err
	}
	return l, u, nil
}

// UseAccountLink spends a link, sets its user's password hash and marks their address verified,
// ending all their sessions, in one transaction: of two concurrent uses, one wins. It returns the user's id. Errors:
// ErrNotFound (unknown, used, expired, or of another purpose).
func (s *Store) UseAccountLink(ctx context.Context, token, purpose, passwordHash string, now time.Time) (string, error) {
	var userID string
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var ids []string
		err := tx.NewUpdate().Model((*AccountLink)(nil)).Set("used_at = ?", now).
			Where("token_hash = ?", hashToken(token)).Where("purpose = ?", purpose).
			Where("used_at IS NULL").Where("expires_at > ?", now).
			Returning("user_id").Scan(ctx, &ids)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return translate(err)
		}
		if len(ids) == 0 {
			return ErrNotFound
		}
		userID = ids[0]
		// The link reached its holder through the address (or an operator who vouches for it).
		if _, err := tx.NewUpdate().Model((*User)(nil)).Set("email_verified = ?", true).Where("id = ?", userID).Exec(ctx); err != nil {
			return translate(err)
		}
		return setPassword(ctx, tx, userID, passwordHash, "", now)
	})
	if err != nil {
		return "", err
	}
	return userID, nil
}
