package storage

import (
	"context"
	"log/slog"
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
	started bool
	cancel  context.CancelFunc
	done    chan struct{}
}

// signal returns a channel closed at the next wake.
func (f *eventFeed) signal() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ch == nil {
		f.ch = make(chan struct{})
	}
	return f.ch
}

func (f *eventFeed) wake() {
	f.mu.Lock()
	defer f.mu.Unlock()
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
// database sees every event; on SQLite, one process's commits.
func (s *Store) FollowEvents(ctx context.Context, after int64, fn func(*Event) error) error {
	s.listen()
	for {
		wake := s.feed.signal() // before reading, so a commit during the read is not missed
		evs, err := s.EventsAfter(ctx, after, 500)
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
		if len(evs) == 500 {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		case <-time.After(eventPoll):
		}
	}
}
