package signin_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/internal/smtptest"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/signin"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler)) // the request log would drown the failures
	storagetest.Main(m)
}

const password = "a long and unusual passphrase"

// site is the whole server over a fresh database: an organization with an admin who has a
// password and an API token.
type site struct {
	t        *testing.T
	srv      *httptest.Server
	res      *domain.App
	accounts *account.Service
	now      time.Time
	creds    *domain.Credentials

	// What a test's configure function started for this database's server.
	provider *provider
	mailbox  *smtptest.Server
}

func eachDB(t *testing.T, cfg account.Config, fn func(t *testing.T, s *site)) {
	eachDBWith(t, cfg, nil, fn)
}

// eachDBWith is eachDB with the door's options adjusted by configure (before the server starts).
func eachDBWith(t *testing.T, cfg account.Config, configure func(t *testing.T, s *site, o *signin.Options), fn func(t *testing.T, s *site)) {
	storagetest.Each(t, func(t *testing.T, st *storage.Store) {
		s := &site{t: t, now: storagetest.T0}
		clock := func() time.Time { return s.now }
		s.res = &domain.App{Store: st, Now: clock}
		s.accounts = account.New(st, clock, cfg)
		s.res.Accounts = s.accounts
		ctx := s.res.WithRequestState(context.Background())
		creds, err := s.res.Bootstrap(ctx, domain.BootstrapInput{OrgTitle: "Acme", Email: "ada@example.com", Name: "Ada"})
		if err != nil {
			t.Fatal(err)
		}
		s.creds = creds
		if err := s.accounts.SetPassword(ctx, creds.UserID, password); err != nil {
			t.Fatal(err)
		}
		s.srv = httptest.NewUnstartedServer(nil)
		s.srv.Start()
		opts := signin.Options{PublicURL: s.srv.URL, Invites: s.res, SAML: s.res}
		if configure != nil {
			configure(t, s, &opts)
		}
		h, err := signin.New(s.accounts, opts)
		if err != nil {
			t.Fatal(err)
		}
		s.res.Settings.PublicURL = s.srv.URL
		// These tests send documents of their own with the cookie: the app's trusted-documents
		// rule is tested with the app (rest/app_test.go).
		s.srv.Config.Handler = rest.NewServerWith(s.res, doors.MountTrusting(s.res, rest.Options{Sessions: h}, nil))
		t.Cleanup(s.srv.Close)
		fn(t, s)
	})
}

// call makes a request; headers are name, value pairs.
func (s *site) call(method, path, body string, headers ...string) (*http.Response, string) {
	s.t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// signIn signs Ada in and returns the session cookie ("name=value").
func (s *site) signIn(headers ...string) string {
	s.t.Helper()
	resp, body := s.call("POST", "/auth/sign-in", `{"email":"ada@example.com","password":"`+password+`"}`, headers...)
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("sign-in: %d %s", resp.StatusCode, body)
	}
	return sessionCookie(s.t, resp)
}

