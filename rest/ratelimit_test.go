package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/go-chi/httprate"
)

// from sends a request to h as token, from the client address addr (h trusts the test's peer,
// 192.0.2.1, as a proxy, so X-Forwarded-For names the client).
func from(h http.Handler, addr, token, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("X-Forwarded-For", addr)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

const userQuery = `{"query":"{ viewer { id } }"}`

// wantRateHeaders fails unless rec carries the X-RateLimit-* headers of a limit of max.
func wantRateHeaders(t *testing.T, rec *httptest.ResponseRecorder, max int) int {
	t.Helper()
	if got := rec.Header().Get("X-RateLimit-Limit"); got != strconv.Itoa(max) {
		t.Fatalf("X-RateLimit-Limit = %q, want %d (status %d, body %s)", got, max, rec.Code, rec.Body)
	}
	remaining, err := strconv.Atoi(rec.Header().Get("X-RateLimit-Remaining"))
	if err != nil || remaining < 0 || remaining > max {
		t.Fatalf("X-RateLimit-Remaining = %q, want 0..%d", rec.Header().Get("X-RateLimit-Remaining"), max)
	}
	reset, err := strconv.ParseInt(rec.Header().Get("X-RateLimit-Reset"), 10, 64)
	if now := time.Now().Unix(); err != nil || reset < now || reset > now+61 {
		t.Fatalf("X-RateLimit-Reset = %q, want a time within the next minute", rec.Header().Get("X-RateLimit-Reset"))
	}
	return remaining
}

// want429 fails unless rec is a 429 with Retry-After, in the door's error shape.
func want429(t *testing.T, rec *httptest.ResponseRecorder, graphQL bool) {
	t.Helper()
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("status = %d, want 429; body %s", rec.Code, rec.Body)
	}
	// Up to the end of the window and part of the next, where the window's requests still weigh.
	if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 || s > 120 {
		t.Fatalf("Retry-After = %q, want 1..120 seconds", rec.Header().Get("Retry-After"))
	}
	reset, err := strconv.ParseInt(rec.Header().Get("X-RateLimit-Reset"), 10, 64)
	if now := time.Now().Unix(); err != nil || reset < now || reset > now+121 {
		t.Fatalf("X-RateLimit-Reset = %q on a 429, want when Retry-After ends", rec.Header().Get("X-RateLimit-Reset"))
	}
	if rec.Header().Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("X-RateLimit-Remaining = %q on a 429, want 0", rec.Header().Get("X-RateLimit-Remaining"))
	}
	if graphQL {
		var body struct {
			Errors []struct {
				Message    string         `json:"message"`
				Extensions map[string]any `json:"extensions"`
			} `json:"errors"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || len(body.Errors) != 1 || body.Errors[0].Extensions["code"] != "RATE_LIMITED" || body.Errors[0].Message == "" {
			t.Fatalf("GraphQL 429 body = %s, want one RATE_LIMITED error", rec.Body)
		}
		return
	}
	var body struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error.Code != 429 || body.Error.Message == "" {
		t.Fatalf("429 body = %s, want the contract's error shape with code 429", rec.Body)
	}
}

// Every answer of both doors carries the X-RateLimit-* headers of the limit it counted against:
// the token's, the address's without a token, the failures' for a token that does not work.
func TestRateLimitHeaders(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		_, admin := e.org("Acme", "ada@acme.test")
		const max = 1 << 30
		for _, tt := range []struct {
			name, token, method, path, body string
			status                          int
		}{
			{"REST", admin.Token, "GET", "/v1/user", "", 200},
			{"REST error", admin.Token, "GET", "/v1/spaces/nope", "", 404},
			{"GraphQL", admin.Token, "POST", "/graphql", userQuery, 200},
			{"REST without a token", "", "GET", "/v1/user", "", 401},
			{"GraphQL without a token", "", "POST", "/graphql", userQuery, 401},
			{"REST with a wrong token", "bdy_wrong", "GET", "/v1/user", "", 401},
			{"GraphQL with a wrong token", "bdy_wrong", "POST", "/graphql", userQuery, 401},
		} {
			t.Run(tt.name, func(t *testing.T) {
				rec := from(e.h, "198.51.100.1", tt.token, tt.method, tt.path, tt.body)
				if rec.Code != tt.status {
					t.Fatalf("status = %d, want %d; body %s", rec.Code, tt.status, rec.Body)
				}
				wantRateHeaders(t, rec, max)
			})
		}
	})
}

// A token, an address without a token, an address sending tokens that do not work, and one token
// that does not work each get 429 with Retry-After past their limit, through both doors; a
// failed-authentication flood from one address never refuses a valid token, from that address or
// any other.
func TestRateLimits(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "ada@acme.test")
		other := e.member(orgID, "bob@acme.test", "read")
		third := e.member(orgID, "cy@acme.test", "read")
		limits := rest.RateLimits{Token: 4, Address: 3, AuthFailures: 2, Window: time.Minute}
		h := rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{RateLimits: &limits, TrustedProxies: []string{"192.0.2.0/24"}}))

		t.Run("token", func(t *testing.T) {
			for i := range 4 {
				rec := from(h, "198.51.100.1", admin.Token, "GET", "/v1/user", "")
				if rec.Code != 200 {
					t.Fatalf("request %d: status %d, want 200", i+1, rec.Code)
				}
				if remaining := wantRateHeaders(t, rec, 4); i == 0 && remaining != 3 {
					t.Fatalf("first request: X-RateLimit-Remaining = %d, want 3", remaining)
				}
			}
			// The limit is the token's, whichever door and address it comes through.
			want429(t, from(h, "198.51.100.2", admin.Token, "GET", "/v1/user", ""), false)
			want429(t, from(h, "198.51.100.2", admin.Token, "POST", "/graphql", userQuery), true)
			// Another token is not limited by it.
			if rec := from(h, "198.51.100.1", other.Token, "POST", "/graphql", userQuery); rec.Code != 200 {
				t.Fatalf("another token: status %d, want 200; body %s", rec.Code, rec.Body)
			}
		})

		t.Run("address without a token", func(t *testing.T) {
			for range 3 {
				rec := from(h, "198.51.100.3", "", "GET", "/v1/user", "")
				if rec.Code != 401 {
					t.Fatalf("status %d, want 401", rec.Code)
				}
				wantRateHeaders(t, rec, 3)
			}
			want429(t, from(h, "198.51.100.3", "", "GET", "/v1/user", ""), false)
			want429(t, from(h, "198.51.100.3", "", "POST", "/graphql", userQuery), true)
			// Another address is not.
			if rec := from(h, "198.51.100.4", "", "GET", "/v1/user", ""); rec.Code != 401 {
				t.Fatalf("another address: status %d, want 401", rec.Code)
			}
		})

		t.Run("failed authentication", func(t *testing.T) {
			const attacker, neighbour, elsewhere = "203.0.113.5", "203.0.113.6", "203.0.113.7"
			for _, token := range []string{"bdy_wrong1", "bdy_wrong2"} {
				rec := from(h, attacker, token, "GET", "/v1/user", "")
				if rec.Code != 401 {
					t.Fatalf("wrong token: status %d, want 401", rec.Code)
				}
				wantRateHeaders(t, rec, 2)
			}
			// Past the address's limit, its failures are answered 429 through both doors…
			want429(t, from(h, attacker, "bdy_wrong3", "GET", "/v1/user", ""), false)
			want429(t, from(h, attacker, "bdy_wrong4", "POST", "/graphql", userQuery), true)
			// …but a valid token from the same address (a colleague behind the same NAT) works.
			for _, door := range []struct{ method, path, body string }{{"GET", "/v1/user", ""}, {"POST", "/graphql", userQuery}} {
				if rec := from(h, attacker, third.Token, door.method, door.path, door.body); rec.Code != 200 {
					t.Fatalf("valid token from the failing address (%s): status %d, want 200; body %s", door.path, rec.Code, rec.Body)
				}
			}
			// Another address's valid token works, and so does its own wrong one (2 allowed).
			if rec := from(h, neighbour, third.Token, "GET", "/v1/user", ""); rec.Code != 200 {
				t.Fatalf("valid token from another address: status %d, want 200; body %s", rec.Code, rec.Body)
			}
			if rec := from(h, neighbour, "bdy_wrong5", "GET", "/v1/user", ""); rec.Code != 401 {
				t.Fatalf("wrong token from another address: status %d, want 401", rec.Code)
			}
			// One wrong token is limited wherever it comes from: bdy_wrong5 failed once at the
			// neighbour; once more elsewhere, then it is refused before it is looked up.
			if rec := from(h, elsewhere, "bdy_wrong5", "GET", "/v1/user", ""); rec.Code != 401 {
				t.Fatalf("the same wrong token from a third address: status %d, want 401", rec.Code)
			}
			want429(t, from(h, "203.0.113.8", "bdy_wrong5", "GET", "/v1/user", ""), false)
		})

		t.Run("X-Forwarded-For from an untrusted peer is ignored", func(t *testing.T) {
			untrusted := rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{RateLimits: &limits}))
			for i := range 3 {
				// Each request claims another address; all come from the same peer.
				rec := from(untrusted, "198.51.100."+strconv.Itoa(10+i), "", "GET", "/v1/user", "")
				if rec.Code != 401 {
					t.Fatalf("status %d, want 401", rec.Code)
				}
			}
			want429(t, from(untrusted, "198.51.100.99", "", "GET", "/v1/user", ""), false)
		})
	})
}

// With the database store, two servers on the same database share one count per token.
func TestRateLimitSharedStore(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := storagetest.DSN(t, d)
			server := func() (*domain.App, http.Handler) {
				s := storagetest.OpenAt(t, dsn, storage.WithMaxConns(2))
				res := &domain.App{Store: s, Now: func() time.Time { return time.Now().UTC() }}
				limits := rest.RateLimits{Token: 4, Window: time.Minute, Counter: func() httprate.LimitCounter { return s.RateCounter() }}
				return res, rest.NewServerWith(res, doors.Mount(res, rest.Options{RateLimits: &limits}))
			}
			res, a := server()
			_, b := server()
			creds, err := res.Bootstrap(ctx, domain.BootstrapInput{OrgTitle: "Acme", Email: "ada@acme.test", Name: "Ada"})
			if err != nil {
				t.Fatal(err)
			}
			for i, h := range []http.Handler{a, b, a, b} {
				rec := from(h, "198.51.100.1", creds.Token, "GET", "/v1/user", "")
				if rec.Code != 200 {
					t.Fatalf("request %d: status %d, want 200; body %s", i+1, rec.Code, rec.Body)
				}
				if remaining := wantRateHeaders(t, rec, 4); i == 1 && remaining > 2 {
					t.Fatalf("second request, on the other server: X-RateLimit-Remaining = %d, want at most 2", remaining)
				}
			}
			want429(t, from(a, "198.51.100.1", creds.Token, "GET", "/v1/user", ""), false)
			want429(t, from(b, "198.51.100.1", creds.Token, "POST", "/graphql", userQuery), true)

			// The periodic purge keeps the counts a window may still read.
			if err := res.PurgeExpired(ctx); err != nil {
				t.Fatal(err)
			}
			want429(t, from(b, "198.51.100.1", creds.Token, "GET", "/v1/user", ""), false)
		})
	}
}

// When the shared store of counts fails (the database unreachable), requests are let through
// rather than all refused: the request reports its own failure if it needs the database.
func TestRateLimitsFailOpen(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		_, admin := e.org("Acme", "ada@acme.test")
		broken, err := storage.Open(context.Background(), storagetest.DSN(t, e.store.Dialect()), storage.WithMaxConns(1))
		if err != nil {
			t.Fatal(err)
		}
		broken.Close() // every statement of its counter now fails
		limits := rest.RateLimits{Token: 1, Address: 1, AuthFailures: 1, Window: time.Minute,
			Counter: func() httprate.LimitCounter { return broken.RateCounter() }}
		h := rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{RateLimits: &limits}))
		for i := range 3 { // past every limit of 1
			if rec := from(h, "198.51.100.1", admin.Token, "GET", "/v1/user", ""); rec.Code != http.StatusOK {
				t.Fatalf("request %d with a token: %d, want 200 (fail open)", i+1, rec.Code)
			}
			if rec := from(h, "198.51.100.1", "", "GET", "/v1/user", ""); rec.Code != http.StatusUnauthorized {
				t.Fatalf("request %d without a token: %d, want 401, not 429", i+1, rec.Code)
			}
		}
	})
}
