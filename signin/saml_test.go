package signin_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"encoding/xml"
	"html"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/account"
	"github.com/crewjam/saml"
)

// samlIdP is an in-process SAML identity provider that signs in whoever the test names.
type samlIdP struct {
	*saml.IdentityProvider
	srv     *httptest.Server
	certPEM string

	mu   sync.Mutex
	user saml.Session // who the next sign-in is
}

func (p *samlIdP) GetSession(w http.ResponseWriter, r *http.Request, req *saml.IdpAuthnRequest) *saml.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.user
	s.ID, s.CreateTime, s.ExpireTime = "session", time.Now(), time.Now().Add(time.Hour)
	return &s
}

// GetServiceProvider reads Bindery's metadata for the provider it names.
func (p *samlIdP) GetServiceProvider(r *http.Request, id string) (*saml.EntityDescriptor, error) {
	resp, err := http.Get(id)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, os.ErrNotExist
	}
	var ed saml.EntityDescriptor
	body, _ := io.ReadAll(resp.Body)
	return &ed, xml.Unmarshal(body, &ed)
}

func startSAMLIdP(t *testing.T) *samlIdP {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	p := &samlIdP{certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
	p.srv = httptest.NewServer(nil)
	t.Cleanup(p.srv.Close)
	meta, _ := url.Parse(p.srv.URL + "/metadata")
	sso, _ := url.Parse(p.srv.URL + "/sso")
	p.IdentityProvider = &saml.IdentityProvider{Key: key, Certificate: cert, MetadataURL: *meta, SSOURL: *sso,
		SessionProvider: p, ServiceProviderProvider: p}
	p.srv.Config.Handler = p.Handler()
	return p
}

func (p *samlIdP) signInAs(email, name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.user = saml.Session{NameID: email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: email, UserCommonName: name}
}

// samlResponse is a response the provider posts back: the form's fields and the flow cookie of
// the browser that started.
type samlResponse struct {
	acs    string
	form   url.Values
	cookie string
}

// startSAML starts a sign-in through provider id (as the browser holding headers' cookie, if
// any), lets the identity provider answer, and returns its response, not yet posted.
func (s *site) startSAML(p *samlIdP, id string, headers ...string) samlResponse {
	s.t.Helper()
	resp, body := s.call("GET", "/auth/saml/"+id+"/start", "", headers...)
	if resp.StatusCode != http.StatusFound {
		s.t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	var cookie string
	for _, c := range resp.Cookies() {
		if c.Name == "bindery_saml" {
			cookie = c.Name + "=" + c.Value
		}
	}
	r, err := noRedirects.Get(resp.Header.Get("Location"))
	if err != nil {
		s.t.Fatal(err)
	}
	page, _ := io.ReadAll(r.Body)
	r.Body.Close()
	form := url.Values{}
	for _, m := range regexp.MustCompile(`name="(SAMLResponse|RelayState)" value="([^"]*)"`).FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], html.UnescapeString(m[2]))
	}
	action := regexp.MustCompile(`action="([^"]+)"`).FindStringSubmatch(string(page))
	if form.Get("SAMLResponse") == "" || action == nil {
		s.t.Fatalf("the identity provider's answer has no response form: %d %s", r.StatusCode, page)
	}
	return samlResponse{acs: html.UnescapeString(action[1]), form: form, cookie: cookie}
}

// post sends the response to Bindery's assertion consumer, as the provider's page does
// (cross-site).
func (s *site) post(r samlResponse, cookie string) (*http.Response, string) {
	s.t.Helper()
	u, _ := url.Parse(r.acs)
	return s.call("POST", u.Path, r.form.Encode(), "Content-Type", "application/x-www-form-urlencoded", "Cookie", cookie,
		"Sec-Fetch-Site", "cross-site", "Origin", "null")
}

func (s *site) samlProvider(p *samlIdP, role string) string {
	s.t.Helper()
	body := `{"label":"Acme IdP","entityID":"` + p.MetadataURL.String() + `","ssoURL":"` + p.SSOURL.String() + `","defaultRole":"` + role +
		`","certificate":` + strings.ReplaceAll(`"`+strings.ReplaceAll(p.certPEM, "\n", `\n`)+`"`, "\t", "") + `}`
	resp, out := s.call("POST", "/v1/orgs/"+s.creds.OrganizationID+"/saml", body, "Authorization", "Bearer "+s.creds.Token)
	if resp.StatusCode != http.StatusCreated || !strings.Contains(out, `"status":"active"`) {
		s.t.Fatalf("create SAML provider: %d %s", resp.StatusCode, out)
	}
	return regexp.MustCompile(`"id":"([^"]+)"`).FindStringSubmatch(out)[1]
}

