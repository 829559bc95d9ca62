package rest

import (
	"hash/maphash"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"
)

// RateLimits bound how many requests a caller makes (docs/security.md): per token when the
// request authenticates, per client address when it carries no token, and, much lower, requests
// whose token does not authenticate (wrong, expired, revoked) per client address. Each limit is
// httprate's sliding window: the previous window's count, weighted by how much of it the last
// Window still covers, plus the current window's. A limit of 0 is no limit.
type RateLimits struct {
	// Token is how many requests one token may make per Window.
	Token int
	// Address is how many requests without a token one client address may make per Window.
	Address int
	// AuthFailures is how many requests whose token does not authenticate one client address, and
	// one presented token, may make per Window. Past the token's, that token is answered 429
	// without being looked up again; past the address's, the address's failures are answered 429
	// instead of 401. A valid token is never refused for failures (someone else's at its address
	// included): a token holds 40 random characters (over 230 bits), so no rate of failures finds
	// one by trying.
	AuthFailures int
	// Window is the length of every limit's window.
	Window time.Duration
	// Counter makes the store of one limit's counts: nil keeps them in this process's memory;
	// storage's RateCounter keeps them in the database, shared by every server using it.
	Counter func() httprate.LimitCounter
}

// DefaultRateLimits are the limits `bindery serve` applies unless told otherwise.
func DefaultRateLimits() RateLimits {
	return RateLimits{Token: 1000, Address: 600, AuthFailures: 10, Window: time.Minute}
}

// rateLimiter applies RateLimits. A nil *rateLimiter, or a nil limit in it, limits nothing.
type rateLimiter struct {
	token, address *limit
	// authFailures counts failures per client address, credentialFailures per presented token.
	authFailures, credentialFailures *limit
}

func newRateLimiter(l *RateLimits) *rateLimiter {
	if l == nil {
		return nil
	}
	window := l.Window
	if window <= 0 {
		window = time.Minute
	}
	return &rateLimiter{
		token:              newLimit("token:", l.Token, window, l.Counter),
		address:            newLimit("address:", l.Address, window, l.Counter),
		authFailures:       newLimit("auth-failures:", l.AuthFailures, window, l.Counter),
		credentialFailures: newLimit("credential-failures:", l.AuthFailures, window, l.Counter),
	}
}

// limit is one limit: httprate limiters over one store of counts, each for a share of the keys.
// httprate holds a limiter's lock while it reads and counts a key; with counts in the database
// that is two statements, so keys are spread over several limiters to let unrelated callers
// count at once.
type limit struct {
	prefix   string
	max      int
	window   time.Duration
	seed     maphash.Seed
	shards   [16]*httprate.RateLimiter
	counters [16]httprate.LimitCounter // each shard's
}

// canonicalRateHeaders are httprate's header names in net/http's canonical form, the form they
// take on the wire anyway: httprate's own spelling ("X-RateLimit-…") makes Header.Set allocate a
// canonical copy of each name on every request.
var canonicalRateHeaders = httprate.ResponseHeaders{
	Limit:      http.CanonicalHeaderKey("X-RateLimit-Limit"),
	Remaining:  http.CanonicalHeaderKey("X-RateLimit-Remaining"),
	Increment:  http.CanonicalHeaderKey("X-RateLimit-Increment"),
	Reset:      http.CanonicalHeaderKey("X-RateLimit-Reset"),
	RetryAfter: "Retry-After",
}

func newLimit(prefix string, max int, window time.Duration, newCounter func() httprate.LimitCounter) *limit {
	if max <= 0 {
		return nil
	}
	l := &limit{prefix: prefix, max: max, window: window, seed: maphash.MakeSeed()}
	var shared httprate.LimitCounter
	if newCounter != nil {
		shared = failOpen{newCounter()}
	}
	for i := range l.shards {
		counter := shared
		if counter == nil {
			counter = httprate.NewLocalLimitCounter(window)
		}
		// A counter of our own aligns windows to the wall clock, so that every server agrees on
		// them and the time a limit frees up can be computed here.
		l.counters[i] = counter
		l.shards[i] = httprate.NewRateLimiter(max, window, httprate.WithLimitCounter(counter), httprate.WithResponseHeaders(canonicalRateHeaders))
	}
	return l
}

func (l *limit) shard(key string) int {
	return int(maphash.String(l.seed, key) % uint64(len(l.shards)))
}

// take counts a request against key and sets the X-RateLimit-* headers. It reports whether the
// request is over the limit (then Retry-After is set too, and the request is not counted).
func (l *limit) take(w http.ResponseWriter, r *http.Request, key string) bool {
	if l == nil {
		return false
	}
	key = l.prefix + key
	if !l.shards[l.shard(key)].OnLimit(w, r, key) {
		return false
	}
	l.refuse(w, key, time.Now().UTC())
	return true
}

