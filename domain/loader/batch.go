package loader

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/graph-gophers/dataloader/v7"
)

// Batch collects the keys that sibling resolvers ask for and fetches them in one call. The keys
// of one level leave as one dataloader v7 batch whose capacity is exactly their number, so v7
// sends it the moment the last key is queued. When a level's keys are complete is decided here:
//
//   - A load that is alone (outside any GraphQL list: a REST handler, a root field, the viewer's
//     membership) is complete at once: no window, and its fetch runs on the caller's goroutine.
//   - A parent that knows its children says so: Expect(n) when n children will each load a key
//     (the batch leaves with the n-th new key), ExpectCalls(n) when n children will each call
//     LoadMany (it leaves with the n-th call). These make batches deterministic: a time window
//     alone splits them under load.
//   - Other loads under a list wait while siblings keep coming within the short wait.
//
// announcedWait and maxWait bound every wait: children that ask for less than announced (repeated
// keys, a sibling that failed) are sent by them. Results, found or not, are kept for the rest of the request, so a
// key is fetched once.
type Batch[K comparable, V any] struct {
	// fetch reads keys; owner is the request's Loaders (their store and the other loaders a fetch
	// primes), passed rather than captured so that building a request's loaders allocates no
	// closures (see New).
	fetch func(ctx context.Context, owner *Loaders, keys []K) (map[K]V, error)
	owner *Loaders
	wait  time.Duration
	clock Clock // nil: the real clock

	mu    sync.Mutex
	cache map[K]dataloader.Thunk[found[V]] // nil until first written (see ensureCache)
	open  *round[K, V]                     // the level being gathered, if any
}

// round gathers one level's keys.
type round[K comparable, V any] struct {
	ctx       context.Context // the first sibling's: its values (the viewer, statement counting) reach fetch
	opened    time.Time
	lastKey   time.Time // when the latest key was queued; zero before the first
	timer     Timer
	keys      []K
	wantKeys  int // announced new keys (Expect); 0: none announced
	wantCalls int // announced calls (ExpectCalls); 0: none announced
	calls     int
	ready     chan struct{}
	thunks    map[K]dataloader.Thunk[found[V]]
}

