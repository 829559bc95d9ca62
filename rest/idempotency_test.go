package rest_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/authz"
)

// post sends a POST with an Idempotency-Key (none when key is empty).
func (e *env) post(token, key, path, body string) *httptest.ResponseRecorder {
	e.t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	_, rec := e.serve(req, token, nil)
	return rec
}

func idOf(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var v struct {
		ID   string `json:"id"`
		Data struct {
			CreateSpace struct {
				ID string `json:"id"`
			} `json:"createSpace"`
		} `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("answer %d is not JSON: %s", rec.Code, rec.Body)
	}
	if v.ID == "" {
		v.ID = v.Data.CreateSpace.ID
	}
	if v.ID == "" {
		t.Fatalf("no id in answer %d: %s", rec.Code, rec.Body)
	}
	return v.ID
}

// A POST with an Idempotency-Key runs once: a retry gets the first answer (status, body,
// Location) and creates nothing; the same key with another body is 422; another caller's same key
// is its own; a key still running is 409; after 24 hours the key is free again. Both doors.
func TestIdempotencyKeys(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "ada@acme.test")
		other := e.member(orgID, "bob@acme.test", "admin")
		spaces := "/v1/orgs/" + orgID + "/spaces"
		count := func() float64 {
			return e.call(admin.Token, "GET", "/orgs/"+orgID+"/spaces", nil).want(200).object()["count"].(float64)
		}

		first := e.post(admin.Token, "create-1", spaces, `{"title":"Once"}`)
		if first.Code != http.StatusCreated || first.Header().Get("Location") == "" {
			t.Fatalf("first: status %d, Location %q; body %s", first.Code, first.Header().Get("Location"), first.Body)
		}
		if first.Header().Get("Idempotent-Replayed") != "" {
			t.Fatal("the first answer is marked as replayed")
		}
		retry := e.post(admin.Token, "create-1", spaces, `{"title":"Once"}`)
		if retry.Code != http.StatusCreated || retry.Body.String() != first.Body.String() ||
			retry.Header().Get("Location") != first.Header().Get("Location") || retry.Header().Get("Idempotent-Replayed") != "true" {
			t.Fatalf("retry: status %d, Location %q, replayed %q, body %s; want the first answer %s",
				retry.Code, retry.Header().Get("Location"), retry.Header().Get("Idempotent-Replayed"), retry.Body, first.Body)
		}
		if !strings.HasPrefix(retry.Header().Get("Content-Type"), "application/json") || retry.Header().Get("X-RateLimit-Limit") == "" {
			t.Fatalf("retry headers = %v, want the stored Content-Type and this request's rate limit", retry.Header())
		}
		if n := count(); n != 1 {
			t.Fatalf("spaces after a retried create = %v, want 1", n)
		}
		id := idOf(t, first)

		t.Run("another body", func(t *testing.T) {
			rec := e.post(admin.Token, "create-1", spaces, `{"title":"Twice"}`)
			wantContractError(t, rec, http.StatusUnprocessableEntity)
			rec = e.post(admin.Token, "create-1", "/v1/orgs/"+orgID+"/collections", `{"title":"Once"}`)
			wantContractError(t, rec, http.StatusUnprocessableEntity)
			if n := count(); n != 1 {
				t.Fatalf("spaces = %v, want 1", n)
			}
		})

		t.Run("another caller", func(t *testing.T) {
			rec := e.post(other.Token, "create-1", spaces, `{"title":"Once"}`)
			if rec.Code != http.StatusCreated || idOf(t, rec) == id || rec.Header().Get("Idempotent-Replayed") != "" {
				t.Fatalf("another caller's key: status %d, body %s; want a space of its own", rec.Code, rec.Body)
			}
		})

		t.Run("GraphQL", func(t *testing.T) {
			body := `{"query":"mutation($o: ID!) { createSpace(organizationId: $o, input: {title: \"Via GraphQL\"}) { id } }","variables":{"o":"` + orgID + `"}}`
			a := e.post(admin.Token, "gql-1", "/graphql", body)
			b := e.post(admin.Token, "gql-1", "/graphql", body)
			if a.Code != 200 || b.Code != 200 || idOf(t, a) != idOf(t, b) || b.Header().Get("Idempotent-Replayed") != "true" {
				t.Fatalf("GraphQL retry: %d %s then %d %s; want the same answer", a.Code, a.Body, b.Code, b.Body)
			}
			c := e.post(admin.Token, "gql-1", "/graphql", strings.Replace(body, "Via GraphQL", "Other", 1))
			if c.Code != http.StatusUnprocessableEntity || !strings.Contains(c.Body.String(), "IDEMPOTENCY_KEY_REUSED") {
				t.Fatalf("GraphQL with another body: %d %s, want 422 IDEMPOTENCY_KEY_REUSED", c.Code, c.Body)
			}
		})

		t.Run("still running", func(t *testing.T) {
			// Claim the key as a first request would, then retry while it "runs".
			actor, err := e.res.Authenticate(context.Background(), admin.Token)
			if err != nil {
				t.Fatal(err)
			}
			body := `{"title":"Slow"}`
			sum := sha256.Sum256([]byte("POST " + spaces + "\n" + body))
			claim, err := e.res.ClaimIdempotencyKey(authz.WithActor(context.Background(), actor), "slow-1", hex.EncodeToString(sum[:]))
			if err != nil || !claim.Claimed {
				t.Fatalf("claim = %+v, %v", claim, err)
			}
			rec := e.post(admin.Token, "slow-1", spaces, body)
			wantContractError(t, rec, http.StatusConflict)
			if rec.Header().Get("Retry-After") == "" {
				t.Fatal("409 without Retry-After")
			}
		})

		t.Run("invalid key", func(t *testing.T) {
			wantContractError(t, e.post(admin.Token, strings.Repeat("k", 256), spaces, `{"title":"Long"}`), http.StatusBadRequest)
		})

		t.Run("expiry", func(t *testing.T) {
			before := count()
			now := e.res.Now()
			e.res.Now = func() time.Time { return now.Add(25 * time.Hour) }
			rec := e.post(admin.Token, "create-1", spaces, `{"title":"Once"}`)
			if rec.Code != http.StatusCreated || idOf(t, rec) == id {
				t.Fatalf("after 24 hours: status %d, body %s; want a new space", rec.Code, rec.Body)
			}
			if n := count(); n != before+1 {
				t.Fatalf("spaces = %v, want %v", n, before+1)
			}
			// The purge deletes the expired keys: the other caller's, gql-1 and slow-1, not the
			// key just claimed again, which still replays.
			purged, err := e.store.PurgeIdempotencyKeys(context.Background(), e.res.Now())
			if err != nil || purged != 3 {
				t.Fatalf("purged %d keys (%v), want 3", purged, err)
			}
			again := e.post(admin.Token, "create-1", spaces, `{"title":"Once"}`)
			if again.Header().Get("Idempotent-Replayed") != "true" || idOf(t, again) != idOf(t, rec) {
				t.Fatalf("after the purge: %d %s, want the replay of %s", again.Code, again.Body, rec.Body)
			}
		})
	})
}

// Requests without the header run no statement for idempotency: the key costs only its users.
func TestIdempotencyKeyCostsNothingWithoutTheHeader(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "ada@acme.test")
		spaces := "/orgs/" + orgID + "/spaces"
		var without, with atomic.Int64
		e.call(admin.Token, "POST", spaces, map[string]any{"title": "Warm"}).want(http.StatusCreated)
		e.callCounted(admin.Token, "POST", spaces, map[string]any{"title": "A"}, &without).want(http.StatusCreated)
		req := httptest.NewRequest("POST", "/v1"+spaces, strings.NewReader(`{"title":"B"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "count-1")
		_, rec := e.serve(req, admin.Token, &with)
		if rec.Code != http.StatusCreated {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
		// Claiming and storing the answer: two statements more, and nothing without the header.
		if got, base := with.Load(), without.Load(); got != base+2 {
			t.Fatalf("statements with a key = %d, without = %d; want exactly 2 more", got, base)
		}
	})
}

// wantContractError fails unless rec is the contract's error body with status.
func wantContractError(t *testing.T, rec *httptest.ResponseRecorder, status int) {
	t.Helper()
	response{t: t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}.wantError(status)
}
