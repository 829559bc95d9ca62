package signin_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/signin"
	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"
)

// provider is an in-process OpenID Connect provider; wrongAudience makes its token endpoint
// answer an ID token minted for another client.
type provider struct {
	*mockoidc.MockOIDC
	wrongAudience atomic.Bool
}

func startProvider(t *testing.T) *provider {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	p := &provider{MockOIDC: m}
	if err := m.AddMiddleware(p.swapAudience); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Shutdown() }) //nolint:errcheck
	return p
}

func (p *provider) swapAudience(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != mockoidc.TokenEndpoint || !p.wrongAudience.Load() {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var body map[string]any
		json.Unmarshal(rec.Body.Bytes(), &body) //nolint:errcheck
		if raw, ok := body["id_token"].(string); ok {
			claims := jwt.MapClaims{}
			if _, _, err := jwt.NewParser().ParseUnverified(raw, claims); err == nil {
				claims["aud"] = []string{"another-client"}
				body["id_token"], _ = p.Keypair.SignJWT(claims)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rec.Code)
		json.NewEncoder(w).Encode(body) //nolint:errcheck
	})
}

func withOIDC(t *testing.T, s *site, o *signin.Options) {
	{
		s.provider = startProvider(t)
		cfg := s.provider.Config()
		var err error
		o.OIDC, err = signin.NewOIDC(context.Background(), signin.OIDCConfig{Issuer: cfg.Issuer, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, Name: "Mock", Scopes: []string{"groups"}})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// ssoFlow is one round trip through the provider: the callback's URL (path and query) and the
// flow cookie, not yet presented to Bindery.
type ssoFlow struct{ callback, cookie string }

func (s *site) startSSO(p *provider, user *mockoidc.MockUser, query string) ssoFlow {
	s.t.Helper()
	resp, body := s.call("GET", "/auth/oidc/start"+query, "")
	if resp.StatusCode != http.StatusFound {
		s.t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	var cookie string
	for _, c := range resp.Cookies() {
		if c.Name == "bindery_oidc" {
			cookie = c.Name + "=" + c.Value
		}
	}
	authorize := resp.Header.Get("Location")
	if q, _ := url.Parse(authorize); q.Query().Get("code_challenge_method") != "S256" || q.Query().Get("nonce") == "" || q.Query().Get("state") == "" {
		s.t.Fatalf("authorize URL lacks PKCE, nonce or state: %s", authorize)
	}
	p.QueueUser(user)
	resp, err := noRedirects.Get(authorize)
	if err != nil {
		s.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body) //nolint:errcheck
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound || back.Path != "/auth/oidc/callback" {
		s.t.Fatalf("provider's redirect: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return ssoFlow{callback: back.RequestURI(), cookie: cookie}
}

func (s *site) finishSSO(f ssoFlow) (*http.Response, string) {
	s.t.Helper()
	return s.call("GET", f.callback, "", "Cookie", f.cookie)
}

func (s *site) userExists(email string) bool {
	_, err := s.res.Store.FindUserByEmail(context.Background(), email)
	return err == nil
}

func TestOIDCSignsInExistingAndAllowedPeople(t *testing.T) {
	eachDBWith(t, account.Config{}, withOIDC, func(t *testing.T, s *site) {
		p := s.provider
		// Ada has an account: the provider vouching for her address signs her in.
		resp, body := s.finishSSO(s.startSSO(p, &mockoidc.MockUser{Subject: "ada", Email: "ada@example.com", EmailVerified: true}, ""))
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "signed in as ada@example.com") {
			t.Fatalf("existing account: %d %s", resp.StatusCode, body)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", sessionCookie(t, resp)); resp.StatusCode != http.StatusOK {
			t.Fatal("the SSO session does not work")
		}
		// A stranger: no account, no invite, no open e-mail domain. Refused, nothing created.
		resp, body = s.finishSSO(s.startSSO(p, &mockoidc.MockUser{Subject: "x", Email: "stranger@elsewhere.test", EmailVerified: true}, ""))
		if resp.StatusCode != http.StatusForbidden || s.userExists("stranger@elsewhere.test") || resp.Header.Get("Set-Cookie") == "" {
			t.Fatalf("stranger: %d %s", resp.StatusCode, body)
		}
		// An unverified address is refused.
		resp, body = s.finishSSO(s.startSSO(p, &mockoidc.MockUser{Subject: "u", Email: "ada@example.com"}, ""))
		if resp.StatusCode != http.StatusForbidden || strings.Contains(resp.Header.Get("Set-Cookie"), "bindery_session=bdys_") {
			t.Fatalf("unverified e-mail: %d %s", resp.StatusCode, body)
		}
		// The organization's e-mail domain lets a newcomer in, with its default role.
		if resp, body := s.call("PATCH", "/v1/orgs/"+s.creds.OrganizationID, `{"emailDomains":["acme.test"],"defaultRole":"review"}`, "Authorization", "Bearer "+s.creds.Token); resp.StatusCode != http.StatusOK {
			t.Fatalf("set e-mail domain: %d %s", resp.StatusCode, body)
		}
		resp, body = s.finishSSO(s.startSSO(p, &mockoidc.MockUser{Subject: "dee", Email: "dee@acme.test", EmailVerified: true}, ""))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("newcomer by domain: %d %s", resp.StatusCode, body)
		}
		dee, err := s.res.Store.FindUserByEmail(context.Background(), "dee@acme.test")
		if err != nil || s.role(dee.ID) != "review" || !dee.EmailVerified {
			t.Fatalf("newcomer by domain: %v, role %q", err, s.role(dee.ID))
		}
		// An invite lets a newcomer of any domain in, with the link's role.
		link := s.inviteLink("comment")
		ids := strings.TrimPrefix(link, "/auth/invite/")
		resp, body = s.finishSSO(s.startSSO(p, &mockoidc.MockUser{Subject: "eli", Email: "eli@other.test", EmailVerified: true}, "?invite="+url.QueryEscape(ids)))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("newcomer by invite: %d %s", resp.StatusCode, body)
		}
		eli, err := s.res.Store.FindUserByEmail(context.Background(), "eli@other.test")
		if err != nil || s.role(eli.ID) != "comment" {
			t.Fatalf("newcomer by invite: %v, role %q", err, s.role(eli.ID))
		}
		// The invite page offers single sign-on, carrying the invite.
		if _, body := s.call("GET", link, ""); !strings.Contains(body, "/auth/oidc/start?invite=") || !strings.Contains(body, "Sign in with Mock") {
			t.Fatalf("invite page without SSO: %s", body)
		}
	})
}

func TestOIDCRefusesForgedAndReplayedCallbacks(t *testing.T) {
	eachDBWith(t, account.Config{}, withOIDC, func(t *testing.T, s *site) {
		p := s.provider
		ada := &mockoidc.MockUser{Subject: "ada", Email: "ada@example.com", EmailVerified: true}
		sessions := func() int {
			list, _ := s.accounts.Sessions(context.Background(), s.creds.UserID)
			return len(list)
		}
		refused := func(name string, resp *http.Response, body string, want int) {
			t.Helper()
			if resp.StatusCode != want || strings.Contains(resp.Header.Get("Set-Cookie"), "bdys_") {
				t.Errorf("%s: %d %s, want %d and no session", name, resp.StatusCode, body, want)
			}
		}
		// A callback whose state is not the browser's (login CSRF, or a forged link).
		f := s.startSSO(p, ada, "")
		forged := strings.Replace(f.callback, "state=", "state=x", 1)
		resp, body := s.call("GET", forged, "", "Cookie", f.cookie)
		refused("forged state", resp, body, http.StatusBadRequest)
		// The same callback in a browser that never started a sign-in.
		f = s.startSSO(p, ada, "")
		resp, body = s.call("GET", f.callback, "")
		refused("no flow cookie", resp, body, http.StatusBadRequest)
		// Another browser's flow cookie with this callback.
		other := s.startSSO(p, ada, "")
		resp, body = s.call("GET", f.callback, "", "Cookie", other.cookie)
		refused("another flow's cookie", resp, body, http.StatusBadRequest)
		// A replayed code: the first use signs in, the second is refused.
		f = s.startSSO(p, ada, "")
		if resp, body := s.finishSSO(f); resp.StatusCode != http.StatusOK {
			t.Fatalf("first use: %d %s", resp.StatusCode, body)
		}
		before := sessions()
		resp, body = s.finishSSO(f)
		refused("replayed code", resp, body, http.StatusBadRequest)
		// An ID token minted for another client.
		p.wrongAudience.Store(true)
		resp, body = s.finishSSO(s.startSSO(p, ada, ""))
		p.wrongAudience.Store(false)
		refused("wrong audience", resp, body, http.StatusUnauthorized)
		// A provider's error, and malformed starts.
		f = s.startSSO(p, ada, "")
		u, _ := url.Parse(f.callback)
		q := u.Query()
		q.Del("code")
		q.Set("error", "access_denied")
		resp, body = s.call("GET", u.Path+"?"+q.Encode(), "", "Cookie", f.cookie)
		refused("provider error", resp, body, http.StatusBadRequest)
		if resp, body := s.call("GET", "/auth/oidc/start?invite=nonsense", ""); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("malformed invite: %d %s", resp.StatusCode, body)
		}
		if n := sessions(); n != before {
			t.Fatalf("refused callbacks opened sessions: %d, want %d", n, before)
		}
	})
}