// Clock is the time a Batch waits by: its windows and fallbacks are timers of its clock. The real
// clock serves unless SetClock gave another (a test's, which moves only when told).
type Clock interface {
	Now() time.Time
	// AfterFunc calls f once d has passed, unless the timer is stopped first (the real clock
	// calls it in its own goroutine; f takes the batch's lock itself, so a clock may call it on
	// any goroutine that does not hold it).
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a timer a Clock started: *time.Timer for the real clock.
type Timer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// SetClock makes the batch wait by c instead of the real clock. Call it before the first load.
func (b *Batch[K, V]) SetClock(c Clock) { b.clock = c }

// now returns the batch clock's time.
func (b *Batch[K, V]) now() time.Time {
	if b.clock == nil {
		return time.Now()
	}
	return b.clock.Now()
}

// since returns the time passed since t on the batch's clock.
func (b *Batch[K, V]) since(t time.Time) time.Duration { return b.now().Sub(t) }

// afterFunc starts a timer on the batch's clock.
func (b *Batch[K, V]) afterFunc(d time.Duration, f func()) Timer {
	if b.clock == nil {
		return time.AfterFunc(d, f)
	}
	return b.clock.AfterFunc(d, f)
}

// found is one key's result: ok is false when fetch found nothing for the key.
type found[V any] struct {
	v  V
	ok bool
}

// maxWait bounds how long a window waits for siblings that keep arriving unannounced.
const maxWait = 25 * time.Millisecond

// announcedWait bounds how long an announced level waits for its next sibling, from its latest key.
// They do come (the parent said so) unless a sibling failed or asked for a key another already
// had, so this is only a fallback; it is long enough that a busy machine does not split the level.
const announcedWait = 100 * time.Millisecond

// announcedIdle bounds how long an announced level without any key yet stays open: nobody waits
// on it, and on a busy machine the first child may start late; its siblings must still join it.
const announcedIdle = 2 * time.Second

// NewBatch returns a Batch over fetch, which returns the values it found keyed by key. wait is the
// window for loads under a list that no parent announced.
func NewBatch[K comparable, V any](fetch func(context.Context, []K) (map[K]V, error), wait time.Duration) *Batch[K, V] {
	b := &Batch[K, V]{}
	b.init(nil, func(ctx context.Context, _ *Loaders, keys []K) (map[K]V, error) { return fetch(ctx, keys) }, wait)
	return b
}

// init readies a Batch held by value in owner: nothing is allocated until it is first used (its
// cache, its rounds), so a request pays only for the loaders it touches.
func (b *Batch[K, V]) init(owner *Loaders, fetch func(context.Context, *Loaders, []K) (map[K]V, error), wait time.Duration) {
	b.owner, b.fetch, b.wait = owner, fetch, wait
}

// get runs the fetch for keys.
func (b *Batch[K, V]) get(ctx context.Context, keys []K) (map[K]V, error) {
	return b.fetch(ctx, b.owner, keys)
}

// Expect announces that n new keys are about to be asked for together (one per child of a list
// just loaded): they leave as one batch when the n-th arrives. Sibling lists' announcements add up.
func (b *Batch[K, V]) Expect(n int) { b.expect(n, 0) }

// ExpectCalls announces that n children are about to call LoadMany (or Load), each for a list of
// keys: the keys leave as one batch when the n-th call has queued its keys.
func (b *Batch[K, V]) ExpectCalls(n int) { b.expect(0, n) }

func (b *Batch[K, V]) expect(keys, calls int) {
	if keys <= 0 && calls <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.current()
	r.wantKeys += keys
	r.wantCalls += calls
	wait := announcedWait // announced: wait for the siblings, not a window
	if !r.lastKey.IsZero() {
		wait -= b.since(r.lastKey)
	}
	r.timer.Reset(wait)
}

// Prime stores values found elsewhere (by a batch that loaded them along the way), so that
// loading their keys later costs nothing.
func (b *Batch[K, V]) Prime(values map[K]V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ensureCache()
	for k, v := range values {
		if _, seen := b.cache[k]; !seen {
			r := found[V]{v: v, ok: true}
			b.cache[k] = func() (found[V], error) { return r, nil }
		}
	}
}

// PrimeMissing records that keys have no value (a batch that looked them up along the way found
// none), so that loading them later costs nothing either.
func (b *Batch[K, V]) PrimeMissing(keys []K) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ensureCache()
	for _, k := range keys {
		if _, seen := b.cache[k]; !seen {
			b.cache[k] = func() (found[V], error) { return found[V]{}, nil }
		}
	}
}

// Load returns the value for key (ok false when fetch found none), batching it with its siblings.
func (b *Batch[K, V]) Load(ctx context.Context, key K) (V, bool, error) {
	r, err := b.queue(ctx, []K{key})[0]()
	return r.v, r.ok, err
}

// Find is Load for callers that treat a missing value as an error. Errors: storage.ErrNotFound.
func (b *Batch[K, V]) Find(ctx context.Context, key K) (V, error) {
	v, ok, err := b.Load(ctx, key)
	if err == nil && !ok {
		err = storage.ErrNotFound
	}
	return v, err
}

// LoadMany returns the values found for keys, all joining the same batch.
func (b *Batch[K, V]) LoadMany(ctx context.Context, keys []K) (map[K]V, error) {
	thunks := b.queue(ctx, keys)
	out := make(map[K]V, len(keys))
	for i, thunk := range thunks {
		r, err := thunk()
		if err != nil {
			return nil, err
		}
		if r.ok {
			out[keys[i]] = r.v
		}
	}
	return out, nil
}

