// Package signin is the door people use with a browser: the small JSON routes under /auth
// (sign-in, sign-out, whoami, password change) and the pages behind one-time links (set-up,
// password reset, invites). It also authenticates the session cookie for /graphql. The rules are
// domain/account's; this package decodes, calls one method and encodes.
package signin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/mailer"
	"github.com/bindery/bindery/storage"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Cookie names: browsers accept a __Host- cookie only when it is Secure, so a server reached over
// plain http (development) uses the unprefixed name.
const (
	SecureCookieName = "__Host-bindery_session"
	PlainCookieName  = "bindery_session"
)

// maxBody bounds every JSON body and form these routes read.
const maxBody = 16 << 10

// Options configure the door.
type Options struct {
	// PublicURL is the server's external base URL: https makes the cookie Secure and __Host-.
	PublicURL string
	// TrustedOrigins are other origins (the web app's) whose cookie-carrying requests are not
	// cross-origin forgeries.
	TrustedOrigins []string
	// AppURL is where the pages send a person once signed in (empty: no link).
	AppURL string
	// Invites joins organizations through invite links (nil: no invite pages).
	Invites Invites
	// OIDC, when set, offers single sign-on through an OpenID Connect provider.
	OIDC *OIDC
	// Mailer, when set, sends reset links by e-mail (POST /auth/reset-request).
	Mailer *mailer.Mailer
	// SAML, when set, offers sign-in through organizations' SAML providers under /auth/saml.
	SAML SAMLProviders
	// Passkeys, when set, offers the passkey ceremonies under /auth/passkeys.
	Passkeys *account.Passkeys
}

// Handler serves /auth and authenticates session cookies.
type Handler struct {
	accounts *account.Service
	opts     Options
	secure   bool
	cop      *http.CrossOriginProtection
	routes   http.Handler
}

// New returns the door over accounts. Errors: a trusted origin that is not an origin.
func New(accounts *account.Service, opts Options) (*Handler, error) {
	h := &Handler{accounts: accounts, opts: opts, secure: strings.HasPrefix(opts.PublicURL, "https://"),
		cop: http.NewCrossOriginProtection()}
	for _, o := range opts.TrustedOrigins {
		if err := h.cop.AddTrustedOrigin(strings.TrimRight(o, "/")); err != nil {
			return nil, fmt.Errorf("trusted origin %q: %w", o, err)
		}
	}
	h.cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusForbidden, "cross-origin request refused: it must come from this server's own pages")
	}))
	r := chi.NewRouter()
	r.Post("/sign-in", h.signIn)
	r.Post("/sign-out", h.signOut)
	r.Get("/whoami", h.whoami)
	r.Post("/password", h.changePassword)
	h.linkRoutes(r)
	h.inviteRoutes(r)
	h.oidcRoutes(r)
	h.samlRoutes(r)
	h.passkeyRoutes(r)
	if opts.Mailer != nil {
		r.Post("/reset-request", h.requestReset)
	}
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) { writeError(w, http.StatusNotFound, "No such endpoint") })
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusMethodNotAllowed, "Method not allowed on this endpoint")
	})
	// Every route that changes state (all but GET/HEAD/OPTIONS) passes the cross-origin check:
	// sign-in too, so that another site cannot sign a browser into its own account.
	h.routes = h.cop.Handler(r)
	return h, nil
}

// ServeHTTP answers the /auth routes (mounted with the prefix stripped).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	h.routes.ServeHTTP(w, r)
}

// CookieName is the session cookie's name on this server.
func (h *Handler) CookieName() string {
	if h.secure {
		return SecureCookieName
	}
	return PlainCookieName
}

// CheckOrigin refuses a request that changes state from another origin (Origin or
// Sec-Fetch-Site tell); GET, HEAD and OPTIONS pass.
func (h *Handler) CheckOrigin(r *http.Request) error { return h.cop.Check(r) }

// AuthenticateRequest resolves the session cookie r carries: ok is false when it carries none.
// The context returned carries the actor and the session. Errors: Unauthenticated (unknown,
// expired or ended session), Internal.
func (h *Handler) AuthenticateRequest(r *http.Request) (ctx context.Context, ok bool, err error) {
	token := h.sessionToken(r)
	if token == "" {
		return nil, false, nil
	}
	actor, se, err := h.accounts.Authenticate(r.Context(), token)
	if err != nil {
		return nil, true, err
	}
	return account.WithSession(authz.WithActor(r.Context(), actor), se), true, nil
}

func (h *Handler) sessionToken(r *http.Request) string {
	c, err := r.Cookie(h.CookieName())
	if err != nil {
		return ""
	}
	return c.Value
}

