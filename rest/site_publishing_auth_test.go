package rest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

func TestSitePublishingAuth(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "members")
		o := p.o
		auth := p.path + "/publishing/auth"
		e.call(o.admin.Token, "PATCH", p.path, map[string]any{"visibility": "visitor-auth"}).want(http.StatusOK)

		var a struct {
			Object, Backend, PrivateKey string
			FallbackURL                 *string
		}
		e.call(o.admin.Token, "GET", auth, nil).want(http.StatusOK).decode(&a)
		if a.Object != "publishing-auth" || a.Backend != "custom" || len(a.PrivateKey) < 32 || a.FallbackURL != nil {
			t.Fatalf("auth = %+v", a)
		}
		key := a.PrivateKey
		// The key is generated once and kept.
		e.call(o.admin.Token, "GET", auth, nil).want(http.StatusOK).decode(&a)
		if a.PrivateKey != key {
			t.Error("reading the settings changed the key")
		}
		token := visitorToken(t, key, jwt.SigningMethodHS256, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()})
		e.read("/sites/members/installation", nil, "Cookie", "bindery_visitor_token="+token).want(http.StatusOK)

		// Without a token: 401 until there is a fallback URL, then sent there with the page asked for.
		e.read("/sites/members/installation", nil).want(http.StatusUnauthorized)
		e.call(o.admin.Token, "PATCH", auth, map[string]any{"backend": "custom", "fallbackURL": "https://login.acme.test/docs"}).want(http.StatusOK).decode(&a)
		if a.FallbackURL == nil || *a.FallbackURL != "https://login.acme.test/docs" {
			t.Errorf("fallback = %v", a.FallbackURL)
		}
		res := e.read("/sites/members/installation", nil).want(http.StatusFound)
		if loc := res.Header.Get("Location"); loc != "https://login.acme.test/docs?location=%2Finstallation" {
			t.Errorf("Location = %q", loc)
		}

		unchanged := e.snapshot(o.admin.Token, auth)
		e.wantBadBodies(o.admin.Token, "PATCH", auth,
			badBody{"no backend", map[string]any{"fallbackURL": "https://x.test"}, "backend"},
			badBody{"integration backend", map[string]any{"backend": "integration"}, "backend"},
			badBody{"script fallback", map[string]any{"backend": "custom", "fallbackURL": "javascript:alert(1)"}, "fallbackURL"},
		)
		unchanged("bad settings")

		// Regenerated: the old token is refused at once, a new one works.
		e.call(o.admin.Token, "POST", auth+"/regenerate", nil).want(http.StatusOK).decode(&a)
		if a.PrivateKey == key || a.PrivateKey == "" {
			t.Fatal("the key did not change")
		}
		e.read("/sites/members/installation", nil, "Cookie", "bindery_visitor_token="+token).want(http.StatusFound)
		fresh := visitorToken(t, a.PrivateKey, jwt.SigningMethodHS256, jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()})
		e.read("/sites/members/installation", nil, "Cookie", "bindery_visitor_token="+fresh).want(http.StatusOK)

		// GraphQL: the same settings; null removes the fallback.
		var g struct {
			UpdateSitePublishingAuth struct {
				PrivateKey  string
				FallbackURL *string
			}
		}
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!) { updateSitePublishingAuth(organizationId: $o, siteId: $s, input: {backend: "custom", fallbackURL: null}) { privateKey fallbackURL } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&g)
		if g.UpdateSitePublishingAuth.FallbackURL != nil || g.UpdateSitePublishingAuth.PrivateKey != a.PrivateKey {
			t.Errorf("GraphQL update = %+v", g.UpdateSitePublishingAuth)
		}
		e.read("/sites/members/installation", nil).want(http.StatusUnauthorized)
		e.wantInvalid("integration", o.admin, `mutation($o: ID!, $s: ID!) { updateSitePublishingAuth(organizationId: $o, siteId: $s, input: {backend: "integration"}) { privateKey } }`,
			map[string]any{"o": o.id, "s": p.site}, "backend")

		e.call(p.other.Token, "GET", auth, nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "POST", auth+"/regenerate", nil).wantError(http.StatusNotFound)
		reader := e.member(o.id, "reader@acme.test", "read")
		if msg := e.call(reader.Token, "GET", auth, nil).wantError(http.StatusForbidden); !strings.Contains(msg, "role") {
			t.Errorf("reader: %q", msg)
		}
	})
}
