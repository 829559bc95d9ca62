package signin

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/crewjam/saml"
	"github.com/go-chi/chi/v5"
)

// SAML sign-in through an organization's identity provider (docs/accounts.md): the service
// provider's side of Web Browser SSO, SP-initiated, with the HTTP-Redirect binding to the provider
// and the HTTP-POST binding back. crewjam/saml checks the response: the provider's signature, the
// audience, destination and time conditions, and that it answers this browser's request.

// SAMLProviders are what the SAML routes ask the application.
type SAMLProviders interface {
	// SAMLSignInProvider returns an active provider by id. Errors: NotFound.
	SAMLSignInProvider(ctx context.Context, id string) (*account.SAMLProvider, error)
	// JoinThroughSAML makes the context's actor a member of the provider's organization.
	JoinThroughSAML(ctx context.Context, providerID string) error
}

// The flow cookie holds the token of the server-side flow for the round trip. The provider posts
// back from its own site, so the cookie must be SameSite=None, which browsers accept only with
// Secure: SAML needs an https public URL in a browser.
const (
	samlCookieSecure = "__Host-bindery_saml"
	samlCookiePlain  = "bindery_saml"
)

func (h *Handler) samlCookie(value string, maxAge int) *http.Cookie {
	c := &http.Cookie{Name: samlCookiePlain, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true, SameSite: http.SameSiteLaxMode}
	if h.secure {
		c.Name, c.Secure, c.SameSite = samlCookieSecure, true, http.SameSiteNoneMode
	}
	return c
}

func (h *Handler) samlRoutes(r chi.Router) {
	if h.opts.SAML == nil {
		return
	}
	r.Get("/saml/{providerId}/metadata", h.samlMetadata)
	r.Get("/saml/{providerId}/start", h.samlStart)
	r.Post("/saml/{providerId}/acs", h.samlACS)
	// The provider's page posts the response: a cross-site request by design, answered only
	// with the flow cookie this browser got at the start and a response to its own request.
	h.cop.AddInsecureBypassPattern("POST /saml/{providerId}/acs")
}

// serviceProvider is Bindery as the service provider of one identity provider.
func (h *Handler) serviceProvider(p *account.SAMLProvider) *saml.ServiceProvider {
	base := strings.TrimRight(h.opts.PublicURL, "/") + "/auth/saml/" + p.ID
	meta, _ := url.Parse(base + "/metadata")
	acs, _ := url.Parse(base + "/acs")
	return &saml.ServiceProvider{EntityID: meta.String(), MetadataURL: *meta, AcsURL: *acs,
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat,
		IDPMetadata: &saml.EntityDescriptor{EntityID: p.EntityID, IDPSSODescriptors: []saml.IDPSSODescriptor{{
			SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
				ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
				KeyDescriptors: []saml.KeyDescriptor{{Use: "signing", KeyInfo: saml.KeyInfo{
					X509Data: saml.X509Data{X509Certificates: []saml.X509Certificate{{Data: p.Certificate}}}}}}}},
			SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
		}}}}
}

func (h *Handler) samlProvider(w http.ResponseWriter, r *http.Request) (*account.SAMLProvider, bool) {
	p, err := h.opts.SAML.SAMLSignInProvider(r.Context(), chi.URLParam(r, "providerId"))
	if err != nil {
		status, msg := pageStatus(r, err)
		render(w, status, page{Title: "Single sign-on", Purpose: "saml", Error: msg})
		return nil, false
	}
	return p, true
}

// samlMetadata answers the service provider's metadata, for the identity provider's set-up.
func (h *Handler) samlMetadata(w http.ResponseWriter, r *http.Request) {
	p, ok := h.samlProvider(w, r)
	if !ok {
		return
	}
	body, err := xml.MarshalIndent(h.serviceProvider(p).Metadata(), "", "  ")
	if err != nil {
		logInternal(r, fmt.Errorf("SAML metadata: %w", err))
		writeError(w, http.StatusInternalServerError, "the metadata could not be written")
		return
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	w.Write(append([]byte(xml.Header), body...)) //nolint:errcheck
}

// samlStart sends the browser to the identity provider with an authentication request,
// remembering (server-side) the request and who the browser is signed in as.
func (h *Handler) samlStart(w http.ResponseWriter, r *http.Request) {
	p, ok := h.samlProvider(w, r)
	if !ok {
		return
	}
	sp := h.serviceProvider(p)
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		logInternal(r, fmt.Errorf("SAML request: %w", err))
		render(w, http.StatusBadGateway, page{Title: "Single sign-on", Purpose: "saml", Error: "The sign-in request could not be made. Try again later."})
		return
	}
	current := ""
	if actor, _, err := h.accounts.Authenticate(r.Context(), h.sessionToken(r)); err == nil {
		current = actor.UserID
	}
	token, err := h.accounts.StartSAMLFlow(r.Context(), account.SAMLFlow{ProviderID: p.ID, RequestID: req.ID}, current)
	if err != nil {
		logInternal(r, err)
		render(w, http.StatusInternalServerError, page{Title: "Single sign-on", Purpose: "saml", Error: "The sign-in could not start. Try again later."})
		return
	}
	to, err := req.Redirect("", sp)
	if err != nil {
		logInternal(r, fmt.Errorf("SAML redirect: %w", err))
		render(w, http.StatusBadGateway, page{Title: "Single sign-on", Purpose: "saml", Error: "The sign-in request could not be made. Try again later."})
		return
	}
	http.SetCookie(w, h.samlCookie(token, int(samlFlowSeconds)))
	http.Redirect(w, r, to.String(), http.StatusFound)
}

