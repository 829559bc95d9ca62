// Package account holds the rules of people's accounts: passwords, browser sessions and one-time
// links (first start, password reset). It knows nothing of HTTP: the sign-in routes (package
// signin) and GraphQL call it.
package account

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
)

// Store is what accounts need of storage.
type Store interface {
	FindAccountByEmail(ctx context.Context, email string) (*storage.Account, error)
	FindUserByID(ctx context.Context, id string) (*storage.User, error)
	CreateUser(ctx context.Context, in storage.NewUser, now time.Time) (*storage.User, error)
	PasswordHash(ctx context.Context, userID string) (string, error)
	SetPassword(ctx context.Context, userID, hash, keepSessionID string, now time.Time) error
	CreateSession(ctx context.Context, in storage.NewSession, now time.Time) (string, *storage.Session, error)
	FindSession(ctx context.Context, token string) (*storage.Session, error)
	TouchSession(ctx context.Context, id string, now time.Time) error
	ListSessions(ctx context.Context, userID string) ([]*storage.Session, error)
	DeleteSession(ctx context.Context, userID, id string) error
	DeleteSessions(ctx context.Context, userID, keepID string) (int, error)
	CreateAccountLink(ctx context.Context, userID, purpose string, now, expiresAt time.Time) (string, error)
	FindAccountLink(ctx context.Context, token, purpose string, now time.Time) (*storage.AccountLink, *storage.User, error)
	UseAccountLink(ctx context.Context, token, purpose, passwordHash string, now time.Time) (string, error)
	FindIdentityUser(ctx context.Context, issuer, subject string) (*storage.User, error)
	CreatePasskeyCeremony(ctx context.Context, kind, userID, data string, now, expiresAt time.Time) (string, error)
	TakeCeremony(ctx context.Context, token, kind string, now time.Time) (*string, string, error)
	IdentitySubject(ctx context.Context, userID, issuer string) (string, error)
	LinkIdentity(ctx context.Context, issuer, subject, userID string, now time.Time) error
}

// Config holds the session lifetimes and failure limits; zero fields take DefaultConfig's.
type Config struct {
	// IdleTimeout ends a session not used for this long.
	IdleTimeout time.Duration
	// Lifetime ends a session this long after sign-in, however active.
	Lifetime time.Duration
	// LinkLifetime is how long a set-up or reset link works.
	LinkLifetime time.Duration
	// AccountFailures and AddressFailures are the failed sign-ins one account, and one client
	// address, may make per FailureWindow; past them sign-in answers TooManyAttempts.
	AccountFailures int
	AddressFailures int
	FailureWindow   time.Duration
	// Notify, when set, is told of each sign-in from a browser the account has no session in
	// (to mail a notice). Its failure is logged, never refuses the sign-in.
	Notify func(ctx context.Context, n SignInNotice) error
}

// SignInNotice describes a sign-in from a new browser.
type SignInNotice struct {
	UserID, SessionID, Method, UserAgent, Address string
	At                                            time.Time
}

// DefaultConfig is what a server runs with unless told otherwise.
func DefaultConfig() Config {
	return Config{IdleTimeout: 7 * 24 * time.Hour, Lifetime: 30 * 24 * time.Hour, LinkLifetime: 24 * time.Hour,
		AccountFailures: 10, AddressFailures: 50, FailureWindow: 15 * time.Minute}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = d.IdleTimeout
	}
	if c.Lifetime <= 0 {
		c.Lifetime = d.Lifetime
	}
	if c.LinkLifetime <= 0 {
		c.LinkLifetime = d.LinkLifetime
	}
	if c.AccountFailures == 0 {
		c.AccountFailures = d.AccountFailures
	}
	if c.AddressFailures == 0 {
		c.AddressFailures = d.AddressFailures
	}
	if c.FailureWindow <= 0 {
		c.FailureWindow = d.FailureWindow
	}
	return c
}

