package storage

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// JobStats is the state of the background work, read from the database so that every server
// reports the same: River's jobs, and the outcomes Git Sync and translation runs record.
type JobStats struct {
	// Jobs counts River's jobs by kind, queue and state. Finished jobs (completed, cancelled,
	// discarded) stay counted until River deletes them (a day after they finish, by default).
	Jobs []JobCount
	// OldestDue is, by queue, how long (in seconds) the oldest job due to run has waited since
	// it became due; a queue with no job due is absent.
	OldestDue map[string]float64
	// GitSync counts Git Sync jobs by operation (Key) and state; TranslationRuns counts
	// translation runs by status (State).
	GitSync, TranslationRuns []OutcomeCount
}

// JobCount is how many of River's jobs are of one kind, in one queue and state.
type JobCount struct {
	Kind, Queue, State string
	Count              int
}

// OutcomeCount is how many recorded runs have one key and state.
type OutcomeCount struct {
	Key, State string
	Count      int
}

// JobWaiting lists the states of a River job that has yet to start.
var JobWaiting = []string{"available", "pending", "retryable", "scheduled"}

// JobStats reads the job queue and the recorded outcomes: four grouped statements over every
// organization, for metrics at scrape time.
func (s *Store) JobStats(ctx context.Context) (*JobStats, error) {
	st := &JobStats{OldestDue: map[string]float64{}}
	err := s.db.NewRaw("SELECT kind, queue, state, count(*) AS count FROM river_job GROUP BY kind, queue, state ORDER BY kind, queue, state").Scan(ctx, &st.Jobs)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	var due []struct {
		Queue string
		Age   float64
	}
	err = s.db.NewRaw("SELECT queue, max(age) AS age FROM (SELECT queue, "+s.dialect.secondsSince("scheduled_at")+" AS age FROM river_job WHERE state IN (?)) waiting WHERE age >= 0 GROUP BY queue",
		bun.In(JobWaiting)).Scan(ctx, &due)
	if err != nil {
		return nil, fmt.Errorf("age of due jobs: %w", err)
	}
	for _, d := range due {
		st.OldestDue[d.Queue] = d.Age
	}
	err = s.db.NewRaw("SELECT operation AS key, state, count(*) AS count FROM git_sync_jobs GROUP BY operation, state ORDER BY operation, state").Scan(ctx, &st.GitSync)
	if err != nil {
		return nil, fmt.Errorf("count git sync jobs: %w", err)
	}
	err = s.db.NewRaw("SELECT '' AS key, status AS state, count(*) AS count FROM translation_runs GROUP BY status ORDER BY status").Scan(ctx, &st.TranslationRuns)
	if err != nil {
		return nil, fmt.Errorf("count translation runs: %w", err)
	}
	return st, nil
}
