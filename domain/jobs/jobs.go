// Package jobs runs Bindery's durable background jobs: a registry of job kinds (what each kind
// does) and the River client that works the queue tables storage owns.
//
// To add a job kind: define its arguments (a struct with a Kind() string method; its fields are
// stored as JSON), enqueue it from a Store method inside that method's transaction (storage's
// insertJobTx), and register the function that does the work in (*graph.Resolver).registerJobs
// with jobs.Add. serve and the test harness start every registered kind.
package jobs

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Job is one job being worked: its row (ID, Attempt, …) and its decoded arguments.
type Job[T storage.JobArgs] = river.Job[T]

// Registry collects the job kinds a Runner works.
type Registry struct {
	workers  *river.Workers
	kinds    []string
	periodic []*river.PeriodicJob
	// stopping is set when the Runner cancels running jobs to shut down: their errors then mean
	// "interrupted", not "failed".
	stopping atomic.Bool
	// prepare gives each run's context what a run needs of its own (Prepare).
	prepare func(context.Context) context.Context
}

// Prepare sets what every run's context is given before its work starts, as a request's is by
// the HTTP front: the graph gives each run a request state of its own.
func (r *Registry) Prepare(fn func(context.Context) context.Context) { r.prepare = fn }

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{workers: river.NewWorkers()} }

// Option adjusts how one kind is worked.
type Option func(*kindOptions)

type kindOptions struct {
	timeout time.Duration
	giveUp  any // func(context.Context, *Job[T], error), T the kind's arguments
}

// Timeout bounds one run of the kind: its context is cancelled after d (-1: never). The default
// is the Runner's Config.JobTimeout.
func Timeout(d time.Duration) Option { return func(o *kindOptions) { o.timeout = d } }

// GiveUp runs fn when a job of kind T fails its last attempt (an error or a panic; not a
// shutdown, a Retry or a Cancel), before River discards it: the resource the job works on records
// the failure instead of showing "running" for ever. fn's context outlives the job's.
func GiveUp[T storage.JobArgs](fn func(ctx context.Context, job *Job[T], err error)) Option {
	return func(o *kindOptions) { o.giveUp = fn }
}

// Add registers work as the worker of the job kind T names. A returned error makes River retry
// the job later (with backoff, up to its MaxAttempts); an error wrapped by Cancel ends it at once.
// Work that records its own failure (on the resource the job is about) should return nil.
func Add[T storage.JobArgs](r *Registry, work func(ctx context.Context, job *Job[T]) error, opts ...Option) {
	var o kindOptions
	for _, opt := range opts {
		opt(&o)
	}
	w := &worker[T]{work: work, timeout: o.timeout, reg: r}
	if o.giveUp != nil {
		fn, ok := o.giveUp.(func(context.Context, *Job[T], error))
		if !ok {
			panic(fmt.Sprintf("jobs.GiveUp of another kind given to %s", (*new(T)).Kind()))
		}
		w.giveUp = fn
	}
	river.AddWorker[T](r.workers, w)
	r.kinds = append(r.kinds, (*new(T)).Kind())
}

// Every queues a job with args every interval, on the one server elected leader (River's periodic
// jobs); the kind must be registered with Add. The first is queued an interval after start.
func Every(r *Registry, interval time.Duration, args storage.JobArgs) {
	r.periodic = append(r.periodic, river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return args, nil }, &river.PeriodicJobOpts{ID: args.Kind()}))
}

// Kinds lists the registered kinds in registration order.
func (r *Registry) Kinds() []string { return append([]string(nil), r.kinds...) }

// Retry puts the job back in the queue to run again after d, without counting an attempt: for
// work that must wait its turn.
func Retry(d time.Duration) error { return river.JobSnooze(d) }

// Cancel wraps err so that the job is not retried.
func Cancel(err error) error { return river.JobCancel(err) }

type worker[T storage.JobArgs] struct {
	river.WorkerDefaults[T]
	work    func(ctx context.Context, job *Job[T]) error
	timeout time.Duration
	reg     *Registry
	giveUp  func(context.Context, *Job[T], error)
}

func (w *worker[T]) Work(ctx context.Context, job *Job[T]) (err error) {
	if w.reg.prepare != nil {
		ctx = w.reg.prepare(ctx)
	}
	if w.giveUp != nil && job.Attempt >= job.MaxAttempts {
		defer func() {
			if p := recover(); p != nil {
				w.giveUp(context.WithoutCancel(ctx), job, fmt.Errorf("panic: %v", p))
				panic(p) // River records the panic and its trace
			}
			if err != nil && final(err) {
				w.giveUp(context.WithoutCancel(ctx), job, err)
			}
		}()
	}
	err = w.work(ctx, job)
	if err != nil && ctx.Err() != nil && w.reg.stopping.Load() {
		// Interrupted by shutdown: put the job back as it was (the attempt does not count), to run
		// first thing when a server starts again.
		return river.JobSnooze(0)
	}
	return err
}

