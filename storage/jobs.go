package storage

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/uptrace/bun"
)

// The durable job queue is River's: its tables (river_job, river_leader, river_queue, …) live in
// Bindery's database, created by Migrate, on both dialects. A job is inserted in the same
// transaction as the state change that asks for it, so either both happen or neither does, and a
// job queued when the server stops is still there when it starts again.
//
// Storage owns the tables, the driver and the insert; domain/jobs owns the workers (what each job
// kind does) and starts the client that runs them.

// JobArgs are a job's arguments: a Kind naming what to do, and fields encoded as JSON into the
// job's row. It is River's JobArgs.
type JobArgs = river.JobArgs

// JobOptions adjust one insert. The zero value is fine.
type JobOptions struct {
	// Queue is the queue the job goes to (default: river.QueueDefault).
	Queue string
	// MaxAttempts is how often the job is tried before it is discarded (default: River's 25).
	MaxAttempts int
	// ScheduledAt delays the job until then (default: now).
	ScheduledAt time.Time
}

func (o *JobOptions) river() *river.InsertOpts {
	if o == nil {
		return nil
	}
	return &river.InsertOpts{Queue: o.Queue, MaxAttempts: o.MaxAttempts, ScheduledAt: o.ScheduledAt}
}

// JobDriver is the River driver for this Store's database, for the client that works the queue
// (domain/jobs). SQLite allows one writer at a time and River writes on every fetch and
// completion, so it uses the pool Bindery writes through (on both databases, for simplicity).
func (s *Store) JobDriver() riverdriver.Driver[*sql.Tx] {
	return s.dialect.riverDriver(s.writePool())
}

// writePool is the connection pool writes go through. On SQLite it is the one that holds the write
// lock; River must use it too, or its writes wait on (and time out behind) Bindery's.
func (s *Store) writePool() *sql.DB { return s.db.DB }

// jobInserter returns the insert-only River client, made once per Store. It never works jobs: the
// client domain/jobs starts does, polling the same tables.
func (s *Store) jobInserter() (*river.Client[*sql.Tx], error) {
	s.jobsOnce.Do(func() {
		s.jobs, s.jobsErr = river.NewClient(s.JobDriver(), &river.Config{Logger: QuietLogger()})
	})
	return s.jobs, s.jobsErr
}

// insertJobTx enqueues a job inside tx: Store methods that change state and ask for background work
// call it within their own inTx, so the job exists exactly when the change commits. It returns the
// job's id.
func (s *Store) insertJobTx(ctx context.Context, tx bun.Tx, args JobArgs, opts *JobOptions) (int64, error) {
	c, err := s.jobInserter()
	if err != nil {
		return 0, fmt.Errorf("job client: %w", err)
	}
	res, err := c.InsertTx(ctx, tx.Tx, args, opts.river())
	if err != nil {
		return 0, fmt.Errorf("insert %s job: %w", args.Kind(), err)
	}
	return res.Job.ID, nil
}

// insertJobsTx enqueues several jobs inside tx in one statement.
func (s *Store) insertJobsTx(ctx context.Context, tx bun.Tx, args []JobArgs) error {
	if len(args) == 0 {
		return nil
	}
	c, err := s.jobInserter()
	if err != nil {
		return fmt.Errorf("job client: %w", err)
	}
	params := make([]river.InsertManyParams, len(args))
	for i, a := range args {
		params[i] = river.InsertManyParams{Args: a}
	}
	if _, err := c.InsertManyTx(ctx, tx.Tx, params); err != nil {
		return fmt.Errorf("insert %d %s jobs: %w", len(args), args[0].Kind(), err)
	}
	return nil
}

// InsertJobs enqueues several jobs in one transaction: all or none.
func (s *Store) InsertJobs(ctx context.Context, args []JobArgs, opts *JobOptions) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		for _, a := range args {
			if _, err := s.insertJobTx(ctx, tx, a, opts); err != nil {
				return err
			}
		}
		return nil
	})
}

// InsertJob enqueues a job on its own, for work that follows no other write.
func (s *Store) InsertJob(ctx context.Context, args JobArgs, opts *JobOptions) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var err error
		id, err = s.insertJobTx(ctx, tx, args, opts)
		return err
	})
	return id, err
}

// migrateJobs applies River's own migrations (its versions are tracked in river_migration).
func (s *Store) migrateJobs(ctx context.Context) error {
	m, err := rivermigrate.New(s.JobDriver(), &rivermigrate.Config{Logger: QuietLogger()})
	if err != nil {
		return fmt.Errorf("job queue migrator: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("migrate job queue: %w", err)
	}
	return nil
}

// QuietLogger is the default logger at warning level and above: River reports every migration,
// election and fetch at info, which is noise in Bindery's log.
func QuietLogger() *slog.Logger {
	return slog.New(minLevel{Handler: slog.Default().Handler(), min: slog.LevelWarn})
}

type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}
