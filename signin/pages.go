package signin

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"net/url"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
	"github.com/go-chi/chi/v5"
)

// Invites is what the invite page needs of the application: what a link offers, and joining
// through it as the context's actor (the graph's JoinOrganizationWithInvite, the one join rule).
type Invites interface {
	DescribeInvite(ctx context.Context, orgID, inviteID string) (*account.Invite, error)
	JoinInvite(ctx context.Context, orgID, inviteID string) error
	// EmailDomainOpen reports whether an organization lets that address's domain join.
	EmailDomainOpen(ctx context.Context, email string) (bool, error)
	// JoinByEmailDomain joins the context's actor to every organization their domain may join.
	JoinByEmailDomain(ctx context.Context) error
	// ApplySSOClaims sets the context's actor's roles from an ID token's claims, in the
	// organizations that map them.
	ApplySSOClaims(ctx context.Context, claims map[string]any) error
}

// page is what the one page template shows.
type page struct {
	Title   string
	Error   string
	Done    string // set once the page's work succeeded
	Next    string // where to go from here
	Token   string // a one-time link's token, carried by the form
	Invite  *account.Invite
	Email   string // the account a link is for, or the signed-in person
	Name    string
	Purpose string // "setup", "reset" or "invite"
	// SignedIn is set when the browser already has a session (the invite page offers to join).
	SignedIn bool
	// SSOStart and SSOName offer single sign-on (empty: none configured).
	SSOStart, SSOName string
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>{{.Title}} · Bindery</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
form{margin:1.5rem 0;padding:1rem;border:1px solid #ddd;border-radius:6px}label{display:block;margin:.5rem 0}
input{display:block;width:100%;box-sizing:border-box;padding:.4rem;font:inherit}button{margin-top:.8rem;padding:.4rem 1rem;font:inherit}
.error{color:#a00;border-left:3px solid #a00;padding-left:.6rem}.done{color:#060}</style></head>
<body><h1>{{.Title}}</h1>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{if .Done}}<p class="done">{{.Done}}</p>{{if .Next}}<p><a href="{{.Next}}">Continue</a></p>{{end}}
{{else if eq .Purpose "invite"}}{{with .Invite}}
<p>You are invited to join <strong>{{.OrganizationTitle}}</strong>{{if .Target}} with access to {{.Target}}{{end}}{{if .Role}} as <strong>{{.Role}}</strong>{{end}}.</p>{{end}}
{{if .SignedIn}}<form method="post"><input type="hidden" name="action" value="join">
<p>Signed in as {{.Email}}.</p><button>Join</button></form>
{{else}}<form method="post"><h2>New to Bindery</h2><input type="hidden" name="action" value="sign-up">
<label>Name <input name="name" autocomplete="name" required maxlength="100" value="{{.Name}}"></label>
<label>E-mail <input name="email" type="email" autocomplete="email" required value="{{.Email}}"></label>
<label>Password (at least 12 characters) <input name="password" type="password" autocomplete="new-password" required minlength="12"></label>
<button>Create the account and join</button></form>
<form method="post"><h2>I have an account</h2><input type="hidden" name="action" value="sign-in">
<label>E-mail <input name="email" type="email" autocomplete="username" required value="{{.Email}}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button>Sign in and join</button></form>
{{if .SSOStart}}<p><a href="{{.SSOStart}}">Sign in with {{.SSOName}} and join</a></p>{{end}}{{end}}
{{else if .Token}}<form method="post"><input type="hidden" name="token" value="{{.Token}}">
<p>Choose the password of {{.Email}}. Every session signed in with the old one ends.</p>
<label>New password (at least 12 characters) <input name="password" type="password" autocomplete="new-password" required minlength="12"></label>
<button>Set the password and sign in</button></form>{{end}}
</body></html>
`))

// render writes the page with status; the pages are never cached and never framed.
func render(w http.ResponseWriter, status int, p page) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	pageTemplate.Execute(w, p) //nolint:errcheck // the client is gone
}

// pageStatus is the status and message a page shows for err; internal errors are logged.
func pageStatus(r *http.Request, err error) (int, string) {
	var tooMany *account.TooManyAttempts
	if errors.As(err, &tooMany) {
		return http.StatusTooManyRequests, tooMany.Error()
	}
	if status, ok := statusOf[apperr.KindOf(err)]; ok {
		return status, apperr.Message(err)
	}
	logInternal(r, err)
	return http.StatusInternalServerError, "Something went wrong on the server. Try again later."
}

// readForm parses a form body of at most maxBody bytes; false when it answered the refusal.
func readForm(w http.ResponseWriter, r *http.Request, p page) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		p.Error = "The form could not be read."
		status := http.StatusBadRequest
		if errors.As(err, &tooLarge) {
			status, p.Error = http.StatusRequestEntityTooLarge, "The form is too large."
		}
		render(w, status, p)
		return false
	}
	return true
}

func (h *Handler) linkRoutes(r chi.Router) {
	for _, l := range []struct{ path, purpose, title string }{
		{"/setup", storage.LinkSetup, "Set up your account"},
		{"/reset", storage.LinkReset, "Reset your password"},
	} {
		r.Get(l.path, func(w http.ResponseWriter, r *http.Request) { h.showLink(w, r, l.purpose, l.title) })
		r.Post(l.path, func(w http.ResponseWriter, r *http.Request) { h.useLink(w, r, l.purpose, l.title) })
	}
}

// showLink shows the password form of a set-up or reset link that is still valid.
func (h *Handler) showLink(w http.ResponseWriter, r *http.Request, purpose, title string) {
	p := page{Title: title, Purpose: purpose, Token: r.URL.Query().Get("token")}
	u, err := h.accounts.CheckLink(r.Context(), p.Token, purpose)
	if err != nil {
		p.Token = ""
		status, msg := pageStatus(r, err)
		p.Error = msg
		render(w, status, p)
		return
	}
	p.Email = u.Email
	render(w, http.StatusOK, p)
}

// useLink spends a link: the password is set, other sessions end, and this browser is signed in.
func (h *Handler) useLink(w http.ResponseWriter, r *http.Request, purpose, title string) {
	p := page{Title: title, Purpose: purpose}
	if !readForm(w, r, p) {
		return
	}
	p.Token = r.PostForm.Get("token")
	signed, err := h.accounts.RedeemLink(r.Context(), p.Token, purpose, r.PostForm.Get("password"), h.client(r))
	if err != nil {
		status, msg := pageStatus(r, err)
		p.Error = msg
		if u, err := h.accounts.CheckLink(r.Context(), p.Token, purpose); err == nil {
			p.Email = u.Email // a refused password: the form again
		} else {
			p.Token = ""
		}
		render(w, status, p)
		return
	}
	h.setCookie(w, signed)
	p.Token, p.Done, p.Next = "", "Your password is set and you are signed in as "+signed.User.Email+".", h.opts.AppURL
	render(w, http.StatusOK, p)
}

func (h *Handler) inviteRoutes(r chi.Router) {
	if h.opts.Invites == nil {
		return
	}
	r.Get("/invite/{orgId}/{inviteId}", h.showInvite)
	r.Post("/invite/{orgId}/{inviteId}", h.acceptInvite)
}

// invite reads the link's ids and what it offers; false when it answered the refusal.
func (h *Handler) invite(w http.ResponseWriter, r *http.Request, p *page) bool {
	inv, err := h.opts.Invites.DescribeInvite(r.Context(), chi.URLParam(r, "orgId"), chi.URLParam(r, "inviteId"))
	if err != nil {
		status, msg := pageStatus(r, err)
		p.Error = msg
		render(w, status, *p)
		return false
	}
	p.Invite = inv
	if h.opts.OIDC != nil {
		p.SSOStart = "/auth/oidc/start?invite=" + url.QueryEscape(inv.OrganizationID+"/"+chi.URLParam(r, "inviteId"))
		p.SSOName = h.opts.OIDC.cfg.Name
	}
	if _, se, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r)); err == nil {
		p.SignedIn, p.Email = true, se.User.Email
	}
	return true
}

// showInvite shows what an invite link offers, with the forms to join.
func (h *Handler) showInvite(w http.ResponseWriter, r *http.Request) {
	p := page{Title: "Join on Bindery", Purpose: "invite"}
	if h.invite(w, r, &p) {
		render(w, http.StatusOK, p)
	}
}

// acceptInvite signs the person up, or in, or takes the session they have, and joins them through
// the link with its role.
func (h *Handler) acceptInvite(w http.ResponseWriter, r *http.Request) {
	p := page{Title: "Join on Bindery", Purpose: "invite"}
	if !readForm(w, r, p) || !h.invite(w, r, &p) {
		return
	}
	form := r.PostForm
	fail := func(err error) {
		status, msg := pageStatus(r, err)
		p.Error = msg
		render(w, status, p)
	}
	ctx := r.Context()
	var signed *account.SignedIn
	var err error
	switch form.Get("action") {
	case "join":
		actor, _, err := h.accounts.Authenticate(ctx, h.sessionToken(r))
		if err != nil {
			p.SignedIn = false
			fail(err)
			return
		}
		ctx = authz.WithActor(ctx, actor)
	case "sign-up":
		p.Email, p.Name = form.Get("email"), form.Get("name")
		signed, err = h.accounts.SignUp(ctx, form.Get("email"), form.Get("name"), form.Get("password"), h.client(r))
	case "sign-in":
		p.Email = form.Get("email")
		signed, err = h.accounts.SignIn(ctx, form.Get("email"), form.Get("password"), h.client(r))
	default:
		fail(apperr.Invalidf("action", "must be join, sign-up or sign-in"))
		return
	}
	if err != nil {
		fail(err)
		return
	}
	if signed != nil {
		h.setCookie(w, signed)
		p.SignedIn, p.Email = true, signed.User.Email
		actor, _, err := h.accounts.Authenticate(ctx, signed.Token)
		if err != nil {
			fail(err)
			return
		}
		ctx = authz.WithActor(ctx, actor)
	}
	if err := h.opts.Invites.JoinInvite(ctx, p.Invite.OrganizationID, chi.URLParam(r, "inviteId")); err != nil {
		fail(err)
		return
	}
	p.Done, p.Next = "You joined "+p.Invite.OrganizationTitle+" as "+p.Email+".", h.opts.AppURL
	render(w, http.StatusOK, p)
}
