package graph

import (
	"context"
	"time"

	"github.com/bindery/bindery/graph/jobs"
	"github.com/bindery/bindery/storage"
)

// translationRunArgs is the durable job that works one translation run. It holds only the run's
// id: everything else is read when the job runs.
type translationRunArgs struct {
	RunID string `json:"runId"`
}

// Kind names the job kind in the queue.
func (translationRunArgs) Kind() string { return "translation_run" }

func newTranslationRunJob(runID string) storage.JobArgs { return translationRunArgs{RunID: runID} }

// translationRunTimeout bounds one attempt of a run; a run cut short resumes on the next attempt
// with the pages it had stored.
const translationRunTimeout = time.Hour

func init() {
	addJobKinds(func(r *Resolver, reg *jobs.Registry) {
		jobs.Add(reg, r.workTranslationRun, jobs.Timeout(translationRunTimeout))
	})
}

// workTranslationRun is the worker of translation runs.
func (r *Resolver) workTranslationRun(ctx context.Context, job *jobs.Job[translationRunArgs]) error {
	return r.ExecuteTranslationRun(ctx, job.Args.RunID)
}