// exhausted reports whether key has used up its limit, without counting a request; when it has,
// it sets the headers of a refusal.
func (l *limit) exhausted(w http.ResponseWriter, key string) bool {
	if l == nil {
		return false
	}
	key = l.prefix + key
	now := time.Now().UTC()
	cur, prev, err := l.counts(key, now)
	if err != nil || int(math.Round(l.rate(cur, prev, now))) < l.max {
		return false
	}
	l.refuse(w, key, now)
	return true
}

// counts reads key's counts in the current window and the one before.
func (l *limit) counts(key string, now time.Time) (cur, prev int, err error) {
	start := now.Truncate(l.window)
	return l.counters[l.shard(key)].Get(key, start, start.Add(-l.window))
}

// rate is httprate's sliding-window rate at now.
func (l *limit) rate(cur, prev int, now time.Time) float64 {
	elapsed := now.Sub(now.Truncate(l.window))
	return float64(prev)*float64(l.window-elapsed)/float64(l.window) + float64(cur)
}

// refuse sets the headers of a 429 for key: none remaining, and X-RateLimit-Reset and Retry-After
// at the moment the sliding window lets a request through again (httprate's own Retry-After is
// a whole window, and its reset the end of the current one, when the previous window's requests
// still weigh).
func (l *limit) refuse(w http.ResponseWriter, key string, now time.Time) {
	free := now.Add(l.window)
	if cur, prev, err := l.counts(key, now); err == nil {
		free = l.freeAt(cur, prev, now)
	}
	w.Header().Set("X-RateLimit-Limit", strconv.Itoa(l.max))
	w.Header().Set("X-RateLimit-Remaining", "0")
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(int64(math.Ceil(float64(free.UnixMilli())/1000)), 10))
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(free.Sub(now).Seconds())))))
}

// freeAt is when the rate of a key with these counts drops below the limit (a rate rounds to
// the nearest request, as httprate does), if no request is counted meanwhile.
func (l *limit) freeAt(cur, prev int, now time.Time) time.Time {
	threshold := float64(l.max) - 0.5
	start := now.Truncate(l.window)
	w := float64(l.window)
	if float64(cur) >= threshold {
		// Only in the next window, as this one's requests weigh less and less.
		return start.Add(l.window).Add(time.Duration(w * (1 - threshold/float64(cur))))
	}
	if prev == 0 { // counted meanwhile: not over the limit any more
		return now
	}
	// Later in this window, as the previous one's requests weigh less and less.
	at := start.Add(time.Duration(w * (1 - (threshold-float64(cur))/float64(prev))))
	if at.Before(now) {
		return now
	}
	return at
}

// failOpen lets requests through when the shared store of counts fails (the database is
// unreachable: the request will say so itself), rather than refusing every one.
type failOpen struct{ httprate.LimitCounter }

func (c failOpen) IncrementBy(key string, window time.Time, n int) error {
	if err := c.LimitCounter.IncrementBy(key, window, n); err != nil {
		slog.Warn("rate limit: counting failed; request let through", "err", err)
	}
	return nil
}

func (c failOpen) Increment(key string, window time.Time) error { return c.IncrementBy(key, window, 1) }

func (c failOpen) Get(key string, current, previous time.Time) (int, int, error) {
	cur, prev, err := c.LimitCounter.Get(key, current, previous)
	if err != nil {
		slog.Warn("rate limit: reading counts failed; request let through", "err", err)
		return 0, 0, nil
	}
	return cur, prev, nil
}

// tooManyMessage is the 429 answer's message.
func tooManyMessage(w http.ResponseWriter) string {
	return "Too many requests: retry after " + w.Header().Get("Retry-After") + " seconds"
}

// clientAddress finds each request's client address for the limits that are kept per address:
// the TCP peer (RemoteAddr), or, when the peer is one of the trusted proxies, the rightmost
// address in X-Forwarded-For that is not a trusted proxy (chi's ClientIPFromXFF).
func clientAddress(trustedProxies []string) func(http.Handler) http.Handler {
	if len(trustedProxies) == 0 {
		return middleware.ClientIPFromRemoteAddr
	}
	return middleware.ClientIPFromXFF(trustedProxies...)
}

// clientKey is the key of a request's client address: an IPv6 client counts by its /64, which
// it usually holds whole. When no address could be found (an X-Forwarded-For entry that is not an
// address), the peer's own address stands for it: the proxy's requests share one count.
func clientKey(r *http.Request) string {
	if ip := middleware.GetClientIP(r.Context()); ip != "" {
		return httprate.CanonicalizeIP(ip)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return httprate.CanonicalizeIP(host)
}
