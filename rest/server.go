// Package rest is Bindery's HTTP front: the /v1 facade that speaks GitBook's management API, the
// /graphql endpoint, health probes and the middleware they share. It holds no business rule:
// handlers decode, call the graph's domain methods (never gqlgen's generated resolvers), and encode.
package rest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/mcpserver"
	"github.com/bindery/bindery/usercontent"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// NewServerWith builds the whole HTTP handler over the application: REST at /v1, the doors
// opts mounts (GraphQL, published sites), and operational options (metrics, CORS, tracing, rate
// limits; see ops.go).
func NewServerWith(res *domain.App, opts Options) http.Handler {
	r := chi.NewRouter()
	r.Use(opts.outer()...)
	r.Use(middleware.RequestID, clientAddress(opts.TrustedProxies), logRequests, recoverPanics, rejectBadText, onlyFilesOn(opts.FilesOrigin))
	if opts.Sites != nil {
		r.Use(siteHosts(res))
	}
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

	limits := newRateLimiter(opts.RateLimits)
	if g := opts.GraphQL; g != nil {
		d := door{refuse: g.Refuse, fail: g.Fail, tooLarge: func(w http.ResponseWriter) {
			g.Fail(w, http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE", "the request body is larger than 1 MiB")
		}}
		r.With(authenticateWith(res, limits, d, g.Public, opts.Sessions), requestState(res), idempotent(res, d)).
			Handle("/graphql", g.Handler)
	}
	if opts.Sessions != nil {
		r.With(limits.anonymous(restDoor)).Mount("/auth", http.StripPrefix("/auth", opts.Sessions))
	}

	// A file is read with a token, or through a signed link to the files origin (the link is the
	// proof of access, checked by whoever made it: the reader, for a site's visitor).
	withToken := authenticate(res, limits, restDoor, nil)(requestState(res)(serveFile(res)))
	signed := limits.anonymous(restDoor)(serveSignedFile(res, opts.FilesOrigin))
	r.Get("/files/{versionId}/{name}", func(w http.ResponseWriter, req *http.Request) {
		if usercontent.IsSigned(req) {
			signed.ServeHTTP(w, req)
			return
		}
		withToken.ServeHTTP(w, req)
	})

	// Custom fonts (docs/sites.md): a signed upload URL takes a font file's bytes, its signature
	// the proof of access; the fonts' files are public.
	r.With(limits.anonymous(restDoor), requestState(res)).Put("/uploads/{organizationId}/*", receiveUpload(res))
	r.With(limits.anonymous(restDoor), requestState(res)).Get("/fonts/{fontId}/{file}", serveFont(res))

	// MCP (docs/mcp.md): the organization's for API tokens, rate-limited like /v1; each site's for
	// its visitors, like the site.
	agents := mcpserver.New(res)
	r.With(authenticate(res, limits, restDoor, nil), requestState(res)).Handle("/mcp", agents.Organization())
	r.With(limits.anonymous(restDoor), requestState(res)).Handle("/sites/{name}/~gitbook/mcp", agents.Site())

	// Published sites: anyone may read them (the application decides what each visitor sees).
	if opts.Sites != nil {
		r.With(limits.anonymous(restDoor), requestState(res)).Mount("/sites", opts.Sites)
	}

	// The app is static files; the data it shows comes from /graphql, checked there.
	if opts.App != nil {
		for _, route := range opts.AppRoutes {
			r.With(limits.anonymous(restDoor)).Handle(route, opts.App)
		}
	}

	r.Route("/v1", func(v1 chi.Router) {
		v1.Use(authenticate(res, limits, restDoor, nil), requestState(res), idempotent(res, restDoor))
		(&api{res: res}).routes(v1)
	})
	return r
}

// requestState gives every request its own request state and dataloaders (domain/request.go).
func requestState(app *domain.App) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(app.WithRequestState(r.Context())))
		})
	}
}

// door is how one door (REST's contract, GraphQL) answers the refusals its middleware makes.
type door struct {
	// refuse answers a request without a valid token (401).
	refuse func(http.ResponseWriter, *http.Request, error)
	// fail answers with status and message; code is GraphQL's extensions.code.
	fail func(w http.ResponseWriter, status int, code, message string)
	// tooLarge answers a body over the door's limit as the door's own decoder does.
	tooLarge func(w http.ResponseWriter)
}

var (
	restDoor = door{refuse: restUnauthorized,
		fail: func(w http.ResponseWriter, status int, _, message string) { writeErrorStatus(w, status, message) },
		tooLarge: func(w http.ResponseWriter) {
			writeErrorStatus(w, http.StatusBadRequest, apperr.Message(apperr.Invalidf("body", "larger than %d bytes", maxBodyBytes)))
		}}
)

// tooMany answers 429; the limit set the X-RateLimit-* and Retry-After headers.
func (d door) tooMany(w http.ResponseWriter) {
	d.fail(w, http.StatusTooManyRequests, "RATE_LIMITED", tooManyMessage(w))
}