// final reports whether err, returned by a job's last attempt, makes River discard it: a snooze
// puts it back and a cancel is the work's own decision.
func final(err error) bool {
	var snooze *river.JobSnoozeError
	var cancel *river.JobCancelError
	return !errors.As(err, &snooze) && !errors.As(err, &cancel)
}

func (w *worker[T]) Timeout(*Job[T]) time.Duration { return w.timeout }

// Config tunes a Runner. The zero value suits a server.
type Config struct {
	// Workers is how many jobs run at once (default 4).
	Workers int
	// PollInterval is how often the queue is checked for new jobs (default 1s; tests use less).
	PollInterval time.Duration
	// JobTimeout bounds a job's run unless its kind says otherwise (default 15 minutes).
	JobTimeout time.Duration
	// RescueAfter is how long after it started a job whose server died mid-run is picked up
	// again (default JobTimeout and 5 minutes; it must exceed every kind's timeout).
	RescueAfter time.Duration
}

// Runner works the queue until Stop.
type Runner struct {
	client *river.Client[*sql.Tx]
	reg    *Registry
}

// Start builds the River client for reg's kinds on store's database and starts working jobs,
// including any left queued (or interrupted) by a previous run.
func Start(ctx context.Context, store *storage.Store, reg *Registry, cfg Config) (*Runner, error) {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Second
	}
	if cfg.JobTimeout == 0 {
		cfg.JobTimeout = 15 * time.Minute
	}
	rc := &river.Config{
		Logger:            storage.QuietLogger(),
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}},
		Workers:           reg.workers,
		FetchPollInterval: cfg.PollInterval,
		FetchCooldown:     min(cfg.PollInterval, river.FetchCooldownDefault),
		JobTimeout:        cfg.JobTimeout,
		// A job whose server died mid-run is picked up again this long after it started.
		RescueStuckJobsAfter: cmp.Or(cfg.RescueAfter, max(cfg.JobTimeout, 0)+5*time.Minute),
		PeriodicJobs:         reg.periodic,
	}
	if len(reg.kinds) == 0 {
		// River refuses a client with queues but no workers; with no kinds there is nothing to run.
		rc.Queues, rc.Workers, rc.PeriodicJobs = nil, nil, nil
	}
	client, err := river.NewClient(store.JobDriver(), rc)
	if err != nil {
		return nil, fmt.Errorf("job client: %w", err)
	}
	if rc.Workers != nil {
		// Cancelling Start's context hard-stops River; the caller stops it with Stop instead, so
		// running jobs can finish.
		if err := client.Start(context.WithoutCancel(ctx)); err != nil {
			return nil, fmt.Errorf("start jobs: %w", err)
		}
	}
	return &Runner{client: client, reg: reg}, nil
}

// OnFailed calls fn with the kind of every job attempt that fails on this server (an error, a
// panic, a timeout, or a kind it does not know), until Stop: River's failure events, for metrics.
func (r *Runner) OnFailed(fn func(kind string)) {
	if len(r.reg.kinds) == 0 {
		return // a client with no kinds works no job (and River refuses to subscribe to it)
	}
	events, cancel := r.client.Subscribe(river.EventKindJobFailed)
	go func() {
		defer cancel()
		for ev := range events { // closed when the client stops
			if ev.Job != nil {
				fn(ev.Job.Kind)
			}
		}
	}()
}

// Stop lets running jobs finish (until ctx ends, then cancels them) and stops fetching. Jobs
// still queued stay queued for the next Start, and so do jobs cancelled here: they go back to the
// queue as they were and run first thing after a restart.
func (r *Runner) Stop(ctx context.Context) error {
	err := r.client.Stop(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		r.reg.stopping.Store(true)
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return r.client.StopAndCancel(stopCtx)
	}
	return err
}

// pendingStates are the states of a job that has yet to finish.
var pendingStates = []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateRetryable, rivertype.JobStateScheduled,
}

// WaitIdle blocks until no job is queued, running, or due to run again within a second (a job
// waiting out a long retry backoff does not count), or until ctx ends. Tests call it after an
// operation that enqueues work.
func (r *Runner) WaitIdle(ctx context.Context) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		busy, err := r.busy(ctx)
		if err != nil {
			return err
		}
		if !busy {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("jobs still pending: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

func (r *Runner) busy(ctx context.Context) (bool, error) {
	res, err := r.client.JobList(ctx, river.NewJobListParams().States(pendingStates...).First(100))
	if err != nil {
		return false, fmt.Errorf("list jobs: %w", err)
	}
	soon := time.Now().Add(time.Second)
	for _, j := range res.Jobs {
		switch j.State {
		case rivertype.JobStateRetryable, rivertype.JobStateScheduled:
			if j.ScheduledAt.Before(soon) {
				return true, nil
			}
		default:
			return true, nil
		}
	}
	return false, nil
}
