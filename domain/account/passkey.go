package account

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/storage"
	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

// PasskeyStore is what passkeys need of storage.
type PasskeyStore interface {
	FindUserByID(ctx context.Context, id string) (*storage.User, error)
	CreatePasskey(ctx context.Context, p *storage.Passkey) error
	ListPasskeys(ctx context.Context, userID string) ([]*storage.Passkey, error)
	FindPasskeyByCredential(ctx context.Context, credentialID string) (*storage.Passkey, error)
	RecordPasskeyUse(ctx context.Context, id string, signCount int64, flags int, now time.Time) error
	RenamePasskey(ctx context.Context, userID, id, name string) error
	DeletePasskey(ctx context.Context, userID, id string) error
	CreatePasskeyCeremony(ctx context.Context, kind, userID, data string, now, expiresAt time.Time) (string, error)
	TakePasskeyCeremony(ctx context.Context, token, kind, userID string, now time.Time) (string, error)
}

// PasskeyConfig names the relying party. Empty fields follow the public URL.
type PasskeyConfig struct {
	// PublicURL is the server's external base URL: its host is the relying party id and its
	// origin the origin browsers sign for.
	PublicURL string
	// RPID overrides the relying party id (a registrable suffix of the public URL's host, such as
	// example.com for docs.example.com). Passkeys are bound to it: changing it orphans them all.
	RPID string
	// Origins are further origins (the web app's) whose pages may run the ceremonies.
	Origins []string
}

// Ceremony kinds and limits.
const (
	ceremonyRegister   = "register"
	ceremonySignIn     = "signin"
	CeremonyLifetime   = 5 * time.Minute
	maxPasskeys        = 20
	maxPasskeyName     = 100
	defaultPasskeyName = "Passkey"
)

// Passkeys registers people's passkeys (WebAuthn credentials) and signs them in with one, no
// e-mail or password asked: the credentials are discoverable.
type Passkeys struct {
	PasskeyKeys
	accounts *Service
	store    PasskeyStore
	wa       *webauthn.WebAuthn
}

// PasskeyKeys lists, renames and removes people's passkeys: what needs no relying party, so that
// GraphQL can offer it whatever the server's public URL.
type PasskeyKeys struct{ store PasskeyStore }

// NewPasskeyKeys returns the passkey list over store.
func NewPasskeyKeys(store PasskeyStore) PasskeyKeys { return PasskeyKeys{store: store} }

// NewPasskeys returns passkeys over store, opening sessions through accounts. Errors: the public
// URL is not an absolute http(s) URL, an origin is malformed.
func NewPasskeys(accounts *Service, store PasskeyStore, cfg PasskeyConfig) (*Passkeys, error) {
	u, err := url.Parse(cfg.PublicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return nil, fmt.Errorf("passkeys need an absolute http(s) public URL, not %q", cfg.PublicURL)
	}
	rpID := cfg.RPID
	if rpID == "" {
		rpID = u.Hostname()
	}
	origins := []string{u.Scheme + "://" + u.Host}
	for _, o := range cfg.Origins {
		origins = append(origins, strings.TrimRight(o, "/"))
	}
	wa, err := webauthn.New(&webauthn.Config{RPID: rpID, RPDisplayName: "Bindery", RPOrigins: origins,
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Enforce: true, Timeout: CeremonyLifetime, TimeoutUVD: CeremonyLifetime},
			Registration: webauthn.TimeoutConfig{Enforce: true, Timeout: CeremonyLifetime, TimeoutUVD: CeremonyLifetime},
		}})
	if err != nil {
		return nil, fmt.Errorf("passkeys: %w", err)
	}
	return &Passkeys{PasskeyKeys: PasskeyKeys{store: store}, accounts: accounts, store: store, wa: wa}, nil
}

// errCeremony answers a finish without a live ceremony: none begun, expired, or already finished.
var errCeremony = apperr.Invalidf("ceremony", "no passkey ceremony is in progress (it expired or was already finished): begin again")

// errPasskeyRefused is the one answer to an assertion that does not verify, whatever the reason.
var errPasskeyRefused = &apperr.Error{Kind: apperr.Unauthenticated, Msg: "the passkey was not accepted"}

// BeginRegistration starts adding a passkey for a signed-in user: it returns the options for
// navigator.credentials.create and the ceremony's token (for a cookie). Errors: Conflict (too many
// passkeys), NotFound.
func (p *Passkeys) BeginRegistration(ctx context.Context, userID string) (*protocol.CredentialCreation, string, error) {
	user, err := p.user(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	if len(user.creds) >= maxPasskeys {
		return nil, "", apperr.Conflictf("an account may hold at most %d passkeys: remove one first", maxPasskeys)
	}
	exclude := make([]protocol.CredentialDescriptor, len(user.creds))
	for i, c := range user.creds {
		exclude[i] = c.Descriptor()
	}
	creation, session, err := p.wa.BeginRegistration(user, webauthn.WithExclusions(exclude),
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired))
	if err != nil {
		return nil, "", fmt.Errorf("begin passkey registration: %w", err)
	}
	token, err := p.keep(ctx, ceremonyRegister, userID, session)
	return creation, token, err
}

