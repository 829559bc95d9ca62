package rest

import (
	"context"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/explorer"
	"github.com/bindery/bindery/metrics"
	"github.com/bindery/bindery/usercontent"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/cors"
)

// Options are the operational parts of the HTTP front: what cmd/bindery configures from flags. The
// zero value is what tests get: no metrics, no CORS, no tracing.
type Options struct {
	// Metrics, when set, counts and times every request and GraphQL operation.
	Metrics *metrics.Metrics
	// ServeMetrics mounts GET /metrics (no token) on this handler; false when the metrics have a
	// listen address of their own.
	ServeMetrics bool
	// CORSOrigins are the origins browsers may call the API from ("*" for any). Empty: CORS off,
	// no Access-Control-* header is ever sent.
	CORSOrigins []string
	// Middleware wraps the whole handler, outermost first (tracing).
	Middleware []func(http.Handler) http.Handler
	// GraphQL, when set, is mounted at /graphql behind the same authentication, rate limits and
	// idempotency as /v1 (package graph gives it; cmd/bindery wires it).
	GraphQL *GraphQLDoor
	// Sites, when set, serves published sites under /sites (package reader).
	Sites http.Handler
	// App, when set, serves the first-party web app (package web) at AppRoutes: the urls.app
	// addresses the API returns, the sign-in screen and the app's assets.
	App       http.Handler
	AppRoutes []string
	// RateLimits bound the requests of each token and client address on /v1, /graphql, /files
	// and /sites; nil: no limit (and no X-RateLimit-* headers).
	RateLimits *RateLimits
	// TrustedProxies are the addresses or CIDR prefixes of the reverse proxies in front of the
	// server, whose X-Forwarded-For is believed; empty: the client address is the TCP peer's.
	TrustedProxies []string
	// FilesOrigin, when set, is the origin of its own that serves user content (--files-origin):
	// it answers files only, and published sites redirect to signed links there.
	FilesOrigin *usercontent.Origin
	// Sessions, when set, answers the sign-in routes under /auth and lets /graphql authenticate a
	// browser session's cookie besides bearer tokens (REST /v1 stays token-only).
	Sessions Sessions
}

// Sessions is the browser door (package signin) as the server mounts it.
type Sessions interface {
	// ServeHTTP answers the routes under /auth, the prefix stripped.
	http.Handler
	// AuthenticateRequest returns r's context carrying the actor of the session cookie r
	// presents; found is false when it presents none.
	AuthenticateRequest(r *http.Request) (ctx context.Context, found bool, err error)
	// CheckOrigin refuses a request that changes state from another origin.
	CheckOrigin(r *http.Request) error
}

// outer returns the middleware that runs before routing and authentication: tracing, metrics, and
// CORS, whose preflight (OPTIONS with Access-Control-Request-Method) is answered here, before
// any token is asked for.
func (o Options) outer() []func(http.Handler) http.Handler {
	mws := append([]func(http.Handler) http.Handler{}, o.Middleware...)
	if o.Metrics != nil {
		mws = append(mws, o.Metrics.Middleware)
	}
	if len(o.CORSOrigins) > 0 {
		mws = append(mws, cors.Handler(cors.Options{
			AllowedOrigins: o.CORSOrigins,
			AllowedMethods: []string{"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"},
			AllowedHeaders: []string{"Authorization", "Content-Type", "Accept", "If-None-Match", "X-Request-Id", "Idempotency-Key"},
			ExposedHeaders: []string{"Location", "ETag", "X-Request-Id", "Retry-After",
				"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Idempotent-Replayed"},
			// Tokens travel in the Authorization header, never in cookies.
			AllowCredentials: false,
			MaxAge:           600,
		}))
	}
	return mws
}

// GraphQLDoor is the GraphQL endpoint as the server mounts it: its handler and how it answers
// what the shared middleware refuses, in GraphQL's error shape.
type GraphQLDoor struct {
	Handler http.Handler
	// Public lets a request through without a token (the explorer page).
	Public func(*http.Request) bool
	// Refuse answers a request without a valid credential (401).
	Refuse func(http.ResponseWriter, *http.Request, error)
	// Fail answers with status, extensions.code and message.
	Fail func(w http.ResponseWriter, status int, code, message string)
}

// mountOps adds the operational endpoints that need no token.
func (o Options) mountOps(r chi.Router, res *domain.App) {
	r.Get(OpenAPIPath, serveOpenAPI(res))
	r.Get(explorer.AssetsPath+"*", explorer.Assets().ServeHTTP)
	if o.Metrics != nil && o.ServeMetrics {
		r.Method(http.MethodGet, "/metrics", o.Metrics.Handler())
	}
}
