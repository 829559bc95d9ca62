package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
)

// replayedHeaders are the headers of an answer that a replay repeats; the others (rate limits,
// request id) belong to the request that gets them.
var replayedHeaders = []string{"Content-Type", "Location", "ETag"}

// idempotent makes a POST that carries an Idempotency-Key run once per key and caller (its
// token): a retry with the same key, method, path and body gets the first answer back, marked
// Idempotent-Replayed: true, without running again; the same key with another request answers
// 422; a retry while the first still runs answers 409 with Retry-After. Answers below 500 are
// kept for 24 hours (domain.IdempotencyTTL): a 4xx is the answer to that request, which nothing
// was written for; after a 5xx the key is released, and a retry runs again. Requests without the
// header cost nothing here.
func idempotent(res *domain.App, d door) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := r.Header.Get("Idempotency-Key")
			if key == "" || r.Method != http.MethodPost || authz.ActorFrom(r.Context()) == nil {
				next.ServeHTTP(w, r)
				return
			}
			if isLongRequest(r) {
				d.fail(w, http.StatusBadRequest, "BAD_REQUEST", "Idempotency-Key applies to JSON requests, not to uploads")
				return
			}
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
			if err != nil {
				var tooBig *http.MaxBytesError
				if errors.As(err, &tooBig) {
					d.tooLarge(w)
					return
				}
				d.fail(w, http.StatusBadRequest, "BAD_REQUEST", "The request body could not be read")
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))

			claim, err := res.ClaimIdempotencyKey(r.Context(), key, fingerprint(r, body))
			switch {
			case err != nil && apperr.KindOf(err) == apperr.Invalid:
				d.fail(w, http.StatusBadRequest, "BAD_REQUEST", apperr.Message(err))
			case err != nil:
				writeError(w, r, err)
			case claim.Mismatch:
				d.fail(w, http.StatusUnprocessableEntity, "IDEMPOTENCY_KEY_REUSED",
					"This Idempotency-Key was already used with a different request")
			case claim.Running:
				w.Header().Set("Retry-After", "1")
				d.fail(w, http.StatusConflict, "IDEMPOTENCY_KEY_IN_USE",
					"A request with this Idempotency-Key is still running; retry when it has answered")
			case claim.Replay != nil:
				replay(w, claim.Replay)
			default:
				runOnce(w, r, next, res, key)
			}
		})
	}
}

// fingerprint is a digest of what a request asks: its method, path, query and body.
func fingerprint(r *http.Request, body []byte) string {
	h := sha256.New()
	io.WriteString(h, r.Method+" "+r.URL.RequestURI()+"\n") //nolint:errcheck // hashes never fail
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func replay(w http.ResponseWriter, a *domain.IdempotentAnswer) {
	for name, value := range a.Header {
		w.Header().Set(name, value)
	}
	w.Header().Set("Idempotent-Replayed", "true")
	w.WriteHeader(a.Status)
	w.Write(a.Body) //nolint:errcheck // the client went away; nothing to do
}

// runOnce runs the request that claimed key, and keeps its answer or releases the key. The
// answer is recorded while it is written, and kept even when the client has gone meanwhile: the
// work was done.
func runOnce(w http.ResponseWriter, r *http.Request, next http.Handler, res *domain.App, key string) {
	rec := &recorder{ResponseWriter: w}
	ctx := context.WithoutCancel(r.Context())
	finished := false
	defer func() {
		if finished {
			return
		}
		// The handler panicked, or answered 5xx: whatever it did was rolled back, let a retry run.
		if err := res.ReleaseIdempotencyKey(ctx, key); err != nil {
			slog.ErrorContext(ctx, "release idempotency key", "err", err)
		}
	}()
	next.ServeHTTP(rec, r)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	if rec.status >= 500 {
		return
	}
	answer := domain.IdempotentAnswer{Status: rec.status, Header: map[string]string{}, Body: rec.body.Bytes()}
	for _, name := range replayedHeaders {
		if v := w.Header().Get(name); v != "" {
			answer.Header[name] = v
		}
	}
	// Done either way: when the answer cannot be stored, the key stays claimed until its lease
	// ends (retries answer 409 meanwhile) rather than being released for a second run now.
	finished = true
	if err := res.FinishIdempotencyKey(ctx, key, answer); err != nil {
		slog.ErrorContext(ctx, "store idempotent answer", "err", err)
	}
}

// recorder passes an answer through to the client and keeps a copy.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (deadlines, flushes).
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
