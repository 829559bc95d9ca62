package rest

import (
	"testing"
	"time"
)

// A refused key is told to come back when the sliding window has let enough of its requests go,
// not at the end of the window (when they still weigh) nor a whole window later.
func TestRateLimitFreeAt(t *testing.T) {
	l := newLimit("t:", 3, time.Minute, nil)
	start := time.Date(2026, 3, 4, 5, 6, 0, 0, time.UTC)
	for _, tt := range []struct {
		name      string
		cur, prev int
		now, want time.Duration // from the window's start
	}{
		{"full this window: free in the next", 3, 0, 56 * time.Second, 70 * time.Second},
		{"full last window: free once it weighs less", 0, 3, time.Second, 10 * time.Second},
		{"both", 1, 4, 2 * time.Second, 37500 * time.Millisecond},
		{"already free", 1, 4, 40 * time.Second, 40 * time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			now := start.Add(tt.now)
			if got := l.freeAt(tt.cur, tt.prev, now).Sub(start); (got - tt.want).Abs() > time.Microsecond {
				t.Fatalf("freeAt = start + %v, want start + %v", got, tt.want)
			}
			if tt.now != tt.want && l.rate(tt.cur, tt.prev, now) < 2.5 {
				t.Fatalf("rate %v at the refusal: not over the limit", l.rate(tt.cur, tt.prev, now))
			}
			// Just after the moment, a request is let through.
			after := start.Add(tt.want + time.Millisecond)
			cur, prev := tt.cur, tt.prev
			if after.Sub(start) >= time.Minute {
				cur, prev = 0, tt.cur
				after = after.Add(-time.Minute)
			}
			if r := l.rate(cur, prev, after); r >= 2.5 {
				t.Fatalf("rate %v just after freeAt: still over the limit", r)
			}
		})
	}
}