func sessionCookie(t *testing.T, resp *http.Response) string {
	t.Helper()
	for _, c := range resp.Cookies() {
		if c.Name == signin.PlainCookieName || c.Name == signin.SecureCookieName {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatalf("no session cookie in %v", resp.Header["Set-Cookie"])
	return ""
}

// noRedirects answers redirects as they are, for the test to follow (or not).
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func gql(query string) string {
	b, _ := json.Marshal(map[string]string{"query": query})
	return string(b)
}

func TestSignInGivesACookieThatGraphQLAccepts(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		resp, body := s.call("POST", "/auth/sign-in", `{"email":"ada@example.com","password":"`+password+`"}`)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"email":"ada@example.com"`) {
			t.Fatalf("sign-in: %d %s", resp.StatusCode, body)
		}
		set := resp.Header.Get("Set-Cookie")
		for _, attr := range []string{"bindery_session=bdys_", "Path=/", "HttpOnly", "SameSite=Lax"} {
			if !strings.Contains(set, attr) {
				t.Errorf("Set-Cookie %q lacks %q", set, attr)
			}
		}
		if strings.Contains(set, "Secure") || strings.Contains(set, "Domain") {
			t.Errorf("Set-Cookie %q on an http server: want no Secure, no Domain", set)
		}
		cookie := sessionCookie(t, resp)
		if resp, body := s.call("GET", "/auth/whoami", "", "Cookie", cookie); resp.StatusCode != http.StatusOK || !strings.Contains(body, s.creds.UserID) {
			t.Fatalf("whoami: %d %s", resp.StatusCode, body)
		}
		resp, body = s.call("POST", "/graphql", gql(`{ viewer { id } organizations { nodes { id } } sessions { current } }`),
			"Cookie", cookie, "Sec-Fetch-Site", "same-origin")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, s.creds.UserID) || !strings.Contains(body, s.creds.OrganizationID) ||
			!strings.Contains(body, `"current":true`) || strings.Contains(body, `"errors"`) {
			t.Fatalf("graphql with the cookie: %d %s", resp.StatusCode, body)
		}
		// REST stays token-only.
		if resp, body := s.call("GET", "/v1/orgs", "", "Cookie", cookie); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("/v1 with a cookie: %d %s", resp.StatusCode, body)
		}
		if resp, body := s.call("GET", "/v1/orgs", "", "Authorization", "Bearer "+s.creds.Token); resp.StatusCode != http.StatusOK {
			t.Fatalf("/v1 with the token: %d %s", resp.StatusCode, body)
		}
	})
}

func TestSecureCookieOnHTTPS(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, st *storage.Store) {
		svc := account.New(st, func() time.Time { return storagetest.T0 }, account.Config{})
		ctx := context.Background()
		u, err := st.CreateUser(ctx, storage.NewUser{DisplayName: "Ada", Email: "ada@example.com"}, storagetest.T0)
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.SetPassword(ctx, u.ID, password); err != nil {
			t.Fatal(err)
		}
		h, err := signin.New(svc, signin.Options{PublicURL: "https://docs.example.com"})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", "/sign-in", strings.NewReader(`{"email":"ada@example.com","password":"`+password+`"}`))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		set := w.Header().Get("Set-Cookie")
		if w.Code != http.StatusOK || !strings.HasPrefix(set, "__Host-bindery_session=") || !strings.Contains(set, "; Secure") {
			t.Fatalf("sign-in on https: %d, Set-Cookie %q", w.Code, set)
		}
	})
}

func TestCrossOriginCookieRequestsRefused(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		cookie, victim := s.signIn(), s.signIn()
		// endOtherSessions would end the victim's session: a refused request must not.
		mutation := gql(`mutation { endOtherSessions }`)
		refused := []struct {
			name    string
			headers []string
		}{
			{"cross-site fetch", []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}},
			{"same-site but another origin", []string{"Sec-Fetch-Site", "same-site"}},
			{"forged Origin, old browser", []string{"Origin", "https://evil.example"}},
		}
		for _, tt := range refused {
			resp, body := s.call("POST", "/graphql", mutation, append([]string{"Cookie", cookie}, tt.headers...)...)
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "FORBIDDEN") {
				t.Errorf("%s: %d %s, want 403", tt.name, resp.StatusCode, body)
			}
		}
		if resp, body := s.call("GET", "/auth/whoami", "", "Cookie", victim); resp.StatusCode != http.StatusOK {
			t.Fatalf("a refused request changed state: %d %s", resp.StatusCode, body)
		}
		// Bearer tokens are not affected: a browser cannot send one from another site unasked.
		resp, body := s.call("POST", "/graphql", gql(`{ viewer { id } }`), "Authorization", "Bearer "+s.creds.Token, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		if resp.StatusCode != http.StatusOK || strings.Contains(body, "errors") {
			t.Fatalf("bearer token with cross-site headers: %d %s", resp.StatusCode, body)
		}
		for _, allowed := range [][]string{{"Sec-Fetch-Site", "same-origin", "Origin", s.srv.URL}, {}} {
			resp, body := s.call("POST", "/graphql", mutation, append([]string{"Cookie", cookie}, allowed...)...)
			if resp.StatusCode != http.StatusOK || strings.Contains(body, "errors") {
				t.Fatalf("same-origin or non-browser request %v: %d %s", allowed, resp.StatusCode, body)
			}
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", victim); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("the allowed request did not act: %d", resp.StatusCode)
		}
		// A read by GET is not state-changing: it passes from anywhere (the cookie is SameSite=Lax).
		if resp, body := s.call("GET", "/graphql?query="+strings.ReplaceAll("{ viewer { id } }", " ", "%20"), "", "Cookie", cookie, "Sec-Fetch-Site", "cross-site"); resp.StatusCode != http.StatusOK {
			t.Fatalf("GET query cross-site: %d %s", resp.StatusCode, body)
		}
		// A mutation by GET (what a link or a top-level navigation could send, cookie included) is
		// not run.
		victim2 := s.signIn()
		s.call("GET", "/graphql?query="+url.QueryEscape("mutation { endOtherSessions }"), "", "Cookie", cookie, "Sec-Fetch-Site", "cross-site")
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", victim2); resp.StatusCode != http.StatusOK {
			t.Fatal("a mutation sent by GET changed state")
		}
		s.call("POST", "/auth/sign-out", "", "Cookie", victim2)
		// Signing in and out from another site: refused too (login CSRF).
		for _, path := range []string{"/auth/sign-in", "/auth/sign-out", "/auth/password"} {
			resp, body := s.call("POST", path, `{"email":"ada@example.com","password":"`+password+`"}`, "Cookie", cookie, "Sec-Fetch-Site", "cross-site")
			if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":403`) {
				t.Errorf("%s cross-site: %d %s, want 403", path, resp.StatusCode, body)
			}
		}
		if list, _ := s.accounts.Sessions(context.Background(), s.creds.UserID); len(list) != 1 {
			t.Fatalf("sessions after refused requests: %d, want 1", len(list))
		}
	})
}