// FinishRegistration verifies the authenticator's answer to the ceremony token names and stores
// the passkey under name. The ceremony is spent whatever the outcome. Errors: Invalid, Conflict
// (the credential is registered already).
func (p *Passkeys) FinishRegistration(ctx context.Context, userID, token, name string, credential []byte) (*storage.Passkey, error) {
	name, err := passkeyName(name)
	if err != nil {
		return nil, err
	}
	session, err := p.take(ctx, token, ceremonyRegister, userID)
	if err != nil {
		return nil, err
	}
	user, err := p.user(ctx, userID)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return nil, apperr.Invalidf("credential", "is not a WebAuthn registration response: %s", protocolDetail(err))
	}
	cred, err := p.wa.CreateCredential(user, *session, parsed)
	if err != nil {
		slog.InfoContext(ctx, "passkey registration refused", "event", "passkey.refused", "user_id", userID, "err", err)
		return nil, apperr.Invalidf("credential", "the passkey could not be verified: %s", protocolDetail(err))
	}
	pk := &storage.Passkey{UserID: userID, CredentialID: b64(cred.ID), PublicKey: b64(cred.PublicKey),
		SignCount: int64(cred.Authenticator.SignCount), Transports: joinTransports(cred.Transport),
		Flags: int(cred.Flags.ProtocolValue()), AAGUID: b64(cred.Authenticator.AAGUID),
		AttestationFormat: cred.AttestationFormat, Name: name, CreatedAt: p.accounts.now()}
	if err := p.store.CreatePasskey(ctx, pk); err != nil {
		if errors.Is(err, storage.ErrConflict) {
			return nil, apperr.Conflictf("this passkey is registered already")
		}
		return nil, err
	}
	slog.InfoContext(ctx, "passkey added", "event", "passkey.added", "user_id", userID, "passkey_id", pk.ID)
	return pk, nil
}

// BeginSignIn starts a sign-in with any passkey of this site: it returns the options for
// navigator.credentials.get and the ceremony's token.
func (p *Passkeys) BeginSignIn(ctx context.Context) (*protocol.CredentialAssertion, string, error) {
	assertion, session, err := p.wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		return nil, "", fmt.Errorf("begin passkey sign-in: %w", err)
	}
	token, err := p.keep(ctx, ceremonySignIn, "", session)
	return assertion, token, err
}

// FinishSignIn verifies an assertion against the ceremony token names and opens a session for the
// passkey's owner, exactly as a password sign-in does. Failures count against the client address
// (and the account, once known) like wrong passwords. Errors: Invalid (no ceremony, malformed),
// Unauthenticated, *TooManyAttempts.
func (p *Passkeys) FinishSignIn(ctx context.Context, token string, assertion []byte, c Client) (*SignedIn, error) {
	s := p.accounts
	now := s.now()
	if blocked, until := s.byAddress.blocked(c.Address, now); blocked {
		return nil, &TooManyAttempts{RetryAfter: until.Sub(now)}
	}
	session, err := p.take(ctx, token, ceremonySignIn, "")
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(assertion)
	if err != nil {
		return nil, apperr.Invalidf("credential", "is not a WebAuthn assertion: %s", protocolDetail(err))
	}
	var owner *passkeyUser
	var key *storage.Passkey
	lookup := func(rawID, userHandle []byte) (webauthn.User, error) {
		pk, err := p.store.FindPasskeyByCredential(ctx, b64(rawID))
		if err != nil {
			return nil, err
		}
		// The user handle the authenticator keeps must name the passkey's owner.
		if !bytes.Equal(userHandle, []byte(pk.UserID)) {
			return nil, errors.New("user handle does not match the credential's owner")
		}
		u, err := p.store.FindUserByID(ctx, pk.UserID)
		if err != nil {
			return nil, err
		}
		cred, err := toCredential(pk)
		if err != nil {
			return nil, err
		}
		owner, key = &passkeyUser{u: u, creds: []webauthn.Credential{cred}}, pk
		return owner, nil
	}
	cred, err := p.wa.ValidateDiscoverableLogin(lookup, *session, parsed)
	if err == nil && cred.Authenticator.CloneWarning {
		err = errors.New("sign count went backwards: the authenticator may be cloned")
	}
	if err == nil {
		if blocked, until := s.byAccount.blocked(owner.u.Email, now); blocked {
			return nil, &TooManyAttempts{RetryAfter: until.Sub(now)}
		}
		err = p.store.RecordPasskeyUse(ctx, key.ID, int64(cred.Authenticator.SignCount), int(cred.Flags.ProtocolValue()), now)
	}
	if err != nil {
		s.byAddress.add(c.Address, now)
		if owner != nil {
			s.byAccount.add(owner.u.Email, now)
		}
		slog.InfoContext(ctx, "sign-in failed", "event", "signin.failed", "method", "passkey", "address", c.Address, "err", err)
		return nil, errPasskeyRefused
	}
	s.byAccount.reset(owner.u.Email)
	return s.open(ctx, owner.u, c, "passkey")
}

