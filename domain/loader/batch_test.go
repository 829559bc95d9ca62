package loader

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/graph-gophers/dataloader/v7"
)

// The batch's windows and fallbacks run on a fakeClock here: it moves only when a test advances
// it, so every assertion about what left when is exact, however slow the machine.

// fakeClock is a Clock that moves only by Advance; it runs the timers that come due on the
// caller's goroutine, in order.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*fakeTimer
	started int // timers started
	fired   int // timers that ran
}

type fakeTimer struct {
	c      *fakeClock
	at     time.Time
	f      func()
	active bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f, active: true}
	c.timers = append(c.timers, t)
	c.started++
	return t
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.at, t.active = t.c.now.Add(d), true
	return was
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

// Advance moves the clock by d, running each timer that comes due on the way at its time.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		var next *fakeTimer
		for _, t := range c.timers {
			if t.active && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		c.now, next.active = next.at, false
		c.fired++
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

func (c *fakeClock) counts() (started, fired int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started, c.fired
}

// counting returns a fetch that finds even keys (k*10) and counts its calls.
func counting(calls *atomic.Int32) func(context.Context, []int) (map[int]int, error) {
	return func(_ context.Context, keys []int) (map[int]int, error) {
		calls.Add(1)
		out := map[int]int{}
		for _, k := range keys {
			if k%2 == 0 {
				out[k] = k * 10
			}
		}
		return out, nil
	}
}

// newTestBatch returns a batch over counting(calls) whose clock is a fakeClock.
func newTestBatch(calls *atomic.Int32, wait time.Duration) (*Batch[int, int], *fakeClock) {
	b := NewBatch(counting(calls), wait)
	c := newFakeClock()
	b.SetClock(c)
	return b, c
}

// inList gives ctx what a door that resolves lists element by element says of an element's
// reads: they have siblings.
func inList(ctx context.Context, i int) context.Context {
	return WithInList(ctx, func(context.Context) bool { return true })
}

// isOpen reports whether b still gathers a level (nothing of it has been sent).
func isOpen(b *Batch[int, int]) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.open != nil
}

// waitDone waits for wg. The fake clock never moves by itself, so loads that waited for a timer
// would wait forever: the bound turns that into a failure (it is no synchronisation).
func waitDone(t *testing.T, wg *sync.WaitGroup, what string) {
	t.Helper()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: the loads never returned: they waited for a timer of a clock that does not move", what)
	}
}

func TestBatchSendsExpectedSiblingsTogether(t *testing.T) {
	var calls atomic.Int32
	b, clock := newTestBatch(&calls, time.Hour)
	b.Expect(50)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, ok, err := b.Load(inList(context.Background(), i), i)
			if err != nil || ok != (i%2 == 0) || (ok && v != i*10) {
				t.Errorf("Load(%d) = %d, %v, %v", i, v, ok, err)
			}
		}()
	}
	waitDone(t, &wg, "50 announced siblings")
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	if _, fired := clock.counts(); fired != 0 {
		t.Errorf("%d timers fired: the batch waited out its fallback instead of leaving with its last key", fired)
	}
	// The next level is not held to the spent expectation: a lone key leaves at once.
	if _, _, err := b.Load(context.Background(), 100); err != nil || calls.Load() != 2 {
		t.Errorf("lone load after the batch: err %v, %d fetches, want 2", err, calls.Load())
	}
}

func TestBatchLoneLoadIsNotDelayed(t *testing.T) {
	var calls atomic.Int32
	b, clock := newTestBatch(&calls, time.Hour)
	if v, err := b.Find(context.Background(), 4); err != nil || v != 40 {
		t.Errorf("Find(4) = %d, %v", v, err)
	}
	if _, err := b.Find(context.Background(), 3); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("Find(3) error = %v, want ErrNotFound", err)
	}
	found, err := b.LoadMany(context.Background(), []int{4, 6, 8, 6})
	if err != nil || len(found) != 3 || found[8] != 80 {
		t.Errorf("LoadMany = %v, %v", found, err)
	}
	// 4 was cached; 6 and 8 went in one fetch.
	if calls.Load() != 3 {
		t.Errorf("fetch ran %d times, want 3", calls.Load())
	}
	values, errs := b.LoadEach(context.Background(), []int{4, 3})
	if values[0] != 40 || errs == nil || !errors.Is(errs[1], storage.ErrNotFound) || errs[0] != nil {
		t.Errorf("LoadEach = %v, %v", values, errs)
	}
	if started, _ := clock.counts(); started != 0 {
		t.Errorf("lone loads started %d timers: a batch window delayed them", started)
	}
}