func TestSignOutEndsTheSessionForGood(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		cookie := s.signIn()
		resp, body := s.call("POST", "/auth/sign-out", "", "Cookie", cookie, "Sec-Fetch-Site", "same-origin")
		if resp.StatusCode != http.StatusNoContent || !strings.Contains(resp.Header.Get("Set-Cookie"), "Max-Age=0") {
			t.Fatalf("sign-out: %d %s %q", resp.StatusCode, body, resp.Header.Get("Set-Cookie"))
		}
		// The cookie replayed after sign-out: refused everywhere.
		if resp, body := s.call("GET", "/auth/whoami", "", "Cookie", cookie); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("whoami after sign-out: %d %s", resp.StatusCode, body)
		}
		resp, body = s.call("POST", "/graphql", gql(`{ viewer { id } }`), "Cookie", cookie)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "UNAUTHENTICATED") {
			t.Fatalf("graphql after sign-out: %d %s", resp.StatusCode, body)
		}
		// Signing out again, or without a cookie, is not an error.
		if resp, _ := s.call("POST", "/auth/sign-out", "", "Cookie", cookie); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("second sign-out: %d", resp.StatusCode)
		}
	})
}

func TestSignInChangesTheSessionID(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		planted := s.signIn() // an id an attacker got into the browser before the person signed in
		fresh := s.signIn("Cookie", planted)
		if fresh == planted {
			t.Fatal("sign-in kept the session id the browser presented")
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", planted); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("planted id after sign-in: %d, want 401", resp.StatusCode)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", fresh); resp.StatusCode != http.StatusOK {
			t.Fatalf("new id: %d", resp.StatusCode)
		}
		// A made-up id is not adopted either.
		made := signin.PlainCookieName + "=bdys_chosenbytheattacker0000000000000000000"
		again := s.signIn("Cookie", made)
		if again == made {
			t.Fatal("sign-in adopted a made-up session id")
		}
	})
}