// Service applies the account rules over a store.
type Service struct {
	store     Store
	now       func() time.Time
	cfg       Config
	byAccount *failures
	byAddress *failures
	// resets bounds reset requests per address asked for and per client address: each may send
	// an e-mail.
	resets *failures
	// decoy is a hash verified when the e-mail is unknown, so that the answer takes as long as
	// for a known one.
	decoy func() string
}

// New returns a service over store with the clock now.
func New(store Store, now func() time.Time, cfg Config) *Service {
	cfg = cfg.withDefaults()
	return &Service{store: store, now: now, cfg: cfg,
		byAccount: newFailures(cfg.AccountFailures, cfg.FailureWindow),
		byAddress: newFailures(cfg.AddressFailures, cfg.FailureWindow),
		resets:    newFailures(resetRequests, cfg.FailureWindow),
		decoy:     sync.OnceValue(func() string { return HashPassword("decoy password, never anyone's") })}
}

// Config returns the configuration in effect (defaults filled in).
func (s *Service) Config() Config { return s.cfg }

// TooManyAttempts refuses a sign-in past a failure limit until the window ends, RetryAfter from
// now.
type TooManyAttempts struct{ RetryAfter time.Duration }

func (e *TooManyAttempts) Error() string { return "too many failed sign-in attempts: try again later" }

// errWrongCredentials is the one answer to an unknown e-mail, a user without a password and a
// wrong password alike.
var errWrongCredentials = &apperr.Error{Kind: apperr.Unauthenticated, Msg: "the e-mail address or the password is wrong"}

// errNoSession answers a session id that is unknown, expired or ended.
var errNoSession = &apperr.Error{Kind: apperr.Unauthenticated, Msg: "not signed in, or the session has ended: sign in again"}

// Client describes where a sign-in comes from, recorded on the session.
type Client struct {
	Address   string
	UserAgent string
	// Session is the session id the browser presented (in clear), if any: it is ended at
	// sign-in, so the id changes (no session fixation).
	Session string
}

// SignedIn is a new session: its id in clear (for the cookie, shown nowhere else), the session
// and its user.
type SignedIn struct {
	Token   string
	Session *storage.Session
	User    *storage.User
}

// maxEmailLength is RFC 5321's limit on an address.
const maxEmailLength = 254

// SignIn checks an e-mail and password and opens a session. Every wrong answer is the same, and
// takes as long, whether or not the e-mail exists. Errors: Invalid (malformed input),
// Unauthenticated, *TooManyAttempts.
func (s *Service) SignIn(ctx context.Context, email, password string, c Client) (*SignedIn, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if email == "" || len(email) > maxEmailLength {
		return nil, apperr.Invalidf("email", "must be an e-mail address of at most %d characters", maxEmailLength)
	}
	if password == "" || len(password) > 4*MaxPasswordLength {
		return nil, apperr.Invalidf("password", "must be 1 to %d characters", MaxPasswordLength)
	}
	now := s.now()
	if blocked, until := s.byAddress.blocked(c.Address, now); blocked {
		return nil, &TooManyAttempts{RetryAfter: until.Sub(now)}
	}
	if blocked, until := s.byAccount.blocked(email, now); blocked {
		return nil, &TooManyAttempts{RetryAfter: until.Sub(now)}
	}
	acc, err := s.store.FindAccountByEmail(ctx, email)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	hash := s.decoy()
	if acc != nil && acc.PasswordHash != "" {
		hash = acc.PasswordHash
	}
	ok, err := VerifyPassword(password, hash)
	if err != nil {
		return nil, fmt.Errorf("verify password: %w", err)
	}
	if !ok || acc == nil || acc.PasswordHash == "" {
		s.byAccount.add(email, now)
		s.byAddress.add(c.Address, now)
		slog.InfoContext(ctx, "sign-in failed", "event", "signin.failed", "address", c.Address)
		return nil, errWrongCredentials
	}
	s.byAccount.reset(email)
	return s.open(ctx, acc.User, c, "password")
}

