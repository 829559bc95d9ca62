package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// Servers sharing the database count every request: concurrent increments from several servers
// (stores, each with its own connections) add up to exactly their number.
func TestRateCountsAddUpAcrossServers(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			dsn := storagetest.DSN(t, d)
			var servers []*storage.RateCounter
			for range 3 {
				servers = append(servers, storagetest.OpenAt(t, dsn, storage.WithMaxConns(4)).RateCounter())
			}
			window := time.Now().UTC().Truncate(time.Minute)
			const perWorker, workers = 20, 12
			var wg sync.WaitGroup
			errs := make(chan error, perWorker*workers)
			for w := range workers {
				wg.Go(func() {
					c := servers[w%len(servers)]
					for range perWorker {
						if err := c.Increment("token:abc", window); err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			cur, prev, err := servers[0].Get("token:abc", window, window.Add(-time.Minute))
			if err != nil || cur != perWorker*workers || prev != 0 {
				t.Fatalf("counts = %d, %d (%v), want %d, 0", cur, prev, err, perWorker*workers)
			}
		})
	}
}

// The purge deletes the counts no window reads any more (older than two windows) and keeps the
// current and previous windows'.
func TestRateCountsArePurged(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		c := s.RateCounter()
		c.Config(10, time.Minute)
		now := time.Now().UTC().Truncate(time.Minute).Add(30 * time.Second)
		current := now.Truncate(time.Minute)
		for _, w := range []time.Time{current.Add(-10 * time.Minute), current.Add(-3 * time.Minute), current.Add(-time.Minute), current} {
			if err := c.IncrementBy("address:x", w, 2); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.PurgeRateCounts(ctx, now)
		if err != nil || n != 2 {
			t.Fatalf("purged %d (%v), want the 2 windows older than two windows", n, err)
		}
		cur, prev, err := c.Get("address:x", current, current.Add(-time.Minute))
		if err != nil || cur != 2 || prev != 2 {
			t.Fatalf("after the purge: %d, %d (%v), want 2, 2", cur, prev, err)
		}
		old, _, err := c.Get("address:x", current.Add(-3*time.Minute), current.Add(-10*time.Minute))
		if err != nil || old != 0 {
			t.Fatalf("a purged window still reads %d (%v)", old, err)
		}
	})
}
