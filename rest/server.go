// Package rest is Bindery's HTTP front: the /v1 facade that speaks GitBook's management API, the
// /graphql endpoint, health probes and the middleware they share. It holds no business rule:
// handlers decode, call the graph's domain methods (never gqlgen's generated resolvers), and encode.
package rest

import (
	"context"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/authz"
	"github.com/bindery/bindery/graph/loader"
	"github.com/bindery/bindery/reader"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// NewServer builds the whole HTTP handler over one resolver.
func NewServer(res *graph.Resolver) http.Handler { return NewServerWith(res, Options{}) }

// NewServerWith is NewServer with operational options (metrics, CORS, tracing; see ops.go).
func NewServerWith(res *graph.Resolver, opts Options) http.Handler {
	r := chi.NewRouter()
	r.Use(opts.outer()...)
	r.Use(middleware.RequestID, logRequests, recoverPanics, rejectNUL)
	opts.mountOps(r, res)
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		writeErrorStatus(w, http.StatusNotFound, "No such endpoint")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, _ *http.Request) {
		writeErrorStatus(w, http.StatusMethodNotAllowed, "Method not allowed on this endpoint")
	})

	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	r.Get("/readyz", func(w http.ResponseWriter, req *http.Request) {
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
		defer cancel()
		if err := res.Ready(ctx); err != nil {
			slog.ErrorContext(ctx, "database not ready", "err", err)
			writeErrorStatus(w, http.StatusServiceUnavailable, "database unreachable")
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	})

	gql := graph.NewHandler(res, opts.graphqlExtensions()...)
	r.With(authenticate(res, graph.WriteUnauthenticated, graph.IsExplorerRequest), loader.Middleware(res.Store)).
		Handle("/graphql", gql)

	r.With(authenticate(res, restUnauthorized, nil), loader.Middleware(res.Store)).
		Get("/files/{versionId}/{name}", serveFile(res))

	// Published sites: anyone may read them (the graph decides what each visitor sees).
	r.With(loader.Middleware(res.Store)).Mount("/sites", reader.New(res).Routes())

	r.Route("/v1", func(v1 chi.Router) {
		v1.Use(authenticate(res, restUnauthorized, nil), loader.Middleware(res.Store))
		(&api{res: res}).routes(v1)
	})
	return r
}

// authenticate resolves the bearer token to an actor. Requests without a valid one are refused,
// except those public(r) lets through anonymously.
func authenticate(res *graph.Resolver, refuse func(http.ResponseWriter, *http.Request, error), public func(*http.Request) bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if public != nil && public(r) {
				next.ServeHTTP(w, r)
				return
			}
			token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !found || token == "" {
				refuse(w, r, apperr.ErrUnauthenticated)
				return
			}
			actor, err := res.Authenticate(r.Context(), strings.TrimSpace(token))
			if err != nil {
				if apperr.KindOf(err) == apperr.Internal {
					writeError(w, r, err)
					return
				}
				refuse(w, r, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(authz.WithActor(r.Context(), actor)))
		})
	}
}

// restUnauthorized answers in the contract's error shape; graph.WriteUnauthenticated is
// GraphQL's.
func restUnauthorized(w http.ResponseWriter, _ *http.Request, err error) {
	writeErrorStatus(w, http.StatusUnauthorized, apperr.Message(err))
}

// recoverPanics turns a panic into a logged 500 with the contract's error body.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				graph.LogPanic(r.Context(), "panic serving request", p)
				writeErrorStatus(w, http.StatusInternalServerError, "Internal error")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// logRequests writes one line per request, with its request id, status and duration.
func logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		slog.InfoContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path,
			"status", ww.Status(), "bytes", ww.BytesWritten(), "duration_ms", Millis(time.Since(start)))
	})
}

// Millis is a duration as the number of milliseconds logs carry (keys ending in _ms), to the
// microsecond.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// LogHandler adds the request id to every log line written with a request's context.
type LogHandler struct{ slog.Handler }

// Handle implements slog.Handler.
func (h LogHandler) Handle(ctx context.Context, rec slog.Record) error {
	if id := middleware.GetReqID(ctx); id != "" {
		rec.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, rec)
}

// WithAttrs implements slog.Handler.
func (h LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return LogHandler{h.Handler.WithAttrs(attrs)}
}

// WithGroup implements slog.Handler.
func (h LogHandler) WithGroup(name string) slog.Handler { return LogHandler{h.Handler.WithGroup(name)} }

// serveFile serves the bytes behind a file's downloadURL to callers who can read its space, with
// ranges and conditional requests; the bytes of a version never change, so they cache for good.
func serveFile(res *graph.Resolver) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		d, err := res.DownloadFile(r.Context(), chi.URLParam(r, "versionId"))
		if err != nil {
			writeError(w, r, err)
			return
		}
		defer d.Content.Close()
		w.Header().Set("Content-Type", d.ContentType)
		w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// Uploaded bytes are the uploader's, served on the API's origin: whatever a browser might
		// run (HTML, XML, SVG, scripts…) is downloaded rather than shown, and nothing runs even
		// when shown (a sandboxing CSP on every file).
		w.Header().Set("Content-Disposition", mime.FormatMediaType(fileDisposition(d.ContentType), map[string]string{"filename": d.Name}))
		w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox")
		http.ServeContent(w, r, d.Name, d.ModTime, d.Content)
		if err := d.Content.Err(); err != nil {
			// The headers are gone: the client sees a short body; the operator sees why.
			slog.ErrorContext(r.Context(), "file download cut short by the file store", "path", r.URL.Path, "err", err)
		}
	}
}

// fileDisposition is "inline" for the types browsers show without running anything (images, audio,
// video, PDF, plain text; SVG, which can hold script, only ever under the sandboxing CSP), and
// "attachment" for everything else.
func fileDisposition(contentType string) string {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	switch {
	case strings.HasPrefix(mediaType, "image/"), strings.HasPrefix(mediaType, "audio/"), strings.HasPrefix(mediaType, "video/"),
		mediaType == "application/pdf", mediaType == "text/plain":
		return "inline"
	}
	return "attachment"
}