// List returns a user's passkeys, oldest first.
func (p PasskeyKeys) List(ctx context.Context, userID string) ([]*storage.Passkey, error) {
	return p.store.ListPasskeys(ctx, userID)
}

// Rename names one of a user's passkeys. Errors: Invalid, NotFound (also another user's).
func (p PasskeyKeys) Rename(ctx context.Context, userID, id, name string) error {
	name, err := passkeyName(name)
	if err != nil {
		return err
	}
	if err := p.store.RenamePasskey(ctx, userID, id, name); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return apperr.NotFoundf("passkey not found")
		}
		return err
	}
	return nil
}

// Remove deletes one of a user's passkeys: it signs no one in again. Sessions it opened stay (end
// them from the session list). Errors: NotFound (also another user's).
func (p PasskeyKeys) Remove(ctx context.Context, userID, id string) error {
	if err := p.store.DeletePasskey(ctx, userID, id); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return apperr.NotFoundf("passkey not found")
		}
		return err
	}
	slog.InfoContext(ctx, "passkey removed", "event", "passkey.removed", "user_id", userID, "passkey_id", id)
	return nil
}

// keep stores a ceremony's session data and returns its token.
func (p *Passkeys) keep(ctx context.Context, kind, userID string, session *webauthn.SessionData) (string, error) {
	data, err := json.Marshal(session)
	if err != nil {
		return "", fmt.Errorf("encode passkey ceremony: %w", err)
	}
	now := p.accounts.now()
	return p.store.CreatePasskeyCeremony(ctx, kind, userID, string(data), now, now.Add(CeremonyLifetime))
}

// take spends the ceremony token names: a second finish finds nothing.
func (p *Passkeys) take(ctx context.Context, token, kind, userID string) (*webauthn.SessionData, error) {
	if !strings.HasPrefix(token, storage.CeremonyPrefix) || len(token) > 100 {
		return nil, errCeremony
	}
	data, err := p.store.TakePasskeyCeremony(ctx, token, kind, userID, p.accounts.now())
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errCeremony
	}
	if err != nil {
		return nil, err
	}
	session := new(webauthn.SessionData)
	if err := json.Unmarshal([]byte(data), session); err != nil {
		return nil, fmt.Errorf("decode passkey ceremony: %w", err)
	}
	return session, nil
}

// user loads a user and their credentials for the library.
func (p *Passkeys) user(ctx context.Context, userID string) (*passkeyUser, error) {
	u, err := p.store.FindUserByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	keys, err := p.store.ListPasskeys(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := &passkeyUser{u: u}
	for _, k := range keys {
		c, err := toCredential(k)
		if err != nil {
			return nil, err
		}
		out.creds = append(out.creds, c)
	}
	return out, nil
}

// passkeyUser is a user as the WebAuthn library sees them: the user handle is the user's id.
type passkeyUser struct {
	u     *storage.User
	creds []webauthn.Credential
}

func (u *passkeyUser) WebAuthnID() []byte                         { return []byte(u.u.ID) }
func (u *passkeyUser) WebAuthnName() string                       { return u.u.Email }
func (u *passkeyUser) WebAuthnDisplayName() string                { return u.u.DisplayName }
func (u *passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func toCredential(k *storage.Passkey) (webauthn.Credential, error) {
	id, err1 := base64.RawURLEncoding.DecodeString(k.CredentialID)
	pub, err2 := base64.RawURLEncoding.DecodeString(k.PublicKey)
	aaguid, err3 := base64.RawURLEncoding.DecodeString(k.AAGUID)
	if err := errors.Join(err1, err2, err3); err != nil {
		return webauthn.Credential{}, fmt.Errorf("passkey %s: %w", k.ID, err)
	}
	var transports []protocol.AuthenticatorTransport
	for t := range strings.SplitSeq(k.Transports, ",") {
		if t != "" {
			transports = append(transports, protocol.AuthenticatorTransport(t))
		}
	}
	return webauthn.Credential{ID: id, PublicKey: pub, Transport: transports, AttestationFormat: k.AttestationFormat,
		Flags:         webauthn.NewCredentialFlags(protocol.AuthenticatorFlags(k.Flags)),
		Authenticator: webauthn.Authenticator{AAGUID: aaguid, SignCount: uint32(k.SignCount)}}, nil
}

func joinTransports(ts []protocol.AuthenticatorTransport) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ",")
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// passkeyName trims a name and checks its length; empty takes the default.
func passkeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return defaultPasskeyName, nil
	}
	if len([]rune(name)) > maxPasskeyName || strings.ContainsAny(name, "\r\n\t") {
		return "", apperr.Invalidf("name", "must be at most %d characters on one line", maxPasskeyName)
	}
	return name, nil
}

// protocolDetail is the library's explanation of a refusal, safe to show.
func protocolDetail(err error) string {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		return pe.Details
	}
	return "malformed"
}