// open starts a session for u, ending the one the browser presented.
func (s *Service) open(ctx context.Context, u *storage.User, c Client, method string) (*SignedIn, error) {
	now := s.now()
	// The sign-in is an event of every organization the person belongs to (their audit logs),
	// written with the session and by no later write of this sign-in (the notice's job).
	withEvent := s.withUserEvent(ctx, "user_signed_in", u.ID, u.Email, `{"method":"`+method+`"}`)
	newBrowser := false
	if s.cfg.Notify != nil {
		var err error
		if newBrowser, err = s.isNewBrowser(ctx, u.ID, c); err != nil {
			return nil, err
		}
	}
	token, se, err := s.store.CreateSession(withEvent, storage.NewSession{UserID: u.ID, ExpiresAt: now.Add(s.cfg.Lifetime),
		UserAgent: truncate(c.UserAgent, 512), Address: c.Address, Method: method, Replaces: validSessionShape(c.Session)}, now)
	if err != nil {
		return nil, err
	}
	slog.InfoContext(ctx, "signed in", "event", "signin", "user_id", u.ID, "session_id", se.ID, "method", method)
	if newBrowser {
		n := SignInNotice{UserID: u.ID, SessionID: se.ID, Method: method, UserAgent: se.UserAgent, Address: se.Address, At: now}
		if err := s.cfg.Notify(ctx, n); err != nil {
			slog.ErrorContext(ctx, "sign-in notice", "user_id", u.ID, "err", err)
		}
	}
	return &SignedIn{Token: token, Session: se, User: u}, nil
}

// withUserEvent returns ctx carrying an event of the person's own account (a sign-in, a sign-out,
// a password change), recorded in each organization they belong to, as done by themselves:
// the Store write given that context commits it. payload is compact JSON ("" for none).
func (s *Service) withUserEvent(ctx context.Context, typ, userID, email, payload string) context.Context {
	return storage.WithEvent(ctx, &storage.Event{
		Type: typ, SubjectUserID: userID, PerMembership: true, TargetType: "user", TargetID: userID, TargetLabel: email,
		ActorType: "user", ActorID: userID, ActorLabel: email, Source: "ui", CreatedAt: s.now(), Payload: payload,
	})
}

// withOwnEvent is withUserEvent for a user known by id.
func (s *Service) withOwnEvent(ctx context.Context, typ, userID, payload string) (context.Context, error) {
	u, err := s.store.FindUserByID(ctx, userID)
	if err != nil {
		return ctx, err
	}
	return s.withUserEvent(ctx, typ, u.ID, u.Email, payload), nil
}

// isNewBrowser reports whether a sign-in comes from a browser (by its user agent) in which the
// account has no live session, while it has sessions elsewhere: a first sign-in ever, or one
// after every session ended, is not news to its owner.
func (s *Service) isNewBrowser(ctx context.Context, userID string, c Client) (bool, error) {
	sessions, err := s.store.ListSessions(ctx, userID)
	if err != nil || len(sessions) == 0 {
		return false, err
	}
	agent := truncate(c.UserAgent, 512)
	for _, se := range sessions {
		if se.UserAgent == agent {
			return false, nil
		}
	}
	return true, nil
}

// Authenticate resolves a session id (from the cookie) to its actor and session. A session past
// its idle or absolute expiry is ended. Errors: Unauthenticated.
func (s *Service) Authenticate(ctx context.Context, token string) (*authz.Actor, *storage.Session, error) {
	if validSessionShape(token) == "" {
		return nil, nil, errNoSession
	}
	se, err := s.store.FindSession(ctx, token)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil, errNoSession
	}
	if err != nil {
		return nil, nil, err
	}
	now := s.now()
	if !now.Before(se.ExpiresAt) || !now.Before(se.LastSeenAt.Add(s.cfg.IdleTimeout)) {
		if err := s.store.DeleteSession(ctx, se.UserID, se.ID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, nil, err
		}
		slog.InfoContext(ctx, "session expired", "event", "session.expired", "user_id", se.UserID, "session_id", se.ID)
		return nil, nil, errNoSession
	}
	// One write a minute at most: last use is for the idle timeout and for the person's list.
	if now.Sub(se.LastSeenAt) >= time.Minute {
		if err := s.store.TouchSession(ctx, se.ID, now); err != nil {
			slog.WarnContext(ctx, "record session use", "err", err)
		} else {
			se.LastSeenAt = now
		}
	}
	u := se.User
	return &authz.Actor{UserID: u.ID, TokenID: "session:" + se.ID, Email: u.Email, EmailVerified: u.EmailVerified, SignedInWith: sessionMethod(se)}, se, nil
}