// Loads nobody announced wait while siblings keep coming within the window, for at most maxWait
// from the first; then the window runs out from the last.
func TestBatchWindowsSiblingsNobodyAnnounced(t *testing.T) {
	const window = 20 * time.Millisecond
	var calls atomic.Int32
	b, clock := newTestBatch(&calls, window)
	b.Prime(map[int]int{2: 7})
	var thunks []dataloader.Thunk[found[int]]
	for i := range 4 { // at 0, 10, 20 and 30 ms: the last comes after maxWait and extends nothing
		thunks = append(thunks, b.queue(inList(context.Background(), i), []int{i})...)
		if !isOpen(b) || calls.Load() != 0 {
			t.Fatalf("key %d: the window closed while siblings kept coming", i)
		}
		clock.Advance(10 * time.Millisecond)
	}
	// Now 40 ms: the window set by the key at 20 ms (the last before maxWait) ends now.
	if isOpen(b) {
		t.Fatal("the window outlived maxWait")
	}
	for i, thunk := range thunks {
		if r, err := thunk(); err != nil || (i != 2 && r.ok != (i%2 == 0)) {
			t.Errorf("key %d: %+v, %v", i, r, err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	if v, _, _ := b.Load(context.Background(), 2); v != 7 {
		t.Errorf("primed value = %d, want 7 (priming wins over a later fetch)", v)
	}

	// A window that nobody extends ends after exactly its wait.
	b.queue(inList(context.Background(), 0), []int{50})
	clock.Advance(window - time.Nanosecond)
	if !isOpen(b) {
		t.Fatal("a window ended early")
	}
	clock.Advance(time.Nanosecond)
	if isOpen(b) {
		t.Fatal("a window outlived its wait")
	}
}

// An expectation that more keys arrive than come (repeated keys) is sent by the fallback,
// announcedWait after the latest key.
func TestBatchExpectationFallsBack(t *testing.T) {
	var calls atomic.Int32
	b, clock := newTestBatch(&calls, time.Hour)
	b.Expect(3)
	var thunks []dataloader.Thunk[found[int]]
	for i := range 3 {
		thunks = append(thunks, b.queue(inList(context.Background(), i), []int{2})...) // all ask for the same key
	}
	clock.Advance(announcedWait - time.Nanosecond)
	if !isOpen(b) || calls.Load() != 0 {
		t.Fatal("the level left before its fallback")
	}
	clock.Advance(time.Nanosecond)
	if isOpen(b) {
		t.Fatal("the level outlived its fallback")
	}
	for _, thunk := range thunks {
		if r, err := thunk(); err != nil || r.v != 20 {
			t.Errorf("key 2: %+v, %v", r, err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
}

// Sibling lists announced by their parent leave as one batch when the last list has asked,
// however slowly they come.
func TestBatchExpectedCallsLeaveTogether(t *testing.T) {
	var calls atomic.Int32
	b, clock := newTestBatch(&calls, time.Millisecond)
	b.ExpectCalls(4)
	var thunks []dataloader.Thunk[found[int]]
	for i := range 4 {
		keys := []int{10 * i, 10*i + 2}
		if i == 3 {
			keys = nil // a list with nothing in it still counts
		}
		if i > 0 && !isOpen(b) {
			t.Fatalf("the level left after %d of 4 calls", i)
		}
		thunks = append(thunks, b.queue(inList(context.Background(), i), keys)...)
		clock.Advance(announcedWait - time.Millisecond) // each far slower than the window
	}
	if _, fired := clock.counts(); fired != 0 || isOpen(b) {
		t.Fatalf("%d timers fired, open %v: the level did not leave with its last call", fired, isOpen(b))
	}
	for _, thunk := range thunks {
		if _, err := thunk(); err != nil {
			t.Error(err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}

	// Through LoadMany, from parallel resolvers: the clock never moves, so only the count sends.
	b.ExpectCalls(3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			found, err := b.LoadMany(inList(context.Background(), i), []int{100 + 2*i, 101 + 2*i})
			if err != nil || len(found) != 1 || found[100+2*i] != (100+2*i)*10 {
				t.Errorf("LoadMany %d = %v, %v", i, found, err)
			}
		}()
	}
	waitDone(t, &wg, "3 announced calls")
	if calls.Load() != 2 {
		t.Errorf("fetch ran %d times, want 2", calls.Load())
	}
}

// On a busy machine the children of an announced level may start well after the announcement:
// the fallback runs from the first key, so they still leave together; a level whose children
// never come sends nothing and closes after announcedIdle.
func TestBatchLateSiblingsStillLeaveTogether(t *testing.T) {
	var calls atomic.Int32
	b, clock := newTestBatch(&calls, time.Hour)
	b.Expect(2)
	clock.Advance(announcedWait + 50*time.Millisecond) // the children are late
	if !isOpen(b) {
		t.Fatal("an announced level nobody reached yet was closed")
	}
	first := b.queue(inList(context.Background(), 0), []int{0})
	clock.Advance(announcedWait - time.Nanosecond) // and the second later still, within the fallback
	second := b.queue(inList(context.Background(), 1), []int{2})
	if isOpen(b) {
		t.Fatal("the level did not leave with its second key")
	}
	for i, thunk := range append(first, second...) {
		if r, err := thunk(); err != nil || r.v != 20*i {
			t.Errorf("key %d: %+v, %v", 2*i, r, err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1: the late level was split", calls.Load())
	}

	idle, clock := newTestBatch(&calls, time.Hour)
	idle.Expect(3) // nobody comes
	clock.Advance(announcedIdle - time.Nanosecond)
	if !isOpen(idle) {
		t.Fatal("an announced level closed before announcedIdle")
	}
	clock.Advance(time.Nanosecond)
	if isOpen(idle) {
		t.Fatal("an announced level nobody reached outlived announcedIdle")
	}
	if calls.Load() != 1 {
		t.Errorf("an announced level nobody reached was fetched")
	}
}
