package storage

import (
	"sync"
	"time"
)

// tokenCache remembers, for a few seconds, which token (with its user and limits) a hash
// authenticated, so that a
// client's stream of requests costs one statement for its token every tokenTTL, not one per
// request. It never outlives the token: an entry ends at the token's own expiry (checked against
// the request's clock on every hit), and ForgetToken/ForgetUserTokens drop entries at once on
// this instance when a token is revoked. Other instances see a revocation within tokenTTL.
//
// It is off unless Open is given WithTokenCache (the server turns it on), so that a test's
// statement counts do not depend on what it did a moment before.
type tokenCache struct {
	ttl     time.Duration    // 0: off
	clock   func() time.Time // the wall clock entries age by (nil: time.Now; tests pass their own)
	mu      sync.Mutex
	entries map[string]tokenEntry
}

type tokenEntry struct {
	token *APIToken // with its User
	until time.Time // when the entry must be read again from the database (wall clock)
}

// DefaultTokenTTL bounds how long a revocation made by another instance goes unseen here.
const DefaultTokenTTL = 3 * time.Second

// WithTokenCache turns the authentication cache on: a token's user is remembered for ttl.
func WithTokenCache(ttl time.Duration) Option { return func(o *options) { o.tokenTTL = ttl } }

// WithTokenCacheClock makes the authentication cache age its entries by clock instead of the wall
// clock, so that a test can pass its TTL without waiting for it.
func WithTokenCacheClock(clock func() time.Time) Option {
	return func(o *options) { o.tokenClock = clock }
}

func (c *tokenCache) now() time.Time {
	if c.clock != nil {
		return c.clock()
	}
	return time.Now()
}

// maxTokens bounds the cache; when full it starts over (the cost is a statement per token).
const maxTokens = 10000

func (c *tokenCache) get(hash string, now time.Time) (*APIToken, bool) {
	if c.ttl == 0 {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if !ok {
		return nil, false
	}
	if c.now().After(e.until) || (e.token.ExpiresAt != nil && !e.token.ExpiresAt.After(now)) {
		delete(c.entries, hash)
		return nil, false
	}
	return copyToken(e.token), true // callers may change theirs
}

// touched records a token's last use in its entry, so that the cached copy does not ask for the
// use to be recorded again.
func (c *tokenCache) touched(hash string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[hash]; ok {
		e.token.LastUsedAt = &at
	}
}

func copyToken(t *APIToken) *APIToken {
	cp := *t
	if t.User != nil {
		u := *t.User
		cp.User = &u
	}
	return &cp
}

func (c *tokenCache) put(hash string, t *APIToken) {
	if c.ttl == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxTokens {
		c.entries = map[string]tokenEntry{}
	}
	c.entries[hash] = tokenEntry{token: copyToken(t), until: c.now().Add(c.ttl)}
}

// ForgetToken drops a token from this instance's authentication cache: call it when a token is
// revoked or deleted, so it stops working here at once (other instances: within a few seconds).
// token is the token in clear or its stored hash (TokenHash).
func (s *Store) ForgetToken(tokenOrHash string) {
	hash := tokenOrHash
	if len(tokenOrHash) >= len(TokenPrefix) && tokenOrHash[:len(TokenPrefix)] == TokenPrefix {
		hash = hashToken(tokenOrHash)
	}
	s.tokens.mu.Lock()
	delete(s.tokens.entries, hash)
	s.tokens.mu.Unlock()
}

// ForgetUserTokens drops every cached token of a user (the user was removed, or all their
// tokens revoked).
func (s *Store) ForgetUserTokens(userID string) {
	s.tokens.mu.Lock()
	defer s.tokens.mu.Unlock()
	for h, e := range s.tokens.entries {
		if e.token.UserID == userID {
			delete(s.tokens.entries, h)
		}
	}
}