// sessionMethod is how a session signed in; sessions from before methods were recorded count as
// a password's, which single sign-on does not admit.
func sessionMethod(se *storage.Session) string {
	if se.Method == "" {
		return "password"
	}
	return se.Method
}

// SignOut ends the session with that id, if it exists: signing out twice is not an error.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if validSessionShape(token) == "" {
		return nil
	}
	se, err := s.store.FindSession(ctx, token)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	ended := s.withUserEvent(ctx, "user_signed_out", se.UserID, se.User.Email, `{"sessions":1}`)
	if err := s.store.DeleteSession(ended, se.UserID, se.ID); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	slog.InfoContext(ctx, "signed out", "event", "session.ended", "user_id", se.UserID, "session_id", se.ID)
	return nil
}

// Sessions lists a user's sessions, most recently used first.
func (s *Service) Sessions(ctx context.Context, userID string) ([]*storage.Session, error) {
	return s.store.ListSessions(ctx, userID)
}

// EndSession ends one of a user's sessions. Errors: NotFound (also for another user's session).
func (s *Service) EndSession(ctx context.Context, userID, sessionID string) error {
	ctx, err := s.withOwnEvent(ctx, "user_signed_out", userID, `{"sessions":1}`)
	if err != nil {
		return err
	}
	if err := s.store.DeleteSession(ctx, userID, sessionID); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return apperr.NotFoundf("session not found")
		}
		return err
	}
	slog.InfoContext(ctx, "session ended", "event", "session.ended", "user_id", userID, "session_id", sessionID)
	return nil
}

// EndOtherSessions ends every session of a user but keepID (empty: all) and reports how many.
func (s *Service) EndOtherSessions(ctx context.Context, userID, keepID string) (int, error) {
	ctx, err := s.withOwnEvent(ctx, "user_signed_out", userID, `{"others":true}`)
	if err != nil {
		return 0, err
	}
	n, err := s.store.DeleteSessions(ctx, userID, keepID)
	if err == nil && n > 0 {
		slog.InfoContext(ctx, "sessions ended", "event", "session.ended", "user_id", userID, "count", n)
	}
	return n, err
}

// ChangePassword sets a user's password after checking the current one (when they have one), and
// ends every other session of theirs: whoever else was signed in is signed out. A wrong current
// password counts as a failed sign-in. Errors: Invalid, Unauthenticated, *TooManyAttempts.
func (s *Service) ChangePassword(ctx context.Context, userID, keepSessionID, current, next string, c Client) error {
	u, err := s.store.FindUserByID(ctx, userID)
	if err != nil {
		return err
	}
	now := s.now()
	if blocked, until := s.byAccount.blocked(u.Email, now); blocked {
		return &TooManyAttempts{RetryAfter: until.Sub(now)}
	}
	hash, err := s.store.PasswordHash(ctx, userID)
	switch {
	case errors.Is(err, storage.ErrNotFound): // no password yet: choosing the first one
	case err != nil:
		return err
	default:
		if len(current) > 4*MaxPasswordLength {
			return apperr.Invalidf("currentPassword", "is too long")
		}
		ok, err := VerifyPassword(current, hash)
		if err != nil {
			return fmt.Errorf("verify password: %w", err)
		}
		if !ok {
			s.byAccount.add(u.Email, now)
			s.byAddress.add(c.Address, now)
			return &apperr.Error{Kind: apperr.Unauthenticated, Msg: "currentPassword: the current password is wrong"}
		}
	}
	if err := CheckPassword(next, u.Email); err != nil {
		return err
	}
	changed := s.withUserEvent(ctx, "user_password_changed", userID, u.Email, `{"how":"changed"}`)
	if err := s.store.SetPassword(changed, userID, HashPassword(next), keepSessionID, s.now()); err != nil {
		return err
	}
	slog.InfoContext(ctx, "password changed", "event", "password.changed", "user_id", userID)
	return nil
}