// LoadEach returns one value and one error per key, in key order, with storage.ErrNotFound for
// keys fetch found nothing for (the shape of v7's LoadMany). errs is nil when all were found.
func (b *Batch[K, V]) LoadEach(ctx context.Context, keys []K) ([]V, []error) {
	thunks := b.queue(ctx, keys)
	values := make([]V, len(keys))
	errs := make([]error, len(keys))
	failed := false
	for i, thunk := range thunks {
		r, err := thunk()
		if err == nil && !r.ok {
			err = storage.ErrNotFound
		}
		values[i], errs[i] = r.v, err
		failed = failed || err != nil
	}
	if !failed {
		errs = nil
	}
	return values, errs
}

// queue returns a thunk per key, queueing the keys not seen yet: at once when the call is alone,
// else on the level being gathered.
func (b *Batch[K, V]) queue(ctx context.Context, keys []K) []dataloader.Thunk[found[V]] {
	b.mu.Lock()
	b.ensureCache()
	thunks := make([]dataloader.Thunk[found[V]], len(keys))
	var fresh []K
	for i, k := range keys {
		if t, ok := b.cache[k]; ok {
			thunks[i] = t
			continue
		}
		fresh = append(fresh, k)
		b.cache[k] = nil // claimed; filled below
	}
	var (
		full   *round[K, V]
		inline *inlineFetch[K, V]
	)
	switch {
	case alone(ctx):
		if len(fresh) > 0 {
			inline = &inlineFetch[K, V]{keys: fresh, done: make(chan struct{})}
			for _, k := range fresh {
				b.cache[k] = inline.thunk(k)
			}
		}
	case len(fresh) > 0 || b.open != nil:
		r := b.current()
		if r.ctx == nil {
			r.ctx = ctx
		}
		announced := r.wantKeys > 0 || r.wantCalls > 0
		switch {
		case !announced && b.since(r.opened) < maxWait:
			r.timer.Reset(b.wait) // unannounced siblings are still arriving: wait for the next
		case announced && len(fresh) > 0:
			r.lastKey = b.now()
			r.timer.Reset(announcedWait) // the fallback runs from the latest sibling: slow ones still join
		}
		for _, k := range fresh {
			r.keys = append(r.keys, k)
			b.cache[k] = func() (found[V], error) {
				<-r.ready
				return r.thunks[k]()
			}
		}
		r.calls++
		if (r.wantKeys > 0 && len(r.keys) >= r.wantKeys) || (r.wantCalls > 0 && r.calls >= r.wantCalls) {
			full = r
		}
	}
	for i, k := range keys {
		if thunks[i] == nil {
			thunks[i] = b.cache[k]
		}
	}
	b.mu.Unlock()
	if inline != nil {
		inline.run(ctx, b.get)
	}
	if full != nil {
		b.send(full)
	}
	return thunks
}

// inlineFetch is the fetch of a load that is alone: it runs on the caller's goroutine, with no
// v7 batch (a goroutine and a timer per load, most of a point read's loader cost). Concurrent
// callers of the same keys wait on done.
type inlineFetch[K comparable, V any] struct {
	keys   []K
	done   chan struct{}
	values map[K]V
	err    error
}

func (f *inlineFetch[K, V]) thunk(k K) dataloader.Thunk[found[V]] {
	return func() (found[V], error) {
		<-f.done
		v, ok := f.values[k]
		return found[V]{v: v, ok: ok}, f.err
	}
}

// run fetches the keys, not stopped by the caller's cancellation: others may share the result.
func (f *inlineFetch[K, V]) run(ctx context.Context, fetch func(context.Context, []K) (map[K]V, error)) {
	returned := false
	defer func() {
		if !returned { // fetch panicked: the panic goes on up the caller's stack, others get an error
			f.err = errFetchPanicked
		}
		close(f.done)
	}()
	f.values, f.err = fetch(context.WithoutCancel(ctx), f.keys)
	returned = true
}

