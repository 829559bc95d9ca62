package loader

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestBatchSendsExpectedSiblingsTogether(t *testing.T) {
	var calls atomic.Int32
	b := NewBatch(func(_ context.Context, keys []int) (map[int]int, error) {
		calls.Add(1)
		out := map[int]int{}
		for _, k := range keys {
			if k%2 == 0 {
				out[k] = k * 10
			}
		}
		return out, nil
	}, time.Hour) // the fallback never fires here: only Expect can send the batch
	b.Expect(50)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, ok, err := b.Load(context.Background(), i)
			if err != nil || ok != (i%2 == 0) || (ok && v != i*10) {
				t.Errorf("Load(%d) = %d, %v, %v", i, v, ok, err)
			}
		}()
	}
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("fetch ran %d times, want 1", calls.Load())
	}
	// Cached keys are not fetched again; a new key falls back to the wait.
	b2 := NewBatch(func(_ context.Context, keys []int) (map[int]int, error) {
		calls.Add(1)
		return map[int]int{keys[0]: 1}, nil
	}, time.Millisecond)
	b2.Load(context.Background(), 7)
	b2.Load(context.Background(), 7)
	if calls.Load() != 2 {
		t.Errorf("fetch ran %d times after a cached load, want 2", calls.Load())
	}
}