// SetPassword sets a user's password without asking for the current one (operators, tests), ending
// all their sessions. Errors: Invalid, NotFound.
func (s *Service) SetPassword(ctx context.Context, userID, password string) error {
	u, err := s.store.FindUserByID(ctx, userID)
	if err != nil {
		return err
	}
	if err := CheckPassword(password, u.Email); err != nil {
		return err
	}
	return s.store.SetPassword(ctx, userID, HashPassword(password), "", s.now())
}

// IssueLink makes a one-time link token for the user with that e-mail: a set-up link (first
// start) or a reset link. Earlier unused links of the same kind stop working. Errors: Invalid,
// NotFound (no such user).
func (s *Service) IssueLink(ctx context.Context, email, purpose string) (string, *storage.User, error) {
	if purpose != storage.LinkSetup && purpose != storage.LinkReset {
		return "", nil, apperr.Invalidf("purpose", "must be %q or %q", storage.LinkSetup, storage.LinkReset)
	}
	if _, err := mail.ParseAddress(email); err != nil {
		return "", nil, apperr.Invalidf("email", "is not an e-mail address")
	}
	acc, err := s.store.FindAccountByEmail(ctx, email)
	if errors.Is(err, storage.ErrNotFound) {
		return "", nil, apperr.NotFoundf("no user has the e-mail address %s", email)
	}
	if err != nil {
		return "", nil, err
	}
	now := s.now()
	token, err := s.store.CreateAccountLink(ctx, acc.User.ID, purpose, now, now.Add(s.cfg.LinkLifetime))
	if err != nil {
		return "", nil, err
	}
	slog.InfoContext(ctx, "account link issued", "event", "link.issued", "purpose", purpose, "user_id", acc.User.ID)
	return token, acc.User, nil
}

// errBadLink answers a link that is unknown, used, expired or forged: all alike.
var errBadLink = apperr.Invalidf("token", "this link is not valid: it has expired or was already used. Ask for a new one")

// CheckLink returns the user a link is for, without spending it (to show the form). Errors:
// Invalid.
func (s *Service) CheckLink(ctx context.Context, token, purpose string) (*storage.User, error) {
	if !validLinkShape(token) {
		return nil, errBadLink
	}
	_, u, err := s.store.FindAccountLink(ctx, token, purpose, s.now())
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errBadLink
	}
	return u, err
}

// RedeemLink spends a link: it sets the user's password (ending all their sessions) and signs
// them in. The password is checked first, so a refused one leaves the link usable. Errors:
// Invalid.
func (s *Service) RedeemLink(ctx context.Context, token, purpose, password string, c Client) (*SignedIn, error) {
	u, err := s.CheckLink(ctx, token, purpose)
	if err != nil {
		return nil, err
	}
	if err := CheckPassword(password, u.Email); err != nil {
		return nil, err
	}
	chosen := s.withUserEvent(ctx, "user_password_changed", u.ID, u.Email, `{"how":"`+purpose+`"}`)
	userID, err := s.store.UseAccountLink(chosen, token, purpose, HashPassword(password), s.now())
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errBadLink // spent by a concurrent use
	}
	if err != nil {
		return nil, err
	}
	slog.InfoContext(ctx, "account link used", "event", "link.used", "purpose", purpose, "user_id", userID)
	s.byAccount.reset(u.Email)
	return s.open(ctx, u, c, purpose)
}