// samlFlowSeconds is the flow cookie's life: the server-side flow's.
const samlFlowSeconds = 10 * 60

// samlACS receives the identity provider's response, checks it against this browser's flow, and
// signs the person in.
func (h *Handler) samlACS(w http.ResponseWriter, r *http.Request) {
	p := page{Title: "Single sign-on", Purpose: "saml"}
	fail := func(status int, msg string) {
		p.Error = msg
		render(w, status, p)
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	token := ""
	for _, name := range []string{samlCookieSecure, samlCookiePlain} {
		if c, err := r.Cookie(name); err == nil {
			token = c.Value
		}
	}
	http.SetCookie(w, h.samlCookie("", -1))
	flow, current, err := h.accounts.TakeSAMLFlow(r.Context(), token)
	if err != nil || flow.ProviderID != chi.URLParam(r, "providerId") {
		if err != nil && apperr.KindOf(err) == apperr.Internal {
			logInternal(r, err)
		}
		fail(http.StatusBadRequest, "This sign-in was not started from this browser, or it took too long. Start again.")
		return
	}
	provider, ok := h.samlProvider(w, r)
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil { // ParseResponse reads the parsed form
		fail(http.StatusBadRequest, "The identity provider's answer could not be read.")
		return
	}
	assertion, err := h.serviceProvider(provider).ParseResponse(r, []string{flow.RequestID})
	if err != nil {
		var invalid *saml.InvalidResponseError
		if errors.As(err, &invalid) {
			err = invalid.PrivateErr
		}
		slog.InfoContext(r.Context(), "SAML response refused", "event", "signin.failed", "method", "saml", "provider_id", provider.ID, "err", err)
		fail(http.StatusUnauthorized, "The identity provider's answer could not be verified.")
		return
	}
	id := samlIdentity(provider, assertion)
	signed, _, err := h.accounts.SignInSAML(r.Context(), id, current, h.client(r), authz.MethodSAML(provider.OrganizationID))
	if err != nil {
		status, msg := pageStatus(r, err)
		fail(status, msg)
		return
	}
	h.setCookie(w, signed)
	p.Email = signed.User.Email
	actor, _, err := h.accounts.Authenticate(r.Context(), signed.Token)
	if err == nil {
		err = h.opts.SAML.JoinThroughSAML(authz.WithActor(r.Context(), actor), provider.ID)
	}
	if err != nil {
		if apperr.KindOf(err) == apperr.Internal {
			logInternal(r, err)
		}
		status, msg := pageStatus(r, err)
		fail(status, "You are signed in as "+signed.User.Email+", but could not join "+provider.OrganizationTitle+": "+msg)
		return
	}
	p.Done, p.Next = "You are signed in as "+signed.User.Email+".", strings.TrimRight(h.opts.AppURL, "/")+"/o/"+provider.OrganizationID+"/"
	render(w, http.StatusOK, p)
}

// samlIdentity reads who the assertion names: its NameID, and the address from an e-mail NameID
// or the usual e-mail attributes; a display name from the usual name attributes.
func samlIdentity(p *account.SAMLProvider, a *saml.Assertion) account.Identity {
	id := account.Identity{Issuer: "saml:" + p.EntityID}
	if a.Subject != nil && a.Subject.NameID != nil {
		id.Subject = strings.TrimSpace(a.Subject.NameID.Value)
		if a.Subject.NameID.Format == string(saml.EmailAddressNameIDFormat) {
			id.Email = id.Subject
		}
	}
	for _, st := range a.AttributeStatements {
		for _, at := range st.Attributes {
			if len(at.Values) == 0 {
				continue
			}
			v := strings.TrimSpace(at.Values[0].Value)
			for _, name := range []string{strings.ToLower(at.Name), strings.ToLower(at.FriendlyName)} {
				switch name {
				case "email", "mail", "emailaddress", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "urn:oid:0.9.2342.19200300.100.1.3":
					if id.Email == "" {
						id.Email = v
					}
				case "displayname", "name", "cn", "http://schemas.microsoft.com/identity/claims/displayname",
					"urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3":
					if id.Name == "" {
						id.Name = v
					}
				}
			}
		}
	}
	return id
}