// anonymous limits requests that carry no token, per client address.
func (l *rateLimiter) anonymous(d door) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if l != nil && l.address.take(w, r, clientKey(r)) {
				d.tooMany(w)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// authenticate resolves the bearer token to an actor and counts the request against the
// token's rate limit. Requests without a valid one are refused, except those public(r) lets
// through anonymously (counted against their address's limit). A token that does not
// authenticate is a failure of that credential and of its address: past the credential's limit it
// is refused (429) before it is looked up again; past the address's, the address's failures are
// answered 429 rather than 401. A valid token is never refused for failures, its own address's
// included: someone else behind the same NAT or proxy cannot lock its owner out.
func authenticate(res *domain.App, limits *rateLimiter, d door, public func(*http.Request) bool) func(http.Handler) http.Handler {
	return authenticateWith(res, limits, d, public, nil)
}

// authenticateWith is authenticate that also accepts a browser session's cookie when the request
// has no bearer token (sessions nil: tokens only). A request authenticated by its cookie must pass
// the cross-origin check, since a browser sends the cookie whoever made the page.
func authenticateWith(res *domain.App, limits *rateLimiter, d door, public func(*http.Request) bool, sessions Sessions) func(http.Handler) http.Handler {
	if limits == nil {
		limits = &rateLimiter{}
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if token = strings.TrimSpace(token); !found {
				token = ""
			}
			isPublic := public != nil && public(r)
			if token == "" && !isPublic && sessions != nil {
				ctx, found, err := sessions.AuthenticateRequest(r)
				switch {
				case !found:
				case err != nil && apperr.KindOf(err) == apperr.Internal:
					writeError(w, r, err)
					return
				case err != nil:
					if limits.authFailures.take(w, r, clientKey(r)) {
						d.tooMany(w)
						return
					}
					d.refuse(w, r, err)
					return
				default:
					if err := sessions.CheckOrigin(r); err != nil {
						d.fail(w, http.StatusForbidden, string(apperr.Forbidden), "cross-origin request refused: a signed-in browser's requests must come from this server's own pages")
						return
					}
					if limits.token.take(w, r, authz.ActorFrom(ctx).TokenID) {
						d.tooMany(w)
						return
					}
					next.ServeHTTP(w, r.WithContext(ctx))
					return
				}
			}
			if isPublic || token == "" {
				if limits.address.take(w, r, clientKey(r)) {
					d.tooMany(w)
					return
				}
				if isPublic {
					next.ServeHTTP(w, r)
					return
				}
				d.refuse(w, r, apperr.ErrUnauthenticated)
				return
			}
			credential := credentialKey(token)
			if limits.credentialFailures.exhausted(w, credential) {
				d.tooMany(w)
				return
			}
			actor, err := res.Authenticate(r.Context(), token)
			if err != nil {
				if apperr.KindOf(err) == apperr.Internal {
					writeError(w, r, err)
					return
				}
				// The headers are those of the last limit counted: the address's, unless the
				// credential's refused first.
				if limits.credentialFailures.take(w, r, credential) || limits.authFailures.take(w, r, clientKey(r)) {
					d.tooMany(w)
					return
				}
				d.refuse(w, r, err)
				return
			}
			if limits.token.take(w, r, actor.TokenID) {
				d.tooMany(w)
				return
			}
			next.ServeHTTP(w, r.WithContext(authz.WithActor(r.Context(), actor)))
		})
	}
}

// credentialKey names a presented token in the failure counts without keeping the token itself.
func credentialKey(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:16])
}

// restUnauthorized answers in the contract's error shape; GraphQLDoor.Refuse is GraphQL's.
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
				apperr.LogPanic(r.Context(), "panic serving request", p)
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
		// LogAttrs: typed attributes are not boxed into a slice of any.
		slog.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", ww.Status()), slog.Int("bytes", ww.BytesWritten()), slog.Float64("duration_ms", Millis(time.Since(start))))
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
func serveFile(res *domain.App) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		d, err := res.DownloadFile(r.Context(), chi.URLParam(r, "versionId"))
		if err != nil {
			writeError(w, r, err)
			return
		}
		serveDownload(w, r, d, "private, max-age=31536000, immutable")
	}
}

// serveSignedFile serves a file version through a signed link to the files origin. A link
// that is not valid (tampered, expired, addressed to another origin, or no files origin to sign
// them) is a file not found.
func serveSignedFile(res *domain.App, origin *usercontent.Origin) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		versionID := chi.URLParam(r, "versionId")
		if origin == nil || !origin.Serves(r) || !origin.Verify(r, versionID, time.Now()) {
			writeError(w, r, apperr.NotFoundf("file not found"))
			return
		}
		d, err := res.DownloadSignedFile(r.Context(), versionID)
		if err != nil {
			writeError(w, r, err)
			return
		}
		serveDownload(w, r, d, "private, max-age=600")
	}
}

// serveDownload answers with a user's file under the user-content policy (usercontent), with
// ranges and conditional requests.
func serveDownload(w http.ResponseWriter, r *http.Request, d *domain.Download, cacheControl string) {
	defer d.Content.Close()
	w.Header().Set("Cache-Control", cacheControl)
	usercontent.SetHeaders(w.Header(), d.Name, d.ContentType)
	http.ServeContent(w, r, d.Name, d.ModTime, d.Content)
	if err := d.Content.Err(); err != nil {
		// The headers are gone: the client sees a short body; the operator sees why.
		slog.ErrorContext(r.Context(), "file download cut short by the file store", "path", r.URL.Path, "err", err)
	}
}

// onlyFilesOn keeps the files origin to files: a request addressed to it for anything else (the
// API, GraphQL, sites, metrics) is not found. Nil: no files origin.
func onlyFilesOn(origin *usercontent.Origin) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if origin == nil {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if origin.Serves(r) && !strings.HasPrefix(r.URL.Path, "/files/") {
				writeErrorStatus(w, http.StatusNotFound, "No such endpoint")
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
