package signin

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-chi/chi/v5"
	"golang.org/x/oauth2"
)

// OIDCConfig names an OpenID Connect provider and this server's client there.
type OIDCConfig struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	// Name is shown on the pages ("Sign in with …"); default "single sign-on".
	Name string
	// Scopes are asked for besides openid, email and profile: those that bring the claim an
	// organization maps to roles ("groups" at many providers).
	Scopes []string
}

// OIDC signs people in through an OpenID Connect provider: the authorization code flow with PKCE,
// a state bound to the browser by a cookie, and a nonce checked in the ID token.
type OIDC struct {
	cfg      OIDCConfig
	provider *oidc.Provider
	verifier *oidc.IDTokenVerifier
}

// NewOIDC discovers the provider at cfg.Issuer. Errors: the issuer does not answer discovery, or
// a setting is missing.
func NewOIDC(ctx context.Context, cfg OIDCConfig) (*OIDC, error) {
	if cfg.Issuer == "" || cfg.ClientID == "" || cfg.ClientSecret == "" {
		return nil, errors.New("OpenID Connect needs an issuer URL, a client id and a client secret")
	}
	p, err := oidc.NewProvider(ctx, cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect provider %s: %w", cfg.Issuer, err)
	}
	if cfg.Name == "" {
		cfg.Name = "single sign-on"
	}
	return &OIDC{cfg: cfg, provider: p, verifier: p.Verifier(&oidc.Config{ClientID: cfg.ClientID})}, nil
}

// Name is what the pages call the provider ("Acme SSO").
func (o *OIDC) Name() string { return o.cfg.Name }

// The flow cookie lives for the sign-in round trip only.
const (
	oidcCookieSecure = "__Host-bindery_oidc"
	oidcCookiePlain  = "bindery_oidc"
	oidcFlowLifetime = 10 * time.Minute
)

func (h *Handler) oidcCookieName() string {
	if h.secure {
		return oidcCookieSecure
	}
	return oidcCookiePlain
}

func (h *Handler) oauth2Config() *oauth2.Config {
	return &oauth2.Config{ClientID: h.opts.OIDC.cfg.ClientID, ClientSecret: h.opts.OIDC.cfg.ClientSecret,
		Endpoint: h.opts.OIDC.provider.Endpoint(), RedirectURL: strings.TrimRight(h.opts.PublicURL, "/") + "/auth/oidc/callback",
		Scopes: append([]string{oidc.ScopeOpenID, "email", "profile"}, h.opts.OIDC.cfg.Scopes...)}
}

func (h *Handler) oidcRoutes(r chi.Router) {
	if h.opts.OIDC == nil {
		return
	}
	r.Get("/oidc/start", h.oidcStart)
	r.Get("/oidc/callback", h.oidcCallback)
}

// oidcFlow is what the flow cookie holds: state, nonce, PKCE verifier, and the invite
// (organizationId/inviteId) the sign-in started from, if any, separated by spaces.
type oidcFlow struct{ state, nonce, verifier, invite string }

func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b) //nolint:errcheck // crypto/rand.Read never fails on supported platforms
	return base64.RawURLEncoding.EncodeToString(b)
}