func TestSignInRefusesBadInput(t *testing.T) {
	eachDB(t, account.Config{AccountFailures: 3, AddressFailures: 100}, func(t *testing.T, s *site) {
		tests := []struct {
			name, body, contentType string
			want                    int
		}{
			{"malformed JSON", `{"email":`, "application/json", http.StatusBadRequest},
			{"unknown field", `{"email":"ada@example.com","password":"x","admin":true}`, "application/json", http.StatusBadRequest},
			{"two values", `{"email":"a@b.c","password":"x"}{}`, "application/json", http.StatusBadRequest},
			{"not JSON", `email=ada@example.com`, "application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
			{"oversized", `{"email":"ada@example.com","password":"` + strings.Repeat("x", 20000) + `"}`, "application/json", http.StatusRequestEntityTooLarge},
			{"empty password", `{"email":"ada@example.com","password":""}`, "application/json", http.StatusBadRequest},
			{"wrong password", `{"email":"ada@example.com","password":"not the password"}`, "application/json", http.StatusUnauthorized},
			{"unknown e-mail", `{"email":"nobody@example.com","password":"not the password"}`, "application/json", http.StatusUnauthorized},
		}
		var unauthorized []string
		for _, tt := range tests {
			resp, body := s.call("POST", "/auth/sign-in", tt.body, "Content-Type", tt.contentType)
			if resp.StatusCode != tt.want || !strings.Contains(body, `"error":{"code":`) {
				t.Errorf("%s: %d %s, want %d", tt.name, resp.StatusCode, body, tt.want)
			}
			if resp.Header.Get("Set-Cookie") != "" {
				t.Errorf("%s: a cookie was set", tt.name)
			}
			if tt.want == http.StatusUnauthorized {
				unauthorized = append(unauthorized, body)
			}
		}
		if unauthorized[0] != unauthorized[1] {
			t.Errorf("a wrong password and an unknown e-mail answer differently: %q", unauthorized)
		}
		if list, _ := s.accounts.Sessions(context.Background(), s.creds.UserID); len(list) != 0 {
			t.Fatalf("refused sign-ins opened %d sessions", len(list))
		}
		// One failure so far on Ada's account: two more, then the limit answers 429.
		for i := 0; i < 2; i++ {
			s.call("POST", "/auth/sign-in", `{"email":"ada@example.com","password":"still not it"}`)
		}
		resp, body := s.call("POST", "/auth/sign-in", `{"email":"ada@example.com","password":"`+password+`"}`)
		if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("past the account's failure limit: %d %s (Retry-After %q)", resp.StatusCode, body, resp.Header.Get("Retry-After"))
		}
	})
}

func TestSessionsThroughGraphQL(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		here := s.signIn("User-Agent", "here")
		there := s.signIn("User-Agent", "there")
		post := func(cookie, query string) string {
			resp, body := s.call("POST", "/graphql", gql(query), "Cookie", cookie)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d %s", query, resp.StatusCode, body)
			}
			return body
		}
		var list struct {
			Data struct {
				Sessions []struct {
					ID        string
					UserAgent string
					Current   bool
				}
			}
		}
		if err := json.Unmarshal([]byte(post(here, `{ sessions { id userAgent current } }`)), &list); err != nil {
			t.Fatal(err)
		}
		if len(list.Data.Sessions) != 2 {
			t.Fatalf("sessions = %+v, want 2", list.Data.Sessions)
		}
		var thereID string
		for _, se := range list.Data.Sessions {
			if se.Current != (se.UserAgent == "here") {
				t.Fatalf("current is wrong: %+v", se)
			}
			if se.UserAgent == "there" {
				thereID = se.ID
			}
		}
		// Another user cannot end Ada's session, nor learn whether it exists.
		ctx := s.res.WithRequestState(context.Background())
		other, err := s.res.CreateUser(ctx, domain.CreateUserInput{Email: "eve@example.com", Name: "Eve"})
		if err != nil {
			t.Fatal(err)
		}
		resp, body := s.call("POST", "/graphql", gql(`mutation { endSession(id: "`+thereID+`") }`), "Authorization", "Bearer "+other.Token)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, "NOT_FOUND") {
			t.Fatalf("another user's endSession: %d %s", resp.StatusCode, body)
		}
		if body := post(here, `mutation { endSession(id: "`+thereID+`") }`); !strings.Contains(body, `"endSession":true`) {
			t.Fatalf("endSession: %s", body)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", there); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("ended session: %d", resp.StatusCode)
		}
		third := s.signIn()
		if body := post(here, `mutation { endOtherSessions }`); !strings.Contains(body, `"endOtherSessions":1`) {
			t.Fatalf("endOtherSessions: %s", body)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", third); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("other session after endOtherSessions: %d", resp.StatusCode)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", here); resp.StatusCode != http.StatusOK {
			t.Fatalf("current session after endOtherSessions: %d", resp.StatusCode)
		}
	})
}

