package domain

import (
	"context"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// follow collects, on a channel, every event committed after now.
func follow(t *testing.T, s *storage.Store) <-chan *storage.Event {
	t.Helper()
	after, err := s.LastEventSeq(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan *storage.Event, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.FollowEvents(ctx, after, func(ev *storage.Event) error { out <- ev; return nil })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return out
}

// receive waits for the next event, well under the subscribers' safety poll: it must arrive by
// a wake (in process, or PostgreSQL's NOTIFY).
func receive(t *testing.T, ch <-chan *storage.Event, who string) *storage.Event {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(2 * time.Second):
		t.Fatalf("%s received no event", who)
		return nil
	}
}

// Two servers sharing one PostgreSQL database both see every event either commits, at once.
func TestEventsReachEveryServerSharingPostgres(t *testing.T) {
	dsn := storagetest.DSN(t, storage.Postgres)
	one := &App{Store: storagetest.OpenAt(t, dsn, storage.WithMaxConns(4)), Now: time.Now}
	two := &App{Store: storagetest.OpenAt(t, dsn, storage.WithMaxConns(4)), Now: time.Now}
	org, owner := storagetest.NewOrg(t, one.Store, "owner@two-servers.test")
	atOne, atTwo := follow(t, one.Store), follow(t, two.Store)
	time.Sleep(200 * time.Millisecond) // both listeners connected
	d := &harness{App: one}
	title := "From server one"
	sp, err := one.CreateSpace(d.as(owner.ID, ""), org.ID, model.CreateSpaceInput{Title: &title})
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range []*storage.Event{receive(t, atOne, "server one"), receive(t, atTwo, "server two")} {
		if got.Type != EventSpaceCreated || got.SpaceID != sp.ID {
			t.Errorf("event = %s on %s, want space_created on %s", got.Type, got.SpaceID, sp.ID)
		}
	}
	d2 := &harness{App: two}
	if _, err := two.DeleteSpace(d2.as(owner.ID, ""), sp.ID); err != nil {
		t.Fatal(err)
	}
	for _, got := range []*storage.Event{receive(t, atOne, "server one"), receive(t, atTwo, "server two")} {
		if got.Type != EventSpaceDeleted {
			t.Errorf("event = %s, want space_deleted", got.Type)
		}
	}
}

// On either database a subscriber of the process that commits is woken at once, and one that
// starts from an earlier cursor reads what it missed, in order.
func TestSubscriberReadsByCursor(t *testing.T) {
	eachDB(t, func(t *testing.T, d *harness) {
		org, owner := storagetest.NewOrg(t, d.Store, "owner@cursor.test")
		ctx := d.as(owner.ID, "")
		start, err := d.Store.LastEventSeq(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		live := follow(t, d.Store)
		var ids []string
		for _, title := range []string{"A", "B", "C"} {
			sp, err := d.CreateSpace(ctx, org.ID, model.CreateSpaceInput{Title: &title})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, sp.ID)
			if got := receive(t, live, "the subscriber"); got.SpaceID != sp.ID {
				t.Fatalf("live event for %s, want %s", got.SpaceID, sp.ID)
			}
		}
		var replay []string
		rctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		_ = d.Store.FollowEvents(rctx, start, func(ev *storage.Event) error {
			replay = append(replay, ev.SpaceID)
			if len(replay) == 3 {
				cancel()
			}
			return nil
		})
		if !equalStrings(replay, ids) {
			t.Errorf("replayed %v, want %v", replay, ids)
		}
	})
}