func TestSAMLSignInCreatesAMemberOfTheOrganization(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		idp := startSAMLIdP(t)
		id := s.samlProvider(idp, "edit")
		idp.signInAs("grace@corp.test", "Grace Hopper")
		resp, body := s.post(s.startSAML(idp, id), "")
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusBadRequest {
			// no flow cookie: refused before the response is even read
			t.Fatalf("a response without the flow cookie: %d %s", resp.StatusCode, body)
		}
		r := s.startSAML(idp, id)
		resp, body = s.post(r, r.cookie)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "signed in as grace@corp.test") {
			t.Fatalf("sign-in: %d %s", resp.StatusCode, body)
		}
		session := sessionCookie(t, resp)
		grace, err := s.res.Store.FindUserByEmail(context.Background(), "grace@corp.test")
		if err != nil || s.role(grace.ID) != "edit" || grace.EmailVerified || grace.DisplayName != "Grace Hopper" {
			t.Fatalf("the new member: %+v %v, role %q", grace, err, s.role(grace.ID))
		}
		if body := s.graphQL(session, `{ organization(id: "`+s.creds.OrganizationID+`") { title } }`); !strings.Contains(body, `"title":"Acme"`) {
			t.Fatalf("the session: %s", body)
		}
		// The same response again: its flow is spent.
		if resp, body := s.post(r, r.cookie); resp.StatusCode != http.StatusBadRequest || strings.Contains(resp.Header.Get("Set-Cookie"), "bdys_") {
			t.Fatalf("replayed response: %d %s", resp.StatusCode, body)
		}
		// A response to another browser's request.
		a, b := s.startSAML(idp, id), s.startSAML(idp, id)
		if resp, body := s.post(b, a.cookie); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("response to another request: %d %s", resp.StatusCode, body)
		}
		// A response whose assertion was changed after the provider signed it.
		r = s.startSAML(idp, id)
		raw, _ := base64.StdEncoding.DecodeString(r.form.Get("SAMLResponse"))
		r.form.Set("SAMLResponse", base64.StdEncoding.EncodeToString(bytes.ReplaceAll(raw, []byte("grace@corp.test"), []byte("admin@corp.test"))))
		if resp, body := s.post(r, r.cookie); resp.StatusCode != http.StatusUnauthorized || s.userExists("admin@corp.test") {
			t.Fatalf("tampered response: %d %s", resp.StatusCode, body)
		}
	})
}

func TestSAMLProviderCannotTakeOverAnExistingAccount(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		idp := startSAMLIdP(t)
		id := s.samlProvider(idp, "read")
		// The provider asserts Ada's address: without her session, nobody becomes Ada.
		idp.signInAs("ada@example.com", "Not Ada")
		r := s.startSAML(idp, id)
		resp, body := s.post(r, r.cookie)
		if resp.StatusCode != http.StatusForbidden || strings.Contains(resp.Header.Get("Set-Cookie"), "bdys_") || !strings.Contains(body, "sign in to it first") {
			t.Fatalf("takeover: %d %s", resp.StatusCode, body)
		}
		// Ada, signed in, links her account by signing in through the provider.
		ada := s.signIn()
		r = s.startSAML(idp, id, "Cookie", ada)
		resp, body = s.post(r, r.cookie)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "signed in as ada@example.com") {
			t.Fatalf("linking: %d %s", resp.StatusCode, body)
		}
		// From then on the provider's subject finds her.
		r = s.startSAML(idp, id)
		if resp, body := s.post(r, r.cookie); resp.StatusCode != http.StatusOK {
			t.Fatalf("linked sign-in: %d %s", resp.StatusCode, body)
		}
		if got := s.role(s.creds.UserID); got != "admin" {
			t.Fatalf("Ada's role changed to %q", got)
		}
	})
}

func TestSAMLSessionSatisfiesOnlyItsOrganizationsRequirement(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		idp := startSAMLIdP(t)
		id := s.samlProvider(idp, "read")
		// With an active provider, the organization may require single sign-on.
		if resp, body := s.call("PATCH", "/v1/orgs/"+s.creds.OrganizationID, `{"sso":true}`, "Authorization", "Bearer "+s.creds.Token); resp.StatusCode != http.StatusOK {
			t.Fatalf("require SSO: %d %s", resp.StatusCode, body)
		}
		idp.signInAs("lin@corp.test", "Lin")
		r := s.startSAML(idp, id)
		resp, _ := s.post(r, r.cookie)
		session := sessionCookie(t, resp)
		if body := s.graphQL(session, `{ organization(id: "`+s.creds.OrganizationID+`") { title } }`); !strings.Contains(body, `"title":"Acme"`) {
			t.Fatalf("SAML session in its SSO organization: %s", body)
		}
		if body := s.graphQL(s.signIn(), `{ organization(id: "`+s.creds.OrganizationID+`") { title } }`); !strings.Contains(body, "requires single sign-on") {
			t.Fatalf("password session in the SSO organization: %s", body)
		}
	})
}
