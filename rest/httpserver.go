package rest

import (
	"context"
	"mime"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/net/netutil"
)

// ServerLimits bound how long a connection and a request may hold the server. Go's
// http.Server.ReadTimeout is not used: it would also end a request whose response takes longer to
// write, so body reads get a deadline per request instead (longer for uploads), and responses a
// write deadline (longer for file downloads and uploads).
type ServerLimits struct {
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout time.Duration
	// BodyTimeout bounds reading an ordinary request's body; UploadTimeout a multipart one.
	BodyTimeout, UploadTimeout time.Duration
	// WriteTimeout bounds a request from the end of its headers to the end of its response;
	// file downloads and uploads get LongWriteTimeout.
	WriteTimeout, LongWriteTimeout time.Duration
	// RequestTimeout is the deadline of an ordinary request's work: its context is cancelled then,
	// or as soon as the client goes away.
	RequestTimeout time.Duration
	// IdleTimeout closes keep-alive connections left idle.
	IdleTimeout time.Duration
	// MaxConnections caps open connections; further ones wait in the kernel's backlog.
	MaxConnections int
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes int
}

// DefaultServerLimits are the limits `bindery serve` applies (docs/security.md).
func DefaultServerLimits() ServerLimits {
	return ServerLimits{
		ReadHeaderTimeout: 10 * time.Second,
		BodyTimeout:       30 * time.Second,
		UploadTimeout:     10 * time.Minute,
		WriteTimeout:      60 * time.Second,
		LongWriteTimeout:  30 * time.Minute,
		RequestTimeout:    30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxConnections:    1024,
		MaxHeaderBytes:    64 << 10,
	}
}

// NewHTTPServer serves h with limits l (the per-request deadlines are set by Deadlines).
func NewHTTPServer(h http.Handler, l ServerLimits) *http.Server {
	return &http.Server{
		Handler:           Deadlines(l)(h),
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
}

// Listen listens on addr, accepting at most l.MaxConnections connections at once.
func Listen(addr string, l ServerLimits) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	if l.MaxConnections > 0 {
		ln = netutil.LimitListener(ln, l.MaxConnections)
	}
	return ln, nil
}

// Deadlines sets each request's body read deadline, write deadline and context deadline: long
// ones for uploads and file downloads, short ones for everything else.
func Deadlines(l ServerLimits) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isWebsocket(r) {
				// A GraphQL subscription's connection lives as long as its subscriber: the
				// transport's pings keep it honest, hijacking clears the server's deadlines.
				next.ServeHTTP(w, r)
				return
			}
			rc := http.NewResponseController(w)
			now := time.Now()
			if isLongRequest(r) {
				_ = rc.SetReadDeadline(now.Add(l.UploadTimeout))
				_ = rc.SetWriteDeadline(now.Add(l.LongWriteTimeout))
				next.ServeHTTP(w, r)
				return
			}
			// Errors mean the writer cannot set deadlines (a test recorder): nothing to bound.
			if l.BodyTimeout > 0 {
				_ = rc.SetReadDeadline(now.Add(l.BodyTimeout))
			}
			if l.RequestTimeout > 0 {
				ctx, cancel := context.WithTimeout(r.Context(), l.RequestTimeout)
				defer cancel()
				r = r.WithContext(ctx)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// isWebsocket reports a websocket handshake (GraphQL subscriptions).
func isWebsocket(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// isLongRequest reports uploads (multipart bodies, file routes) and file downloads.
func isLongRequest(r *http.Request) bool {
	if strings.HasPrefix(r.URL.Path, "/files/") {
		return true
	}
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return strings.HasPrefix(mediaType, "multipart/") || mediaType == "application/octet-stream"
}
