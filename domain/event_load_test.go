package domain

import (
	"context"
	"math"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// BenchmarkEventFanOut commits events at a fixed rate (1,000 a second, ten to a transaction, as
// a busy organization's merges and edits would) alternately on two servers sharing one
// PostgreSQL database, and fans them out to subscribers split between the servers. Each event's
// delivery latency is measured from its commit to each subscriber. b.N is the number of events:
// -benchtime 60000x runs a minute. Sub-benchmarks:
//
//   - follow: subscribers read the outbox alone (Store.FollowEvents): the anchor;
//   - subscriptions: GraphQL's spaceEvents streams (App.SpaceEvents), with their access checks.
//
// It reports p50 and p99 latency, and events lost and duplicated (over all subscribers).
//
//	go test ./domain -run '^$' -bench EventFanOut -benchtime 60000x
//	BINDERY_EVENT_SUBSCRIBERS=200 (default), BINDERY_EVENT_RATE=1000 (default)
func BenchmarkEventFanOut(b *testing.B) {
	subscribers := envInt("BINDERY_EVENT_SUBSCRIBERS", 200)
	rate := envInt("BINDERY_EVENT_RATE", 1000)
	for _, mode := range []string{"follow", "subscriptions"} {
		b.Run(mode, func(b *testing.B) {
			dsn := storagetest.DSN(b, storage.Postgres)
			servers := []*App{
				{Store: storagetest.OpenAt(b, dsn, storage.WithMaxConns(8)), Now: time.Now},
				{Store: storagetest.OpenAt(b, dsn, storage.WithMaxConns(8)), Now: time.Now},
			}
			org, owner := storagetest.NewOrg(b, servers[0].Store, "owner@load.test")
			d := &harness{App: servers[0]}
			title := "Busy"
			sp, err := servers[0].CreateSpace(d.as(owner.ID, ""), org.ID, model.CreateSpaceInput{Title: &title})
			if err != nil {
				b.Fatal(err)
			}
			n := b.N
			lat := newLatencies()
			subs := make([]*loadSubscriber, subscribers)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for i := range subs {
				srv := servers[i%2]
				subs[i] = &loadSubscriber{seen: make([]bool, n)}
				if err := subs[i].start(ctx, srv, mode, owner.ID, sp.ID, lat); err != nil {
					b.Fatal(err)
				}
			}
			time.Sleep(500 * time.Millisecond) // every listener connected
			b.ResetTimer()
			produce(b, servers, org.ID, sp.ID, n, rate)
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) && !allReceived(subs, n) {
				time.Sleep(20 * time.Millisecond)
			}
			b.StopTimer()
			cancel()
			var lost, dup int64
			for _, s := range subs {
				s.wg.Wait()
				lost += int64(n) - s.distinct.Load()
				dup += s.dup.Load()
			}
			b.ReportMetric(lat.quantile(0.50), "p50-ms")
			b.ReportMetric(lat.quantile(0.99), "p99-ms")
			b.ReportMetric(float64(lost), "lost")
			b.ReportMetric(float64(dup), "duplicated")
			b.ReportMetric(float64(subscribers), "subscribers")
			if lost > 0 {
				b.Errorf("%d deliveries lost of %d events × %d subscribers", lost, n, subscribers)
			}
		})
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// produce commits n events at rate a second, ten to a transaction, alternating servers; each
// event's target id is its number.
func produce(b *testing.B, servers []*App, orgID, spaceID string, n, rate int) {
	const batch = 10
	tick := time.NewTicker(time.Duration(float64(time.Second) * batch / float64(rate)))
	defer tick.Stop()
	var wg sync.WaitGroup
	for start, k := 0, 0; start < n; start, k = start+batch, k+1 {
		<-tick.C
		wg.Add(1)
		go func(start int, srv *App) {
			defer wg.Done()
			ctx := context.Background()
			var last *storage.Event
			for i := start; i < min(start+batch, n); i++ {
				ev := &storage.Event{Type: EventSpaceContentUpdated, OrganizationID: orgID, SpaceID: spaceID, TargetType: "space",
					TargetID: strconv.Itoa(i), ActorType: "system", ActorID: "system", Source: "workflow", CreatedAt: time.Now()}
				if last != nil {
					ctx = storage.WithEvent(ctx, last)
				}
				last = ev
			}
			if err := srv.Store.RecordEvent(ctx, last); err != nil {
				b.Error(err)
			}
		}(start, servers[k%2])
	}
	wg.Wait()
}

type loadSubscriber struct {
	seen     []bool
	distinct atomic.Int64
	dup      atomic.Int64
	wg       sync.WaitGroup
}

func (s *loadSubscriber) got(target string, at time.Time, lat *latencies) {
	i, err := strconv.Atoi(target)
	if err != nil || i < 0 || i >= len(s.seen) {
		return
	}
	lat.add(time.Since(at))
	if s.seen[i] {
		s.dup.Add(1)
		return
	}
	s.seen[i] = true
	s.distinct.Add(1)
}

func (s *loadSubscriber) start(ctx context.Context, srv *App, mode, userID, spaceID string, lat *latencies) error {
	if mode == "follow" {
		from, err := srv.Store.LastEventSeq(ctx)
		if err != nil {
			return err
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			_ = srv.Store.FollowEvents(ctx, from, func(ev *storage.Event) error {
				if ev.SpaceID == spaceID {
					s.got(ev.TargetID, ev.CreatedAt, lat)
				}
				return nil
			})
		}()
		return nil
	}
	sub, err := srv.SpaceEvents(authz.WithActor(srv.WithRequestState(ctx), &authz.Actor{UserID: userID}), spaceID, nil)
	if err != nil {
		return err
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for ev := range sub {
			s.got(ev.Target.ID, ev.OccurredAt, lat)
		}
	}()
	return nil
}

func allReceived(subs []*loadSubscriber, n int) bool {
	for _, s := range subs {
		if s.distinct.Load() < int64(n) {
			return false
		}
	}
	return true
}

// latencies is a histogram of 50 µs buckets up to 10 s (longer ones in the last).
type latencies struct{ buckets []atomic.Int64 }

const latencyBucket = 50 * time.Microsecond

func newLatencies() *latencies {
	return &latencies{buckets: make([]atomic.Int64, int(10*time.Second/latencyBucket)+1)}
}

func (l *latencies) add(d time.Duration) {
	i := int(d / latencyBucket)
	if i < 0 {
		i = 0
	}
	l.buckets[min(i, len(l.buckets)-1)].Add(1)
}

// quantile returns the q-quantile in milliseconds (the upper edge of its bucket).
func (l *latencies) quantile(q float64) float64 {
	var total int64
	for i := range l.buckets {
		total += l.buckets[i].Load()
	}
	if total == 0 {
		return math.NaN()
	}
	want := int64(math.Ceil(q * float64(total)))
	var acc int64
	for i := range l.buckets {
		if acc += l.buckets[i].Load(); acc >= want {
			return float64(time.Duration(i+1)*latencyBucket) / float64(time.Millisecond)
		}
	}
	return math.Inf(1)
}