func TestChangePasswordEndsOtherSessions(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		here, there := s.signIn(), s.signIn()
		change := func(current, next string) (*http.Response, string) {
			b, _ := json.Marshal(map[string]string{"currentPassword": current, "newPassword": next})
			return s.call("POST", "/auth/password", string(b), "Cookie", here)
		}
		if resp, body := change("wrong current one", "another fine passphrase"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong current password: %d %s", resp.StatusCode, body)
		}
		if resp, body := change(password, "short"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "at least 12") {
			t.Fatalf("weak password: %d %s", resp.StatusCode, body)
		}
		if resp, body := change(password, "password1234"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "too common") {
			t.Fatalf("common password: %d %s", resp.StatusCode, body)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", there); resp.StatusCode != http.StatusOK {
			t.Fatal("a refused change ended a session")
		}
		if resp, body := change(password, "another fine passphrase"); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("change: %d %s", resp.StatusCode, body)
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", there); resp.StatusCode != http.StatusUnauthorized {
			t.Fatal("another session survived the password change")
		}
		if resp, _ := s.call("GET", "/auth/whoami", "", "Cookie", here); resp.StatusCode != http.StatusOK {
			t.Fatal("the session that changed the password ended")
		}
		if resp, _ := s.call("POST", "/auth/password", `{"currentPassword":"x","newPassword":"y"}`); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("password change without a session: %d", resp.StatusCode)
		}
	})
}

// Sessions belong to the person; what they see follows their memberships, checked on every
// request: a member removed from an organization no longer sees it through their cookie.
func TestRemovedMemberLosesTheOrganization(t *testing.T) {
	eachDB(t, account.Config{}, func(t *testing.T, s *site) {
		ctx := s.res.WithRequestState(context.Background())
		bob, err := s.res.CreateUser(ctx, domain.CreateUserInput{Email: "bob@example.com", Name: "Bob", OrganizationID: s.creds.OrganizationID, Role: "edit"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.accounts.SetPassword(ctx, bob.UserID, "bob's own long passphrase"); err != nil {
			t.Fatal(err)
		}
		resp, body := s.call("POST", "/auth/sign-in", `{"email":"bob@example.com","password":"bob's own long passphrase"}`)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("sign-in: %d %s", resp.StatusCode, body)
		}
		cookie := sessionCookie(t, resp)
		query := gql(`{ organization(id: "` + s.creds.OrganizationID + `") { id } }`)
		if _, body := s.call("POST", "/graphql", query, "Cookie", cookie); !strings.Contains(body, `"id":"`+s.creds.OrganizationID+`"`) {
			t.Fatalf("member's view: %s", body)
		}
		resp, body = s.call("DELETE", "/v1/orgs/"+s.creds.OrganizationID+"/members/"+bob.UserID, "", "Authorization", "Bearer "+s.creds.Token)
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("remove member: %d %s", resp.StatusCode, body)
		}
		if _, body := s.call("POST", "/graphql", query, "Cookie", cookie); strings.Contains(body, `"id":"`+s.creds.OrganizationID+`"`) {
			t.Fatalf("removed member still sees the organization: %s", body)
		}
	})
}