// SignUp creates a user with a password and signs them in (an invitee). The address is not
// verified: nothing proved the person receives its mail. An address that already has a user,
// with or without a password, is refused: signing up must not take over an invited address.
// Errors: Invalid, Conflict (sign in instead).
func (s *Service) SignUp(ctx context.Context, email, name, password string, c Client) (*SignedIn, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > maxEmailLength {
		return nil, apperr.Invalidf("email", "is not an e-mail address")
	}
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > 100 {
		return nil, apperr.Invalidf("name", "must be 1 to 100 characters")
	}
	if err := CheckPassword(password, email); err != nil {
		return nil, err
	}
	u, err := s.store.CreateUser(ctx, storage.NewUser{DisplayName: name, Email: email}, s.now())
	if errors.Is(err, storage.ErrConflict) {
		return nil, apperr.Conflictf("an account with this e-mail address exists: sign in instead (or ask an administrator for a set-up link)")
	}
	if err != nil {
		return nil, err
	}
	if err := s.store.SetPassword(ctx, u.ID, HashPassword(password), "", s.now()); err != nil {
		return nil, err
	}
	slog.InfoContext(ctx, "signed up", "event", "signup", "user_id", u.ID)
	return s.open(ctx, u, c, "signup")
}

// validSessionShape returns token when it looks like a session id, "" otherwise: anything else
// is not looked up.
func validSessionShape(token string) string {
	if !strings.HasPrefix(token, storage.SessionPrefix) || len(token) > 100 {
		return ""
	}
	return token
}

func validLinkShape(token string) bool {
	return strings.HasPrefix(token, storage.LinkPrefix) && len(token) <= 100
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

type sessionKey struct{}

// WithSession returns ctx carrying the session the request authenticated with.
func WithSession(ctx context.Context, se *storage.Session) context.Context {
	return context.WithValue(ctx, sessionKey{}, se)
}

// SessionFrom returns the request's session, nil when it authenticated otherwise (a token).
func SessionFrom(ctx context.Context) *storage.Session {
	se, _ := ctx.Value(sessionKey{}).(*storage.Session)
	return se
}

// Invite is what an invite link's page shows before anyone joins.
type Invite struct {
	OrganizationID    string
	OrganizationTitle string
	// Role is the role in the organization (empty: guest), or the level on Target.
	Role string
	// Target names the space or collection a content link invites to ("" for the organization).
	Target string
}

// errNoAccount refuses a first single sign-on when nothing allows an account for the address.
var errNoAccount = apperr.Forbiddenf("there is no account for this e-mail address, and no invite or organization e-mail domain allows one: ask an administrator for an invite")

// errOtherIdentity refuses a sign-in whose address belongs to an account already tied to another
// subject at the same provider: the address was reassigned there, and its new holder is not the
// account's owner.
var errOtherIdentity = apperr.Forbiddenf("this e-mail address belongs to an account tied to another identity at your identity provider: ask an administrator")

// Identity is who an identity provider vouched for.
type Identity struct {
	// Issuer and Subject are the provider's stable identifier (the ID token's iss and sub).
	Issuer, Subject string
	Email, Name     string
	EmailVerified   bool
}

// SignInVerified opens a session for the person an identity provider vouched for. The account is
// found by the provider's subject first (an address changed at the provider still reaches it),
// then by the verified e-mail address, which ties the subject to it; it is created (verified,
// without a password) when neither finds one and mayCreate allows it. created reports a new
// account. Errors: Invalid, Forbidden (unverified address, an address whose account is tied to
// another subject, or no account and none may be made).
func (s *Service) SignInVerified(ctx context.Context, id Identity, mayCreate func(context.Context) (bool, error), c Client, method string) (in *SignedIn, created bool, err error) {
	u, email, err := s.byIdentity(ctx, id, "sub")
	if u != nil || err != nil {
		return s.openOrFail(ctx, u, err, c, method)
	}
	if !id.EmailVerified {
		return nil, false, apperr.Forbiddenf("the identity provider has not verified the e-mail address %s", email)
	}
	acc, err := s.store.FindAccountByEmail(ctx, email)
	switch {
	case err == nil:
		if _, err := s.store.IdentitySubject(ctx, acc.User.ID, id.Issuer); err == nil {
			slog.WarnContext(ctx, "sign-in refused: address tied to another subject", "event", "signin.failed", "method", method, "user_id", acc.User.ID, "address", c.Address)
			return nil, false, errOtherIdentity
		} else if !errors.Is(err, storage.ErrNotFound) {
			return nil, false, err
		}
		if err := s.store.LinkIdentity(ctx, id.Issuer, id.Subject, acc.User.ID, s.now()); err != nil {
			return nil, false, err
		}
		in, err := s.open(ctx, acc.User, c, method)
		return in, false, err
	case !errors.Is(err, storage.ErrNotFound):
		return nil, false, err
	}
	ok, err := mayCreate(ctx)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		slog.InfoContext(ctx, "sign-in refused: no account", "event", "signin.failed", "method", method, "address", c.Address)
		return nil, false, errNoAccount
	}
	in, err = s.createFromIdentity(ctx, id, email, true, c, method)
	return in, err == nil, err
}

