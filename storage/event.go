package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/uptrace/bun"
)

// Event is one committed change, as the outbox holds it: written in the same transaction as the
// change (inTx), so an event exists exactly when its change committed. Seq orders events in one
// database and is the cursor subscribers read by; ID is its public identifier (a UUID).
type Event struct {
	bun.BaseModel `bun:"table:events,alias:ev"`

	Seq            int64  `bun:"seq,pk,autoincrement"`
	ID             string `bun:"id"`
	Type           string `bun:"type"`
	OrganizationID string `bun:"organization_id,nullzero"`
	// The objects the change touched, by kind: what subscribers and webhooks filter on.
	SpaceID         string `bun:"space_id,nullzero"`
	ChangeRequestID string `bun:"change_request_id,nullzero"`
	CommentID       string `bun:"comment_id,nullzero"`
	SiteID          string `bun:"site_id,nullzero"`
	CollectionID    string `bun:"collection_id,nullzero"`
	SubjectUserID   string `bun:"subject_user_id,nullzero"` // a member, invitee or person signing in
	TeamID          string `bun:"team_id,nullzero"`
	// RevisionID is the revision the change made, when it made one (set by storage as it commits).
	RevisionID string `bun:"revision_id,nullzero"`
	// The one object the change is about (the audit log's target).
	TargetType  string `bun:"target_type"`
	TargetID    string `bun:"target_id"`
	TargetLabel string `bun:"target_label"`
	// Who made the change: "user", "integration", "installation" or "system".
	ActorType  string `bun:"actor_type"`
	ActorID    string `bun:"actor_id"`
	ActorLabel string `bun:"actor_label"`
	TokenID    string `bun:"token_id,nullzero"` // the API token the actor used, if any
	Source     string `bun:"source"`            // the contract's source: "api", "ui" or "workflow" (a job)
	// Payload is the event's compact JSON body (its fields beyond the ids above).
	Payload   string    `bun:"payload"`
	CreatedAt time.Time `bun:"created_at"`

	// PerMembership writes the event once for each organization SubjectUserID belongs to (a
	// sign-in), instead of once for OrganizationID.
	PerMembership bool `bun:"-"`
}

type pendingEventsKey struct{}

// WithEvent returns ctx carrying ev: the next transaction a Store method runs with that context
// (inTx) writes ev before it commits, and not at all when it rolls back. The caller names the
// change; storage alone knows where it commits.
func WithEvent(ctx context.Context, ev *Event) context.Context {
	prev, _ := ctx.Value(pendingEventsKey{}).([]*Event)
	evs := make([]*Event, 0, len(prev)+1)
	evs = append(append(evs, prev...), ev)
	return context.WithValue(ctx, pendingEventsKey{}, evs)
}

// pendingEvents returns the events ctx carries, and ctx without them (so that a transaction
// nested in the one that writes them does not write them again).
func pendingEvents(ctx context.Context) ([]*Event, context.Context) {
	evs, _ := ctx.Value(pendingEventsKey{}).([]*Event)
	if len(evs) == 0 {
		return nil, ctx
	}
	return evs, context.WithValue(ctx, pendingEventsKey{}, []*Event(nil))
}

type writingEventsKey struct{}

// writing is the events a transaction writes when it ends, as its statements see them.
type writing struct {
	evs []*Event
	// none: the write changed nothing (a delete of what was not there), so it has no event.
	none bool
}

// stampRevision records rev as the revision the events being written in this transaction made
// (those about its space that name none yet): an edit's, a merge's or an import's revision is
// known only inside its transaction.
func stampRevision(ctx context.Context, rev *Revision) {
	w, _ := ctx.Value(writingEventsKey{}).(*writing)
	if w == nil {
		return
	}
	for _, ev := range w.evs {
		if ev.RevisionID == "" && ev.SpaceID == rev.SpaceID {
			ev.RevisionID = rev.ID
		}
	}
}

// noEvent tells the transaction of ctx that its write changed nothing: its events are not
// written.
func noEvent(ctx context.Context) {
	if w, _ := ctx.Value(writingEventsKey{}).(*writing); w != nil {
		w.none = true
	}
}

