package domain

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/domain/model"
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
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, r.workTranslationRun, jobs.Timeout(translationRunTimeout), jobs.GiveUp(r.giveUpTranslationRun))
	})
}

// workTranslationRun is the worker of translation runs.
func (r *App) workTranslationRun(ctx context.Context, job *jobs.Job[translationRunArgs]) error {
	return r.ExecuteTranslationRun(ctx, job.Args.RunID)
}

// giveUpTranslationRun fails a run whose last attempt ended in an error of the server's own (its
// database, a panic), so that it does not show "running" for ever and a new run can start.
func (r *App) giveUpTranslationRun(ctx context.Context, job *jobs.Job[translationRunArgs], cause error) {
	slog.ErrorContext(ctx, "translation run abandoned", "run", job.Args.RunID, "attempts", job.Attempt, "err", cause)
	run, err := r.Store.FindTranslationRun(ctx, job.Args.RunID)
	if err != nil || run.Status == string(model.TranslationRunCompleted) || run.Status == string(model.TranslationRunFailed) {
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			slog.ErrorContext(ctx, "translation run: recording the failure", "run", job.Args.RunID, "err", err)
		}
		return
	}
	now := r.Now()
	if run.StartedAt == nil {
		run.StartedAt = &now
	}
	failure := "the run stopped on an internal error; start a new run to try again"
	run.Status, run.Failure, run.FinishedAt = string(model.TranslationRunFailed), &failure, &now
	if err := r.Store.FinishTranslationRun(ctx, run, false, now.Sub(*run.StartedAt).Milliseconds()); err != nil {
		slog.ErrorContext(ctx, "translation run: recording the failure", "run", run.ID, "err", err)
	}
}
