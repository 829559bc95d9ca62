package storage

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// eventFeed wakes the subscribers of one Store when events commit: at once for commits of this
// process, and on PostgreSQL for every server sharing the database through LISTEN/NOTIFY (the
// NOTIFY is sent in the events' own transaction, so it arrives only for committed events).
type eventFeed struct {
	mu      sync.Mutex
	ch      chan struct{} // closed and replaced at each wake
	gen     uint64        // counts wakes
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// signal returns a channel closed at the next wake, and the number of wakes so far.
func (f *eventFeed) signal() (<-chan struct{}, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ch == nil {
		f.ch = make(chan struct{})
	}
	return f.ch, f.gen
}

func (f *eventFeed) wake() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gen++
	if f.ch != nil {
		close(f.ch)
		f.ch = nil
	}
}

func (f *eventFeed) stop() {
	f.mu.Lock()
	cancel, done := f.cancel, f.done
	f.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// eventPoll is how often a subscriber reads the outbox when nothing woke it: a safety net for a
// notification lost while the listener reconnected.
const eventPoll = 5 * time.Second

// listen starts, once per Store, the PostgreSQL listener that turns other servers' notifications
// into wakes.
func (s *Store) listen() {
	if s.dialect != Postgres {
		return
	}
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	if s.feed.started {
		return
	}
	s.feed.started = true
	ctx, cancel := context.WithCancel(context.Background())
	s.feed.cancel, s.feed.done = cancel, make(chan struct{})
	go func() {
		defer close(s.feed.done)
		for ctx.Err() == nil {
			if err := s.listenOnce(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("event listener", "err", err)
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
			s.feed.wake() // after a reconnect, read what may have been missed
		}
	}()
}

// listenOnce holds one LISTEN connection until it fails or ctx ends.
func (s *Store) listenOnce(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, s.pgDSN)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+eventsChannel); err != nil {
		return err
	}
	s.feed.wake()
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		s.feed.wake()
	}
}

// FollowEvents calls fn with every event committed after the cursor after, in seq order, until
// ctx ends or fn fails; it returns ctx's or fn's error. Every server following one PostgreSQL
// database sees every event; on SQLite, one process's commits. Followers of one Store share its
// tail of recent events (eventTail): the outbox is read once per wake, however many follow it.
// fn must not change the events: they are shared.
func (s *Store) FollowEvents(ctx context.Context, after int64, fn func(*Event) error) error {
	s.listen()
	force := false
	for {
		wake, gen := s.feed.signal() // before reading, so a commit during the read is not missed
		evs, err := s.tail.after(ctx, s, after, gen, force)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		for _, ev := range evs {
			if err := fn(ev); err != nil {
				return err
			}
			after = ev.Seq
		}
		if len(evs) > 0 {
			continue // until a read finds nothing new: then wait
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
			force = false
		case <-time.After(eventPoll):
			force = true // the safety net: read even without a wake
		}
	}
}

// tailRead is how many events one read of the outbox takes; tailKeep how many recent events a
// Store keeps for its followers.
const (
	tailRead = 500
	tailKeep = 20000
)

// eventTail is the events a Store read last, shared by its followers: it holds every committed
// event with a seq in (from, last], in order (events commit in seq order, so nothing commits
// behind last later). A follower within it reads from memory; one behind it reads the outbox.
type eventTail struct {
	mu      sync.Mutex
	started bool
	from    int64
	last    int64
	evs     []*Event
	readGen uint64    // the wake count when the last read began
	readAt  time.Time // when it began

	reading sync.Mutex // one read of the outbox at a time
}

// after returns up to tailRead events with a seq above after: from the tail, reading the outbox
// into it when the follower has seen all it holds and a wake (gen) or the safety poll (force)
// came since its last read.
func (t *eventTail) after(ctx context.Context, s *Store, after int64, gen uint64, force bool) ([]*Event, error) {
	if out, ok := t.serve(after, gen, force); ok {
		return out, nil
	}
	if t.behind(after) {
		return s.EventsAfter(ctx, after, tailRead)
	}
	t.reading.Lock()
	defer t.reading.Unlock()
	if out, ok := t.serve(after, gen, force); ok { // another follower read meanwhile
		return out, nil
	}
	t.mu.Lock()
	last := t.last
	t.mu.Unlock()
	_, now := s.feed.signal() // the wakes this read covers
	began := time.Now()
	evs, err := s.EventsAfter(ctx, last, tailRead)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.evs = append(t.evs, evs...)
	if len(evs) > 0 {
		t.last = evs[len(evs)-1].Seq
	}
	if len(evs) < tailRead { // read to the end: later reads may wait for the next wake
		t.readGen, t.readAt = now, began
	}
	if drop := len(t.evs) - tailKeep; drop > 0 {
		t.from = t.evs[drop-1].Seq
		t.evs = append([]*Event(nil), t.evs[drop:]...)
	}
	return t.slice(after), nil
}

// serve answers from the tail when it can: ok with the events after the cursor it holds, or
// ok with none when it has read since the follower's wake. The first follower starts the tail at
// its cursor.
func (t *eventTail) serve(after int64, gen uint64, force bool) ([]*Event, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.started {
		t.started, t.from, t.last = true, after, after
	}
	if after < t.from {
		return nil, false
	}
	if out := t.slice(after); len(out) > 0 {
		return out, true
	}
	fresh := t.readGen >= gen && !t.readAt.IsZero()
	if force {
		fresh = time.Since(t.readAt) < eventPoll/2
	}
	return nil, fresh
}

// behind reports whether a cursor is older than the tail.
func (t *eventTail) behind(after int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return after < t.from
}

// slice returns up to tailRead events of the tail after the cursor (the caller holds mu).
func (t *eventTail) slice(after int64) []*Event {
	i := sort.Search(len(t.evs), func(i int) bool { return t.evs[i].Seq > after })
	return t.evs[i:min(len(t.evs), i+tailRead)]
}
