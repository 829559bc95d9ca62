package loader

import (
	"context"
	"sync"
	"time"
)

// Batch collects the keys that sibling resolvers ask for and fetches them in one call. A fixed
// time window alone splits batches under load, so a parent that knows how many children will
// ask says so with Expect: the batch leaves as soon as that many keys have arrived, waiting up to
// maxWait for them. Without an expectation the short wait restarts with each arriving key (up to
// maxWait), so slow siblings still join. Results are kept for the rest of the request.
type Batch[K comparable, V any] struct {
	fetch func(context.Context, []K) (map[K]V, error)
	wait  time.Duration

	mu      sync.Mutex
	expect  int
	pending *round[K, V]
	done    map[K]*round[K, V]
}

type round[K comparable, V any] struct {
	once  sync.Once
	timer *time.Timer
	start time.Time
	keys  []K
	ready chan struct{}
	found map[K]V
	err   error
}

// maxWait bounds how long a batch keeps waiting for late siblings.
const maxWait = 25 * time.Millisecond

// NewBatch returns a Batch over fetch, which returns the values it found keyed by key.
func NewBatch[K comparable, V any](fetch func(context.Context, []K) (map[K]V, error), wait time.Duration) *Batch[K, V] {
	return &Batch[K, V]{fetch: fetch, wait: wait, done: map[K]*round[K, V]{}}
}

// Expect announces that n keys are about to be asked for together.
func (b *Batch[K, V]) Expect(n int) {
	b.mu.Lock()
	b.expect = n
	b.mu.Unlock()
}

// Prime stores values found elsewhere (by a batch that loaded them along the way), so that
// loading their keys later costs nothing.
func (b *Batch[K, V]) Prime(found map[K]V) {
	r := &round[K, V]{ready: make(chan struct{}), found: found}
	r.once.Do(func() { close(r.ready) })
	b.mu.Lock()
	for k := range found {
		if _, seen := b.done[k]; !seen {
			b.done[k] = r
		}
	}
	b.mu.Unlock()
}

// Load returns the value for key (ok false when fetch found none), batching it with its siblings.
func (b *Batch[K, V]) Load(ctx context.Context, key K) (V, bool, error) {
	found, err := b.LoadMany(ctx, []K{key})
	v, ok := found[key]
	return v, ok, err
}

// LoadMany returns the values found for keys, all joining the same batch.
func (b *Batch[K, V]) LoadMany(ctx context.Context, keys []K) (map[K]V, error) {
	b.mu.Lock()
	rounds := make([]*round[K, V], len(keys))
	var full *round[K, V]
	for i, key := range keys {
		r, seen := b.done[key]
		if !seen {
			if b.pending == nil {
				p := &round[K, V]{ready: make(chan struct{}), start: time.Now()}
				b.pending = p
				p.timer = time.AfterFunc(b.fallback(), func() { b.send(ctx, p) })
			} else if time.Since(b.pending.start) < maxWait {
				// Siblings are still arriving: wait for the next one rather than leave without it.
				b.pending.timer.Reset(b.fallback())
			}
			r = b.pending
			r.keys = append(r.keys, key)
			b.done[key] = r
			if b.expect > 0 && len(r.keys) >= b.expect {
				full = r
			}
		}
		rounds[i] = r
	}
	b.mu.Unlock()
	if full != nil {
		b.send(ctx, full)
	}
	out := make(map[K]V, len(keys))
	for i, r := range rounds {
		<-r.ready
		if r.err != nil {
			return nil, r.err
		}
		if v, ok := r.found[keys[i]]; ok {
			out[keys[i]] = v
		}
	}
	return out, nil
}

// fallback is how long a batch waits for more keys: the short wait, or, while siblings are
// expected, up to maxWait (the batch leaves as soon as they have all arrived). Called with mu.
func (b *Batch[K, V]) fallback() time.Duration {
	if b.expect > 0 {
		return maxWait
	}
	return b.wait
}

// send fetches a round's keys, once, and wakes its waiters.
func (b *Batch[K, V]) send(ctx context.Context, r *round[K, V]) {
	r.once.Do(func() {
		b.mu.Lock()
		if b.pending == r {
			b.pending, b.expect = nil, 0
		}
		keys := append([]K(nil), r.keys...)
		b.mu.Unlock()
		r.found, r.err = b.fetch(context.WithoutCancel(ctx), keys)
		close(r.ready)
	})
}
