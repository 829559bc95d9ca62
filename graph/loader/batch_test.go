package loader

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/bindery/bindery/storage"
)

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

// inList gives ctx the field context of an element of a GraphQL list, as gqlgen does for the
// fields of each item it resolves.
func inList(ctx context.Context, i int) context.Context {
	list := &graphql.FieldContext{}
	return graphql.WithFieldContext(graphql.WithFieldContext(ctx, list), &graphql.FieldContext{Index: &i})
}

func TestBatchSendsExpectedSiblingsTogether(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(counting(&calls), time.Hour) // no window ever elapses here: only the count sends
	b.Expect(50)
	start := time.Now()
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
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	// The fallback for an announced level is announcedWait from its latest key: a bound a busy
	// machine does not reach by itself (maxWait did: 29 ms under load).
	if d := time.Since(start); d >= announcedWait {
		t.Errorf("the expected batch took %v: it waited out the fallback instead of leaving with its last key", d)
	}
	// The next level is not held to the spent expectation: a lone key leaves at once.
	start = time.Now()
	if _, _, err := b.Load(context.Background(), 100); err != nil || calls.Load() != 2 {
		t.Errorf("lone load after the batch: err %v, %d fetches, want 2", err, calls.Load())
	}
	if d := time.Since(start); d >= maxWait {
		t.Errorf("a lone load took %v", d)
	}
}

func TestBatchLoneLoadIsNotDelayed(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(counting(&calls), time.Hour)
	start := time.Now()
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
	if d := time.Since(start); d >= maxWait {
		t.Errorf("lone loads took %v: a batch window delayed them", d)
	}
	// 4 was cached; 6 and 8 went in one fetch.
	if calls.Load() != 3 {
		t.Errorf("fetch ran %d times, want 3", calls.Load())
	}
	values, errs := b.LoadEach(context.Background(), []int{4, 3})
	if values[0] != 40 || errs == nil || !errors.Is(errs[1], storage.ErrNotFound) || errs[0] != nil {
		t.Errorf("LoadEach = %v, %v", values, errs)
	}
}

func TestBatchWindowsSiblingsNobodyAnnounced(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(counting(&calls), 20*time.Millisecond)
	b.Prime(map[int]int{2: 7})
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := b.Load(inList(context.Background(), i), i); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	if v, _, _ := b.Load(context.Background(), 2); v != 7 {
		t.Errorf("primed value = %d, want 7 (priming wins over a later fetch)", v)
	}
}

// An expectation that more keys arrive than come (repeated keys) is sent by the fallback.
func TestBatchExpectationFallsBack(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(counting(&calls), time.Hour)
	b.Expect(3)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Load(inList(context.Background(), i), 2) // all ask for the same key
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("fallback took %v", d)
	}
}

// Sibling lists announced by their parent leave as one batch when the last list has asked,
// however slowly they come.
func TestBatchExpectedCallsLeaveTogether(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(counting(&calls), time.Millisecond)
	b.ExpectCalls(4)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 3 * time.Millisecond) // slower than the window
			keys := []int{10 * i, 10*i + 2}
			if i == 3 {
				keys = nil // a list with nothing in it still counts
			}
			if _, err := b.LoadMany(inList(context.Background(), i), keys); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	if d := time.Since(start); d >= announcedWait { // the fallback (see above)
		t.Errorf("took %v: waited out the fallback instead of leaving with the last call", d)
	}
}

// On a busy machine the children of an announced level may start well after the announcement:
// the fallback runs from the first key, so they still leave together; a level whose children
// never come sends nothing.
func TestBatchLateSiblingsStillLeaveTogether(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(counting(&calls), time.Hour)
	b.Expect(2)
	time.Sleep(announcedWait + 50*time.Millisecond) // the children are late
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				time.Sleep(announcedWait / 2) // and the second later still, within the fallback
			}
			if _, _, err := b.Load(inList(context.Background(), i), 2*i); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1: the late level was split", calls.Load())
	}
	idle := NewBatch(counting(&calls), time.Hour)
	idle.Expect(3) // nobody comes
	time.Sleep(announcedWait + 50*time.Millisecond)
	if calls.Load() != 1 {
		t.Errorf("an announced level nobody reached was fetched")
	}
}