// resetRequests is how many reset links one e-mail address, and one client address, may ask for
// per failure window.
const resetRequests = 5

// RequestReset issues a reset link for the user with that e-mail, for sending to that address.
// An unknown address answers no token and no error, like a known one, so that the caller's answer
// tells nothing. Errors: Invalid, *TooManyAttempts.
func (s *Service) RequestReset(ctx context.Context, email string, c Client) (string, *storage.User, error) {
	email = strings.ToLower(strings.TrimSpace(email))
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > maxEmailLength {
		return "", nil, apperr.Invalidf("email", "is not an e-mail address")
	}
	now := s.now()
	for _, key := range []string{"email:" + email, "client:" + c.Address} {
		if blocked, until := s.resets.blocked(key, now); blocked {
			return "", nil, &TooManyAttempts{RetryAfter: until.Sub(now)}
		}
		s.resets.add(key, now)
	}
	token, u, err := s.IssueLink(ctx, email, storage.LinkReset)
	if apperr.KindOf(err) == apperr.NotFound {
		slog.InfoContext(ctx, "reset asked for an unknown address", "event", "link.refused", "address", c.Address)
		return "", nil, nil
	}
	return token, u, err
}

// SAMLProvider is an organization's SAML identity provider, as the sign-in routes use it.
type SAMLProvider struct {
	ID, OrganizationID, OrganizationTitle, Label string
	// EntityID, Certificate (base64 DER) and SSOURL are the identity provider's.
	EntityID, Certificate, SSOURL string
}

// errSAMLLinkFirst refuses a first SAML sign-in whose address belongs to an account the browser
// is not signed in to: an organization's identity provider vouches only for the people it made
// accounts for, or whose owners linked them (else any organization's admin could sign in as
// anyone by asserting their address).
var errSAMLLinkFirst = apperr.Forbiddenf("an account already uses this e-mail address: sign in to it first (with its password, passkey or single sign-on), then sign in through your organization's identity provider again to link them")

// SignInSAML opens a session for the person an organization's SAML provider vouched for. The
// account is the one tied to the provider's subject; else, for an address that already has an
// account, that account when the sign-in started in a browser signed in to it (current), which
// ties them; else a new account, whose address stays unverified (the provider speaks for its
// organization only). created reports a new account. Errors: Invalid, Forbidden.
func (s *Service) SignInSAML(ctx context.Context, id Identity, current string, c Client, method string) (in *SignedIn, created bool, err error) {
	u, email, err := s.byIdentity(ctx, id, "NameID")
	if u != nil || err != nil {
		return s.openOrFail(ctx, u, err, c, method)
	}
	acc, err := s.store.FindAccountByEmail(ctx, email)
	switch {
	case err == nil:
		if current != acc.User.ID {
			slog.WarnContext(ctx, "sign-in refused: address of another account", "event", "signin.failed", "method", method, "user_id", acc.User.ID, "address", c.Address)
			return nil, false, errSAMLLinkFirst
		}
		if err := s.store.LinkIdentity(ctx, id.Issuer, id.Subject, acc.User.ID, s.now()); err != nil {
			return nil, false, err
		}
		in, err := s.open(ctx, acc.User, c, method)
		return in, false, err
	case !errors.Is(err, storage.ErrNotFound):
		return nil, false, err
	}
	in, err = s.createFromIdentity(ctx, id, email, false, c, method)
	return in, err == nil, err
}