// eventsChannel is the PostgreSQL notification channel that tells every server sharing the
// database that events committed.
const eventsChannel = "bindery_events"

// eventsLock is the transaction-level advisory lock event writers take on PostgreSQL, so that
// events commit in the order of their seq: a reader that has seen seq n never later finds an
// n-1 committed behind it. Held from the events' insert (a transaction's last statement) to its
// commit.
const eventsLock = 0x62696e64 // "bind"

// writeEvents inserts evs in tx, the last statements of a transaction, and on PostgreSQL
// notifies listeners (delivered at commit, never on rollback).
func (s *Store) writeEvents(ctx context.Context, tx bun.Tx, evs []*Event) error {
	evs, err := perMembership(ctx, tx, evs)
	if err != nil {
		return err
	}
	if len(evs) == 0 {
		return nil
	}
	if s.dialect == Postgres {
		// One statement: the lock, and the notification PostgreSQL sends at commit (never on a
		// rollback).
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(?), pg_notify(?, '')", eventsLock, eventsChannel); err != nil {
			return fmt.Errorf("lock events: %w", translate(err))
		}
	}
	for _, ev := range evs {
		if ev.ID == "" {
			ev.ID = NewUUID()
		}
		if ev.Payload == "" {
			ev.Payload = "{}"
		}
		if ev.Source == "" {
			ev.Source = "api"
		}
		if ev.ActorType == "" {
			ev.ActorType = "system"
		}
	}
	if _, err := tx.NewInsert().Model(&evs).Exec(ctx); err != nil {
		return fmt.Errorf("write events: %w", translate(err))
	}
	return nil
}

// exec runs a single-statement write: on its own when ctx carries no event, else in a
// transaction that also writes the event.
func (s *Store) exec(ctx context.Context, fn func(ctx context.Context, db bun.IDB) error) error {
	if evs, _ := pendingEvents(ctx); len(evs) == 0 {
		return fn(ctx, s.db)
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error { return fn(ctx, tx) })
}

// RecordEvent writes an event that follows no other write of Bindery's (a sign-in, a job's end).
func (s *Store) RecordEvent(ctx context.Context, ev *Event) error {
	return s.inTx(WithEvent(ctx, ev), func(context.Context, bun.Tx) error { return nil })
}

// NewUUID returns a random (version 4) UUID, the form of events' public ids.
func NewUUID() string {
	var b [16]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// EventsAfter returns up to limit events with a seq above after, in seq order: the outbox read
// by cursor.
func (s *Store) EventsAfter(ctx context.Context, after int64, limit int) ([]*Event, error) {
	var evs []*Event
	err := s.rdb.NewSelect().Model(&evs).Where("seq > ?", after).OrderExpr("seq").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", translate(err))
	}
	return evs, nil
}

// LastEventSeq returns the seq of the newest event (0 when there is none): where a subscriber
// that wants only what comes next starts.
func (s *Store) LastEventSeq(ctx context.Context) (int64, error) {
	var seq int64
	err := s.rdb.NewSelect().Table("events").ColumnExpr("COALESCE(MAX(seq), 0)").Scan(ctx, &seq)
	if err != nil {
		return 0, fmt.Errorf("last event: %w", translate(err))
	}
	return seq, nil
}

// EventFilter selects an organization's events (the audit log).
type EventFilter struct {
	OrganizationID string
	Type           string    // exact event type, when set
	ActorID        string    // exact actor id, when set
	TargetID       string    // exact target id, when set
	From, To       time.Time // inclusive bounds, when set
}

func (f EventFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	q = q.Where("ev.organization_id = ?", f.OrganizationID)
	if f.Type != "" {
		q = q.Where("ev.type = ?", f.Type)
	}
	if f.ActorID != "" {
		q = q.Where("ev.actor_id = ?", f.ActorID)
	}
	if f.TargetID != "" {
		q = q.Where("ev.target_id = ?", f.TargetID)
	}
	if !f.From.IsZero() {
		q = q.Where("ev.created_at >= ?", f.From)
	}
	if !f.To.IsZero() {
		q = q.Where("ev.created_at <= ?", f.To)
	}
	return q
}

