package signin

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/storage"
	"github.com/go-chi/chi/v5"
)

// The ceremony cookie holds the token of a passkey ceremony between its begin and its finish; the
// challenge itself stays on the server.
const (
	passkeyCookieSecure = "__Host-bindery_passkey"
	passkeyCookiePlain  = "bindery_passkey"
)

func (h *Handler) passkeyCookieName() string {
	if h.secure {
		return passkeyCookieSecure
	}
	return passkeyCookiePlain
}

func (h *Handler) passkeyRoutes(r chi.Router) {
	if h.opts.Passkeys == nil {
		return
	}
	r.Post("/passkeys/register/begin", h.passkeyRegisterBegin)
	r.Post("/passkeys/register/finish", h.passkeyRegisterFinish)
	r.Post("/passkeys/sign-in/begin", h.passkeySignInBegin)
	r.Post("/passkeys/sign-in/finish", h.passkeySignInFinish)
	r.Get("/passkeys", h.passkeyList)
	r.Patch("/passkeys/{id}", h.passkeyRename)
	r.Delete("/passkeys/{id}", h.passkeyRemove)
}

type passkeyJSON struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	Transports []string   `json:"transports"`
}

func toPasskeyJSON(p *storage.Passkey) passkeyJSON {
	ts := []string{}
	if p.Transports != "" {
		ts = strings.Split(p.Transports, ",")
	}
	return passkeyJSON{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, LastUsedAt: p.LastUsedAt, Transports: ts}
}

func (h *Handler) setCeremonyCookie(w http.ResponseWriter, token string) {
	http.SetCookie(w, &http.Cookie{Name: h.passkeyCookieName(), Value: token, Path: "/", MaxAge: int(account.CeremonyLifetime.Seconds()),
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteStrictMode})
}

// takeCeremonyCookie returns the ceremony token and clears the cookie: a finish spends it.
func (h *Handler) takeCeremonyCookie(w http.ResponseWriter, r *http.Request) string {
	c, err := r.Cookie(h.passkeyCookieName())
	if err != nil {
		return ""
	}
	http.SetCookie(w, &http.Cookie{Name: h.passkeyCookieName(), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: h.secure, SameSite: http.SameSiteStrictMode})
	return c.Value
}

// passkeyRegisterBegin answers the options for navigator.credentials.create ({"publicKey": …}).
func (h *Handler) passkeyRegisterBegin(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	creation, token, err := h.opts.Passkeys.BeginRegistration(r.Context(), se.UserID)
	if err != nil {
		fail(w, r, err)
		return
	}
	h.setCeremonyCookie(w, token)
	writeJSON(w, http.StatusOK, creation)
}

type passkeyRegisterBody struct {
	Name       string          `json:"name"`
	Credential json.RawMessage `json:"credential"`
}

// passkeyRegisterFinish verifies the new credential and stores it under its name.
func (h *Handler) passkeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	var in passkeyRegisterBody
	if !decode(w, r, &in) {
		return
	}
	pk, err := h.opts.Passkeys.FinishRegistration(r.Context(), se.UserID, h.takeCeremonyCookie(w, r), in.Name, in.Credential)
	if err != nil {
		fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, toPasskeyJSON(pk))
}

// passkeySignInBegin answers the options for navigator.credentials.get: no e-mail is asked, the
// authenticator offers the passkeys it holds for this site.
func (h *Handler) passkeySignInBegin(w http.ResponseWriter, r *http.Request) {
	assertion, token, err := h.opts.Passkeys.BeginSignIn(r.Context())
	if err != nil {
		fail(w, r, err)
		return
	}
	h.setCeremonyCookie(w, token)
	writeJSON(w, http.StatusOK, assertion)
}

type passkeySignInBody struct {
	Credential json.RawMessage `json:"credential"`
}

// passkeySignInFinish verifies the assertion and opens a session as a password sign-in does.
func (h *Handler) passkeySignInFinish(w http.ResponseWriter, r *http.Request) {
	var in passkeySignInBody
	if !decode(w, r, &in) {
		return
	}
	signed, err := h.opts.Passkeys.FinishSignIn(r.Context(), h.takeCeremonyCookie(w, r), in.Credential, h.client(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	h.setCookie(w, signed)
	writeJSON(w, http.StatusOK, toWhoami(signed.User, signed.Session))
}

// passkeyList answers the signed-in person's passkeys, oldest first.
func (h *Handler) passkeyList(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	keys, err := h.opts.Passkeys.List(r.Context(), se.UserID)
	if err != nil {
		fail(w, r, err)
		return
	}
	out := make([]passkeyJSON, len(keys))
	for i, k := range keys {
		out[i] = toPasskeyJSON(k)
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": out})
}

type passkeyRenameBody struct {
	Name string `json:"name"`
}

// passkeyRename names one of the signed-in person's passkeys.
func (h *Handler) passkeyRename(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	var in passkeyRenameBody
	if !decode(w, r, &in) {
		return
	}
	if err := h.opts.Passkeys.Rename(r.Context(), se.UserID, chi.URLParam(r, "id"), in.Name); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// passkeyRemove deletes one of the signed-in person's passkeys.
func (h *Handler) passkeyRemove(w http.ResponseWriter, r *http.Request) {
	_, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r))
	if err != nil {
		fail(w, r, err)
		return
	}
	if err := h.opts.Passkeys.Remove(r.Context(), se.UserID, chi.URLParam(r, "id")); err != nil {
		fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
