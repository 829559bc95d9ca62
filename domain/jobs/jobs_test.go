package jobs_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }

type echoArgs struct {
	Message string `json:"message"`
}

func (echoArgs) Kind() string { return "test_echo" }

// recorder collects the messages of the echo jobs that ran.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (r *recorder) registry() *jobs.Registry {
	reg := jobs.NewRegistry()
	jobs.Add(reg, func(ctx context.Context, job *jobs.Job[echoArgs]) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.seen = append(r.seen, job.Args.Message)
		return nil
	})
	return reg
}

func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

var fast = jobs.Config{PollInterval: 20 * time.Millisecond}

func start(t *testing.T, s *storage.Store, reg *jobs.Registry) *jobs.Runner {
	t.Helper()
	runner, err := jobs.Start(context.Background(), s, reg, fast)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { runner.Stop(context.Background()) })
	return runner
}

func waitIdle(t *testing.T, runner *jobs.Runner) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := runner.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestQueuedJobRunsOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		var rec recorder
		runner := start(t, s, rec.registry())
		for _, m := range []string{"one", "two"} {
			if _, err := s.InsertJob(ctx, echoArgs{Message: m}, nil); err != nil {
				t.Fatal(err)
			}
		}
		waitIdle(t, runner)
		got := rec.messages()
		slices.Sort(got)
		if !slices.Equal(got, []string{"one", "two"}) {
			t.Fatalf("jobs run = %q, want each once", got)
		}
	})
}

// A job queued while no server runs (or when it stops) runs when one starts again.
func TestQueuedJobRunsAfterRestart(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := storagetest.DSN(t, d)
			open := func() *storage.Store {
				s, err := storage.Open(ctx, dsn)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Migrate(ctx); err != nil {
					t.Fatal(err)
				}
				return s
			}

			// First life: workers run, then stop; a job is queued after they stopped.
			var first recorder
			s := open()
			runner, err := jobs.Start(ctx, s, first.registry(), fast)
			if err != nil {
				t.Fatal(err)
			}
			if err := runner.Stop(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := s.InsertJob(ctx, echoArgs{Message: "queued at stop"}, nil); err != nil {
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond)
			s.Close()
			if got := first.messages(); len(got) != 0 {
				t.Fatalf("stopped runner ran %q", got)
			}

			// Second life: the job runs.
			var second recorder
			s = open()
			defer s.Close()
			runner = start(t, s, second.registry())
			waitIdle(t, runner)
			if got := second.messages(); len(got) != 1 || got[0] != "queued at stop" {
				t.Fatalf("after restart ran %q, want the queued job once", got)
			}
			runner.Stop(ctx)
		})
	}
}

type blockArgs struct{}

func (blockArgs) Kind() string { return "test_block" }

// A job running when the server stops is interrupted and runs again, in full, after a restart.
func TestRunningJobRunsAgainAfterRestart(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := storagetest.DSN(t, d)
			s, err := storage.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			started := make(chan struct{})
			reg := jobs.NewRegistry()
			jobs.Add(reg, func(ctx context.Context, job *jobs.Job[blockArgs]) error {
				close(started)
				<-ctx.Done() // a long job, interrupted
				return ctx.Err()
			})
			runner, err := jobs.Start(ctx, s, reg, fast)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.InsertJob(ctx, blockArgs{}, nil); err != nil {
				t.Fatal(err)
			}
			select {
			case <-started:
			case <-time.After(20 * time.Second):
				t.Fatal("job never started")
			}
			stopCtx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			if err := runner.Stop(stopCtx); err != nil {
				t.Fatalf("stop: %v", err)
			}
			s.Close()

			s, err = storage.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var ran atomic.Int32
			reg = jobs.NewRegistry()
			jobs.Add(reg, func(ctx context.Context, job *jobs.Job[blockArgs]) error {
				ran.Add(1)
				return nil
			})
			runner = start(t, s, reg)
			waitIdle(t, runner)
			if ran.Load() != 1 {
				t.Fatalf("interrupted job ran %d times after restart, want 1", ran.Load())
			}
			runner.Stop(ctx)
		})
	}
}

type flakyArgs struct {
	Name      string `json:"name"`
	FailTimes int    `json:"failTimes"` // attempts that fail before one succeeds (-1: all of them)
	Panic     bool   `json:"panic"`
}

func (flakyArgs) Kind() string { return "test_flaky" }

// A job that fails its last attempt hands its error to GiveUp once; a failed attempt that is not
// the last, and a job that succeeds in the end, do not.
func TestGiveUpRunsOnTheLastFailedAttemptOnly(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		ctx := context.Background()
		var mu sync.Mutex
		gaveUp := map[string]string{}
		done := make(chan string, 3)
		reg := jobs.NewRegistry()
		jobs.Add(reg, func(ctx context.Context, job *jobs.Job[flakyArgs]) error {
			if job.Args.FailTimes >= 0 && job.Attempt > job.Args.FailTimes {
				done <- job.Args.Name
				return nil
			}
			if job.Args.Panic {
				panic("boom")
			}
			return errors.New("attempt failed")
		}, jobs.GiveUp(func(ctx context.Context, job *jobs.Job[flakyArgs], err error) {
			mu.Lock()
			gaveUp[job.Args.Name] = err.Error()
			mu.Unlock()
			done <- job.Args.Name
		}))
		start(t, s, reg)
		for _, j := range []struct {
			args     flakyArgs
			attempts int
		}{
			{flakyArgs{Name: "fails", FailTimes: -1}, 1},
			{flakyArgs{Name: "panics", FailTimes: -1, Panic: true}, 1},
			{flakyArgs{Name: "recovers", FailTimes: 1}, 2},
		} {
			if _, err := s.InsertJob(ctx, j.args, &storage.JobOptions{MaxAttempts: j.attempts}); err != nil {
				t.Fatal(err)
			}
		}
		for range 3 {
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("jobs did not finish")
			}
		}
		mu.Lock()
		defer mu.Unlock()
		want := map[string]string{"fails": "attempt failed", "panics": "panic: boom"}
		if !maps.Equal(gaveUp, want) {
			t.Errorf("gave up on %v, want %v", gaveUp, want)
		}
	})
}
