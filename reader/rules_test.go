package reader

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/go-chi/chi/v5"
)

// Direct tests of the reader's rules about visitors' credentials, caching and errors: no graph
// query runs (bench/results/2026-11-28-deliberate-breaks.md lists the breaks they catch).

// siteRequest is a request for a page of site name, with chi's route parameter set.
func siteRequest(name, target string) *http.Request {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	rctx := chi.NewRouteContext()
	rctx.URLParams.Add("name", name)
	return req.WithContext(context.WithValue(req.Context(), chi.RouteCtxKey, rctx))
}

// Credentials given in a URL are moved into HttpOnly cookies scoped to the site, and the visitor
// is sent to the URL without them (nothing of them left in links, logs or history).
func TestTakeCredentialsMovesThemIntoCookies(t *testing.T) {
	rec := httptest.NewRecorder()
	req := siteRequest("docs", "/sites/docs/guide?share=s3cret&jwt_token=tok&visitor.plan=pro&visitor.beta=true&visitor.seats=3&page=2")
	if !takeCredentials(rec, req) {
		t.Fatal("credentials in the URL were not taken")
	}
	if rec.Code != http.StatusFound || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("answer %d, Cache-Control %q; want 302, no-store", rec.Code, rec.Header().Get("Cache-Control"))
	}
	loc, err := url.Parse(rec.Header().Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Path != "/sites/docs/guide" || loc.RawQuery != "page=2" {
		t.Errorf("redirect to %s, want /sites/docs/guide?page=2", loc)
	}
	cookies := map[string]*http.Cookie{}
	for _, c := range rec.Result().Cookies() {
		cookies[c.Name] = c
		if !c.HttpOnly || c.Path != "/sites/docs/" || c.SameSite != http.SameSiteLaxMode {
			t.Errorf("cookie %s: HttpOnly %v, Path %q, SameSite %v; want HttpOnly, /sites/docs/, Lax", c.Name, c.HttpOnly, c.Path, c.SameSite)
		}
	}
	if cookies[shareCookie] == nil || cookies[shareCookie].Value != "s3cret" || cookies[tokenCookie] == nil || cookies[tokenCookie].Value != "tok" {
		t.Fatalf("cookies = %v", cookies)
	}

	// The next request reads them back as the visitor.
	next := siteRequest("docs", "/sites/docs/guide?page=2")
	for _, c := range rec.Result().Cookies() {
		next.AddCookie(c)
	}
	v := visitor(next)
	var claims map[string]any
	_ = json.Unmarshal(v.Claims, &claims)
	if deref(v.ShareKey) != "s3cret" || deref(v.Token) != "tok" || claims["plan"] != "pro" || claims["beta"] != true || claims["seats"] != 3.0 {
		t.Errorf("visitor = share %q, token %q, claims %s", deref(v.ShareKey), deref(v.Token), v.Claims)
	}

	if takeCredentials(httptest.NewRecorder(), siteRequest("docs", "/sites/docs/guide?page=2&visitor.=x")) {
		t.Error("a URL without credentials was redirected")
	}
}

// A claims cookie that is not base64 JSON is ignored, never an error.
func TestVisitorIgnoresBadClaims(t *testing.T) {
	for _, value := range []string{"%%%", base64.RawURLEncoding.EncodeToString([]byte("{not json"))} {
		req := siteRequest("docs", "/sites/docs/")
		req.AddCookie(&http.Cookie{Name: claimsCookie, Value: value})
		if in := visitor(req); in.Claims != nil {
			t.Errorf("claims cookie %q read as %s", value, in.Claims)
		}
	}
}

func TestClaimValue(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want any
	}{{"true", true}, {"false", false}, {"3", 3.0}, {"-1.5", -1.5}, {"pro", "pro"}, {"null", "null"}, {`{"a":1}`, `{"a":1}`}, {`"x"`, `"x"`}} {
		if got := claimValue(tt.in); got != tt.want {
			t.Errorf("claimValue(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestNotModified(t *testing.T) {
	tag := etag("rev1", map[string]int{"a": 1})
	if tag == etag("rev1", map[string]int{"a": 2}) || tag == etag("rev2", map[string]int{"a": 1}) {
		t.Error("the ETag does not change with the revision or the data")
	}
	for _, tt := range []struct {
		header string
		want   bool
	}{{tag, true}, {"W/" + tag, true}, {`"other", ` + tag, true}, {"*", true}, {"", false}, {`"other"`, false}, {strings.Trim(tag, `"`), false}} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set("If-None-Match", tt.header)
		if got := notModified(rec, req, tag); got != tt.want || (got && rec.Code != http.StatusNotModified) || rec.Header().Get("ETag") != tag {
			t.Errorf("If-None-Match %q: notModified %v (status %d), want %v", tt.header, got, rec.Code, tt.want)
		}
	}
}

// A site that needs credentials is private to its visitor: never cached by shared caches, never
// indexed; a public one is. Both carry the content security policy.
func TestHeadersByVisibility(t *testing.T) {
	for _, indexable := range []bool{true, false} {
		rec := httptest.NewRecorder()
		headers(rec, indexable)
		h := rec.Header()
		private := strings.Contains(h.Get("Cache-Control"), "private") && h.Get("X-Robots-Tag") == "noindex"
		if private == indexable || strings.Contains(h.Get("Cache-Control"), "public") != indexable {
			t.Errorf("indexable %v: Cache-Control %q, X-Robots-Tag %q", indexable, h.Get("Cache-Control"), h.Get("X-Robots-Tag"))
		}
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Vary") != "Cookie" {
			t.Errorf("indexable %v: headers %v", indexable, h)
		}
	}
}

// The domain's errors map to statuses: bad input is a 400, never a 500, even wrapped.
func TestFailStatuses(t *testing.T) {
	h := New(&domain.App{})
	for _, tt := range []struct {
		err  error
		want int
	}{
		{apperr.NotFoundf("no site"), http.StatusNotFound},
		{&apperr.Error{Kind: apperr.Unauthenticated, Msg: "token"}, http.StatusUnauthorized},
		{apperr.Invalidf("query", "query too long"), http.StatusBadRequest},
		{fmt.Errorf("search: %w", apperr.Invalidf("query", "query too long")), http.StatusBadRequest},
		{errors.New("boom"), http.StatusInternalServerError},
	} {
		rec := httptest.NewRecorder()
		h.fail(rec, siteRequest("docs", "/sites/docs/"), tt.err)
		if rec.Code != tt.want {
			t.Errorf("fail(%v) = %d, want %d", tt.err, rec.Code, tt.want)
		}
		if tt.want == http.StatusBadRequest && !strings.Contains(rec.Body.String(), "query too long") {
			t.Errorf("fail(%v) does not say why", tt.err)
		}
		if tt.want == http.StatusInternalServerError && strings.Contains(rec.Body.String(), "boom") {
			t.Errorf("fail(%v) shows the internal error", tt.err)
		}
	}
}