// oidcStart sends the browser to the provider. ?invite=ORG/INVITE carries an invite link through
// the round trip, so that a first sign-in may create the account and join.
func (h *Handler) oidcStart(w http.ResponseWriter, r *http.Request) {
	flow := oidcFlow{state: randomToken(), nonce: randomToken(), verifier: oauth2.GenerateVerifier()}
	if inv := r.URL.Query().Get("invite"); inv != "" {
		org, id, ok := strings.Cut(inv, "/")
		if !ok || org == "" || id == "" || len(inv) > 100 || strings.ContainsAny(inv, " \t\r\n") {
			writeError(w, http.StatusBadRequest, "invite: must be ORGANIZATION_ID/INVITE_ID")
			return
		}
		flow.invite = inv
	}
	http.SetCookie(w, &http.Cookie{Name: h.oidcCookieName(), Value: strings.Join([]string{flow.state, flow.nonce, flow.verifier, flow.invite}, "."),
		Path: "/", MaxAge: int(oidcFlowLifetime.Seconds()), HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
	url := h.oauth2Config().AuthCodeURL(flow.state, oidc.Nonce(flow.nonce), oauth2.S256ChallengeOption(flow.verifier))
	http.Redirect(w, r, url, http.StatusFound)
}

// readFlow returns the flow cookie's contents; false when there is none or it is malformed.
func (h *Handler) readFlow(r *http.Request) (oidcFlow, bool) {
	c, err := r.Cookie(h.oidcCookieName())
	if err != nil || len(c.Value) > 400 {
		return oidcFlow{}, false
	}
	parts := strings.Split(c.Value, ".")
	if len(parts) != 4 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return oidcFlow{}, false
	}
	return oidcFlow{state: parts[0], nonce: parts[1], verifier: parts[2], invite: parts[3]}, true
}

// oidcClaims are the ID token's claims Bindery reads (besides iss and sub, and the claim an
// organization maps to roles).
type oidcClaims struct {
	Email         string `json:"email"`
	EmailVerified *bool  `json:"email_verified"`
	Name          string `json:"name"`
}

// oidcCallback finishes the flow: the state must match the browser's cookie, the code is
// exchanged with the PKCE verifier, the ID token's signature, issuer, audience, expiry and nonce
// are checked, and the person is signed in (their account created only when an invite or an
// organization's e-mail domain allows it). The flow cookie is cleared whatever happens, so a
// callback cannot be replayed.
func (h *Handler) oidcCallback(w http.ResponseWriter, r *http.Request) {
	p := page{Title: "Sign in with " + h.opts.OIDC.cfg.Name, Purpose: "oidc"}
	failPage := func(status int, msg string) {
		p.Error = msg
		render(w, status, p)
	}
	flow, ok := h.readFlow(r)
	http.SetCookie(w, &http.Cookie{Name: h.oidcCookieName(), Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteLaxMode})
	q := r.URL.Query()
	state := q.Get("state")
	if !ok || state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(flow.state)) != 1 {
		failPage(http.StatusBadRequest, "This sign-in was not started from this browser, or it took too long. Start again.")
		return
	}
	if e := q.Get("error"); e != "" {
		failPage(http.StatusBadRequest, "The identity provider refused the sign-in ("+truncateText(e, 100)+").")
		return
	}
	code := q.Get("code")
	if code == "" || len(code) > 2048 {
		failPage(http.StatusBadRequest, "The identity provider sent no usable code.")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	tok, err := h.oauth2Config().Exchange(ctx, code, oauth2.VerifierOption(flow.verifier))
	if err != nil {
		logInternal(r, fmt.Errorf("OpenID Connect code exchange: %w", err))
		failPage(http.StatusBadRequest, "The identity provider did not accept the sign-in code (it may have been used already). Start again.")
		return
	}
	raw, _ := tok.Extra("id_token").(string)
	idToken, err := h.opts.OIDC.verifier.Verify(ctx, raw)
	if err != nil {
		logInternal(r, fmt.Errorf("OpenID Connect ID token: %w", err))
		failPage(http.StatusUnauthorized, "The identity provider's answer could not be verified.")
		return
	}
	if subtle.ConstantTimeCompare([]byte(idToken.Nonce), []byte(flow.nonce)) != 1 {
		failPage(http.StatusUnauthorized, "The identity provider's answer is not for this sign-in.")
		return
	}
	var claims oidcClaims
	var all map[string]any
	if err := idToken.Claims(&claims); err != nil || idToken.Claims(&all) != nil {
		failPage(http.StatusUnauthorized, "The identity provider's answer could not be read.")
		return
	}
	orgID, inviteID, _ := strings.Cut(flow.invite, "/")
	mayCreate := func(ctx context.Context) (bool, error) {
		if h.opts.Invites == nil {
			return false, nil
		}
		if flow.invite != "" {
			if _, err := h.opts.Invites.DescribeInvite(ctx, orgID, inviteID); err == nil {
				return true, nil
			}
		}
		return h.opts.Invites.EmailDomainOpen(ctx, claims.Email)
	}
	id := account.Identity{Issuer: idToken.Issuer, Subject: idToken.Subject, Email: claims.Email, Name: claims.Name,
		EmailVerified: claims.EmailVerified != nil && *claims.EmailVerified}
	signed, created, err := h.accounts.SignInVerified(r.Context(), id, mayCreate, h.client(r), authz.MethodSingleSignOn)
	if err != nil {
		status, msg := pageStatus(r, err)
		failPage(status, msg)
		return
	}
	h.setCookie(w, signed)
	p.Email = signed.User.Email
	if h.opts.Invites != nil {
		if err := h.joinAfterSSO(r.Context(), signed, flow.invite, created, all); err != nil {
			if apperr.KindOf(err) == apperr.Internal {
				logInternal(r, err)
			}
			status, msg := pageStatus(r, err)
			failPage(status, "You are signed in as "+signed.User.Email+", but could not join: "+msg)
			return
		}
	}
	p.Done, p.Next = "You are signed in as "+signed.User.Email+".", h.opts.AppURL
	render(w, http.StatusOK, p)
}

// joinAfterSSO finishes a single sign-on as the signed-in person: joining through the invite the
// sign-in started from, or by e-mail domain for a new account, then taking the roles the
// organizations map from the ID token's claims.
func (h *Handler) joinAfterSSO(ctx context.Context, signed *account.SignedIn, invite string, created bool, claims map[string]any) error {
	actor, _, err := h.accounts.Authenticate(ctx, signed.Token)
	if err != nil {
		return err
	}
	actx := authz.WithActor(ctx, actor)
	if invite != "" {
		orgID, inviteID, _ := strings.Cut(invite, "/")
		err = h.opts.Invites.JoinInvite(actx, orgID, inviteID)
	} else if created {
		err = h.opts.Invites.JoinByEmailDomain(actx)
	}
	if err != nil {
		return err
	}
	return h.opts.Invites.ApplySSOClaims(actx, claims)
}

func truncateText(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