func (h *Handler) setCookie(w http.ResponseWriter, in *account.SignedIn) {
	http.SetCookie(w, &http.Cookie{Name: h.CookieName(), Value: in.Token, Path: "/", Expires: in.Session.ExpiresAt,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
}

func (h *Handler) clearCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: h.CookieName(), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
}

// client describes the request for the session record and the failure limits.
func (h *Handler) client(r *http.Request) account.Client {
	return account.Client{Address: clientAddress(r), UserAgent: r.UserAgent(), Session: h.sessionToken(r)}
}

// clientAddress is the client's address as the server's middleware found it (trusted proxies
// considered), else the TCP peer's.
func clientAddress(r *http.Request) string {
	if ip := middleware.GetClientIP(r.Context()); ip != "" {
		return ip
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type signInBody struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// userJSON and sessionJSON are what whoami and sign-in answer.
type userJSON struct {
	ID          string `json:"id"`
	Email       string `json:"email"`
	DisplayName string `json:"displayName"`
}

type sessionJSON struct {
	ID         string    `json:"id"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	ExpiresAt  time.Time `json:"expiresAt"`
}

type whoamiJSON struct {
	User    userJSON    `json:"user"`
	Session sessionJSON `json:"session"`
}

func toWhoami(u *storage.User, se *storage.Session) whoamiJSON {
	return whoamiJSON{User: userJSON{ID: u.ID, Email: u.Email, DisplayName: u.DisplayName},
		Session: sessionJSON{ID: se.ID, CreatedAt: se.CreatedAt, LastSeenAt: se.LastSeenAt, ExpiresAt: se.ExpiresAt}}
}

// signIn checks an e-mail and password, opens a session (a new id, whatever cookie came) and sets
// its cookie.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	var in signInBody
	if !decode(w, r, &in) {
		return
	}
	signed, err := h.accounts.SignIn(r.Context(), in.Email, in.Password, h.client(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	h.setCookie(w, signed)
	writeJSON(w, http.StatusOK, toWhoami(signed.User, signed.Session))
}

// signOut ends the cookie's session and clears the cookie; without one it still succeeds.
func (h *Handler) signOut(w http.ResponseWriter, r *http.Request) {
	if err := h.accounts.SignOut(r.Context(), h.sessionToken(r)); err != nil {
		fail(w, r, err)
		return
	}
	h.clearCookie(w)
	w.WriteHeader(http.StatusNoContent)
}

// whoami answers the signed-in person and their session.
func (h *Handler) whoami(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, toWhoami(se.User, se))
}

type passwordBody struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// changePassword sets a new password for the signed-in person; their other sessions end.
func (h *Handler) changePassword(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	var in passwordBody
	if !decode(w, r, &in) {
		return
	}
	if err := h.accounts.ChangePassword(r.Context(), se.UserID, se.ID, in.CurrentPassword, in.NewPassword, h.client(r)); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// decode reads a JSON body of at most maxBody bytes into v, refusing unknown fields, and answers
// the refusal itself.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json)")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.Decode(new(json.RawMessage)) != io.EOF {
		err = errors.New("more than one JSON value")
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", maxBody))
		return false
	case err != nil:
		writeError(w, http.StatusBadRequest, "the body is not a valid JSON object of the expected fields")
		return false
	}
	return true
}

var statusOf = map[apperr.Kind]int{
	apperr.Invalid:         http.StatusBadRequest,
	apperr.Unauthenticated: http.StatusUnauthorized,
	apperr.Forbidden:       http.StatusForbidden,
	apperr.NotFound:        http.StatusNotFound,
	apperr.Conflict:        http.StatusConflict,
}

// fail answers an error in the contract's error shape; internal errors are logged, not shown.
func fail(w http.ResponseWriter, r *http.Request, err error) {
	var tooMany *account.TooManyAttempts
	if errors.As(err, &tooMany) {
		w.Header().Set("Retry-After", strconv.Itoa(max(int(tooMany.RetryAfter.Seconds()+0.999), 1)))
		writeError(w, http.StatusTooManyRequests, tooMany.Error())
		return
	}
	status, ok := statusOf[apperr.KindOf(err)]
	if !ok {
		logInternal(r, err)
		writeError(w, http.StatusInternalServerError, "Internal error")
		return
	}
	writeError(w, status, apperr.Message(err))
}

func logInternal(r *http.Request, err error) {
	slog.ErrorContext(r.Context(), "auth route failed", "path", r.URL.Path, "err", err)
}

func writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client is gone
}

type resetRequestBody struct {
	Email string `json:"email"`
}

// requestReset e-mails a reset link to an address that has an account. The answer is the same
// whether it has one or not, and comes before the mail is sent, so that neither its words nor its
// time tell.
func (h *Handler) requestReset(w http.ResponseWriter, r *http.Request) {
	var in resetRequestBody
	if !decode(w, r, &in) {
		return
	}
	token, u, err := h.accounts.RequestReset(r.Context(), in.Email, h.client(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	if u != nil {
		link := strings.TrimRight(h.opts.PublicURL, "/") + "/auth/reset?token=" + url.QueryEscape(token)
		lifetime := h.accounts.Config().LinkLifetime
		go func() { // detached from the request: its answer must not wait on the mail server
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), time.Minute)
			defer cancel()
			err := h.opts.Mailer.Send(ctx, u.Email, "Reset your Bindery password",
				"Someone, hopefully you, asked to reset the password of "+u.Email+" on Bindery.\n\n"+
					"Choose a new password here (the link works once, for "+lifetime.String()+"):\n\n"+link+"\n\n"+
					"If it was not you, ignore this message: your password stays as it is.\n")
			if err != nil {
				slog.ErrorContext(ctx, "send reset e-mail", "user_id", u.ID, "err", err)
			}
		}()
	}
	writeJSON(w, http.StatusAccepted, map[string]string{"message": "If an account has this address, a reset link is on its way."})
}