// FindEvents pages through an organization's events matching f, newest first (the audit log).
func (s *Store) FindEvents(ctx context.Context, f EventFilter, page Window) (List[*Event], error) {
	key := sortKey{name: "events", column: "ev.seq", idCol: "ev.id", desc: true}
	return paginate(ctx, s.rdb, key, page, f.apply, func(ev *Event) (time.Time, string, string) {
		return time.Time{}, strconv.FormatInt(ev.Seq, 10), ev.ID
	})
}

// EachEvent calls fn with every event of an organization matching f, oldest first, reading in
// batches (an export of the audit log).
func (s *Store) EachEvent(ctx context.Context, f EventFilter, fn func(*Event) error) error {
	var after int64
	for {
		var evs []*Event
		if err := f.apply(s.rdb.NewSelect().Model(&evs)).Where("ev.seq > ?", after).OrderExpr("ev.seq").Limit(500).Scan(ctx); err != nil {
			return fmt.Errorf("read events: %w", translate(err))
		}
		for _, ev := range evs {
			if err := fn(ev); err != nil {
				return err
			}
			after = ev.Seq
		}
		if len(evs) < 500 {
			return nil
		}
	}
}

// FindEventByID returns one of an organization's events. Errors: ErrNotFound (also for another
// organization's event).
func (s *Store) FindEventByID(ctx context.Context, orgID, id string) (*Event, error) {
	ev := new(Event)
	err := s.rdb.NewSelect().Model(ev).Where("ev.organization_id = ?", orgID).Where("ev.id = ?", id).Limit(1).Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("find event %s: %w", id, translate(err))
	}
	return ev, nil
}

// PruneEvents deletes the events that committed before cutoff (the operator's retention) and
// returns how many.
func (s *Store) PruneEvents(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.db.NewDelete().TableExpr("events").Where("created_at < ?", cutoff).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("prune events: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// errNoChange rolls back a write that changed no row, and its events with it.
var errNoChange = errors.New("no change")

// execChanged is exec for a write that reports whether it changed anything: when it did not, its
// events are not written.
func (s *Store) execChanged(ctx context.Context, fn func(ctx context.Context, db bun.IDB) (bool, error)) (bool, error) {
	if evs, _ := pendingEvents(ctx); len(evs) == 0 {
		return fn(ctx, s.db)
	}
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		changed, err := fn(ctx, tx)
		if err == nil && !changed {
			return errNoChange
		}
		return err
	})
	if errors.Is(err, errNoChange) {
		return false, nil
	}
	return err == nil, err
}

// perMembership expands the events written once per organization of their subject.
func perMembership(ctx context.Context, tx bun.Tx, evs []*Event) ([]*Event, error) {
	out := make([]*Event, 0, len(evs))
	for _, ev := range evs {
		if !ev.PerMembership {
			out = append(out, ev)
			continue
		}
		var orgs []string
		if err := tx.NewSelect().Model((*Member)(nil)).Column("organization_id").Where("user_id = ?", ev.SubjectUserID).
			OrderExpr("organization_id").Scan(ctx, &orgs); err != nil {
			return nil, fmt.Errorf("read memberships: %w", translate(err))
		}
		for _, org := range orgs {
			one := *ev
			one.OrganizationID, one.ID, one.PerMembership = org, "", false
			out = append(out, &one)
		}
	}
	return out, nil
}

// execer is one statement that writes: a Bun insert, update or delete.
type execer interface {
	Exec(ctx context.Context, dest ...any) (sql.Result, error)
}

// write runs the one statement build makes on db: on its own when ctx carries no event, else in
// a transaction that also writes the events, unless the statement changed no row (a delete of
// what was not there writes none).
func (s *Store) write(ctx context.Context, build func(db bun.IDB) execer) (sql.Result, error) {
	if evs, _ := pendingEvents(ctx); len(evs) == 0 {
		return build(s.db).Exec(ctx)
	}
	var res sql.Result
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var err error
		if res, err = build(tx).Exec(ctx); err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			noEvent(ctx)
		}
		return nil
	})
	return res, err
}

// NoChange tells the transaction running in ctx (the context a Store method gave its callback)
// that the write changed nothing after all, so its events are not written.
func NoChange(ctx context.Context) { noEvent(ctx) }
