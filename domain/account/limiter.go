package account

import (
	"sync"
	"time"
)

// failures counts failed attempts per key (an account's e-mail, a client address) over a fixed
// window. Counts are this server's own: behind a load balancer each server allows the limit, which
// still bounds guessing to a few attempts per window per server.
type failures struct {
	limit  int
	window time.Duration

	mu     sync.Mutex
	counts map[string]*failureCount
}

type failureCount struct {
	n     int
	start time.Time
}

func newFailures(limit int, window time.Duration) *failures {
	return &failures{limit: limit, window: window, counts: map[string]*failureCount{}}
}

// blocked reports whether key is past its limit at now, and when it may try again.
func (f *failures) blocked(key string, now time.Time) (bool, time.Time) {
	if f.limit <= 0 {
		return false, time.Time{}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.counts[key]
	if c == nil || !now.Before(c.start.Add(f.window)) {
		return false, time.Time{}
	}
	return c.n >= f.limit, c.start.Add(f.window)
}

// add counts one failure of key at now.
func (f *failures) add(key string, now time.Time) {
	if f.limit <= 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.counts) > 100_000 { // bound memory under a flood of distinct keys: drop ended windows
		for k, c := range f.counts {
			if !now.Before(c.start.Add(f.window)) {
				delete(f.counts, k)
			}
		}
	}
	c := f.counts[key]
	if c == nil || !now.Before(c.start.Add(f.window)) {
		c = &failureCount{start: now}
		f.counts[key] = c
	}
	c.n++
}

// reset forgets key's failures (a successful sign-in clears its account's count).
func (f *failures) reset(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.counts, key)
}
