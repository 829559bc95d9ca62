package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// An answer of 500 or more (or a panic) releases the key, so that a retry runs again; the first
// answer below 500 is kept and replayed.
func TestIdempotencyKeyReleasedAfterServerError(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		res := &domain.App{Store: s, Now: func() time.Time { return time.Now().UTC() }}
		creds, err := res.Bootstrap(ctx, domain.BootstrapInput{OrgTitle: "Acme", Email: "ada@acme.test", Name: "Ada"})
		if err != nil {
			t.Fatal(err)
		}
		actor, err := res.Authenticate(ctx, creds.Token)
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		answers := []func(w http.ResponseWriter){
			func(w http.ResponseWriter) { writeErrorStatus(w, http.StatusInternalServerError, "Internal error") },
			func(http.ResponseWriter) { panic("boom") },
			func(w http.ResponseWriter) { writeJSON(w, http.StatusCreated, map[string]string{"id": "made"}) },
		}
		h := recoverPanics(idempotent(res, restDoor)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			runs++
			answers[min(runs, len(answers))-1](w)
		})))
		send := func() *httptest.ResponseRecorder {
			req := httptest.NewRequest("POST", "/v1/things", strings.NewReader(`{"a":1}`))
			req.Header.Set("Idempotency-Key", "k")
			req = req.WithContext(authz.WithActor(req.Context(), actor))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec
		}
		for i, want := range []int{500, 500, 201, 201} {
			if rec := send(); rec.Code != want {
				t.Fatalf("request %d: status %d, want %d; body %s", i+1, rec.Code, want, rec.Body)
			}
		}
		if runs != 3 {
			t.Fatalf("the handler ran %d times, want 3 (the 201 is replayed)", runs)
		}
	})
}