var errFetchPanicked = errors.New("loader: the fetch panicked")

// ensureCache makes the cache on first use. Called with mu held.
func (b *Batch[K, V]) ensureCache() {
	if b.cache == nil {
		b.cache = map[K]dataloader.Thunk[found[V]]{}
	}
}

// current returns the open round, opening one (a window) if none is. Called with mu held.
func (b *Batch[K, V]) current() *round[K, V] {
	if b.open == nil {
		r := &round[K, V]{opened: b.now(), ready: make(chan struct{})}
		r.timer = b.afterFunc(b.wait, func() { b.expire(r) })
		b.open = r
	}
	return b.open
}

// expire sends a round whose wait is over, unless it is an announced round that no key has
// reached yet (and not for announcedIdle): nobody waits on it, so it waits for its first key.
func (b *Batch[K, V]) expire(r *round[K, V]) {
	b.mu.Lock()
	if idle := announcedIdle - b.since(r.opened); b.open == r && len(r.keys) == 0 && (r.wantKeys > 0 || r.wantCalls > 0) && idle > 0 {
		r.timer.Reset(idle) // the first key resets it to announcedWait
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	b.send(r)
}

// send fetches a round's keys as one v7 batch of exactly that many keys, once.
func (b *Batch[K, V]) send(r *round[K, V]) {
	b.mu.Lock()
	if b.open != r { // sent already (a timer that fired as the last key came)
		b.mu.Unlock()
		return
	}
	b.open = nil
	keys, ctx := r.keys, r.ctx
	b.mu.Unlock()
	r.timer.Stop()
	r.thunks = make(map[K]dataloader.Thunk[found[V]], len(keys))
	if len(keys) > 0 {
		l := b.loader(len(keys))
		for _, k := range keys {
			r.thunks[k] = l.Load(ctx, k)
		}
	}
	close(r.ready)
}

// loader returns a v7 loader that sends its batch when capacity keys are queued. The keys'
// thunks are cached here (with the round's), so its own cache is off.
func (b *Batch[K, V]) loader(capacity int) *dataloader.Loader[K, found[V]] {
	return dataloader.NewBatchedLoader(b.batch,
		dataloader.WithCache[K, found[V]](&dataloader.NoCache[K, found[V]]{}),
		dataloader.WithBatchCapacity[K, found[V]](capacity),
		dataloader.WithWait[K, found[V]](maxWait)) // never reached: the capacity is the keys queued
}

// batch adapts fetch to v7's one-result-per-key contract. The results are shared by every
// sibling waiting on them, so the fetch does not stop when one caller's context is cancelled.
func (b *Batch[K, V]) batch(ctx context.Context, keys []K) []*dataloader.Result[found[V]] {
	values, err := b.get(context.WithoutCancel(ctx), keys)
	out := make([]*dataloader.Result[found[V]], len(keys))
	for i, k := range keys {
		v, ok := values[k]
		out[i] = &dataloader.Result[found[V]]{Data: found[V]{v: v, ok: ok}, Error: err}
	}
	return out
}

// Alone reports whether a read has no siblings: it is not reading for an element of a list that
// a door resolves element by element (GraphQL's lists; REST reads whole lists at once). Its loads
// leave at once.
func Alone(ctx context.Context) bool { return alone(ctx) }

// InList reports whether a read made with ctx is for an element of a list whose siblings read
// alike, concurrently. A door that resolves lists element by element installs one (WithInList).
type InList func(ctx context.Context) bool

type inListKey struct{}

// WithInList returns ctx in which loads ask f whether they have siblings.
func WithInList(ctx context.Context, f InList) context.Context {
	return context.WithValue(ctx, inListKey{}, f)
}

// alone reports whether a load has no siblings to wait for.
func alone(ctx context.Context) bool {
	f, ok := ctx.Value(inListKey{}).(InList)
	return !ok || !f(ctx)
}