// byIdentity returns the account tied to id's subject (nil when none) and id's address,
// normalized. Errors: Invalid (no usable subject, named as field, or address).
func (s *Service) byIdentity(ctx context.Context, id Identity, field string) (*storage.User, string, error) {
	if id.Issuer == "" || id.Subject == "" || len(id.Subject) > 255 {
		return nil, "", apperr.Invalidf(field, "the identity provider gave no usable subject")
	}
	if u, err := s.store.FindIdentityUser(ctx, id.Issuer, id.Subject); err == nil {
		return u, "", nil
	} else if !errors.Is(err, storage.ErrNotFound) {
		return nil, "", err
	}
	email := strings.ToLower(strings.TrimSpace(id.Email))
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > maxEmailLength {
		return nil, "", apperr.Invalidf("email", "the identity provider gave no usable e-mail address")
	}
	return nil, email, nil
}

// openOrFail opens a session for u, or answers err.
func (s *Service) openOrFail(ctx context.Context, u *storage.User, err error, c Client, method string) (*SignedIn, bool, error) {
	if err != nil {
		return nil, false, err
	}
	in, err := s.open(ctx, u, c, method)
	return in, false, err
}

// createFromIdentity makes an account for the person id names, tied to its subject, and opens
// a session for it. The name is the provider's, else the address's local part.
func (s *Service) createFromIdentity(ctx context.Context, id Identity, email string, verified bool, c Client, method string) (*SignedIn, error) {
	name := strings.TrimSpace(id.Name)
	if name == "" || len([]rune(name)) > 100 {
		name, _, _ = strings.Cut(email, "@")
	}
	u, err := s.store.CreateUser(ctx, storage.NewUser{DisplayName: name, Email: email, EmailVerified: verified}, s.now())
	if err != nil {
		return nil, err
	}
	if err := s.store.LinkIdentity(ctx, id.Issuer, id.Subject, u.ID, s.now()); err != nil {
		return nil, err
	}
	slog.InfoContext(ctx, "signed up", "event", "signup", "user_id", u.ID, "method", method)
	return s.open(ctx, u, c, method)
}

// samlFlowLifetime bounds a SAML sign-in's round trip through the identity provider.
const samlFlowLifetime = 10 * time.Minute

// SAMLFlow is a SAML sign-in in progress, kept server-side under a token the browser holds.
type SAMLFlow struct {
	ProviderID string `json:"providerId"`
	RequestID  string `json:"requestId"`
}

// StartSAMLFlow records a SAML sign-in leaving for the identity provider, with the user the
// browser is signed in as (current, "" for none), and returns the token for the browser.
func (s *Service) StartSAMLFlow(ctx context.Context, f SAMLFlow, current string) (string, error) {
	data, _ := json.Marshal(f)
	now := s.now()
	return s.store.CreatePasskeyCeremony(ctx, "saml", current, string(data), now, now.Add(samlFlowLifetime))
}

// TakeSAMLFlow ends the flow a token names (once) and returns it with the user it started signed
// in as. Errors: Invalid (unknown, used or expired).
func (s *Service) TakeSAMLFlow(ctx context.Context, token string) (SAMLFlow, string, error) {
	var f SAMLFlow
	if len(token) > 200 {
		return f, "", errBadFlow
	}
	user, data, err := s.store.TakeCeremony(ctx, token, "saml", s.now())
	if errors.Is(err, storage.ErrNotFound) {
		return f, "", errBadFlow
	}
	if err != nil {
		return f, "", err
	}
	if err := json.Unmarshal([]byte(data), &f); err != nil {
		return f, "", err
	}
	if user == nil {
		return f, "", nil
	}
	return f, *user, nil
}

var errBadFlow = apperr.Invalidf("", "this sign-in was not started from this browser, or it took too long: start again")
