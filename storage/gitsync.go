package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// GitSyncJob is one import or export of a space asked for: its request (credentials removed),
// its state and its outcome. Credentials, encrypted by the caller, are kept only until it ends.
type GitSyncJob struct {
	bun.BaseModel `bun:"table:git_sync_jobs,alias:gsj"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SpaceID        string
	Operation      string // import, export
	State          string // queued, running, succeeded, failed, skipped
	Error          *string
	Request        string  // JSON, owned by the API layer
	Credentials    *string // encrypted by the API layer; erased when the job ends
	OrderedAt      time.Time
	RevisionID     *string
	CommitOID      *string
	CreatedBy      *string
	CreatedAt      time.Time
	StartedAt      *time.Time
	FinishedAt     *time.Time
}

// Git sync job states.
const (
	GitJobQueued    = "queued"
	GitJobRunning   = "running"
	GitJobSucceeded = "succeeded"
	GitJobFailed    = "failed"
	GitJobSkipped   = "skipped"
)

// ErrBusy: another job of the same space runs, or an earlier one waits; try again later.
var ErrBusy = errors.New("busy")

// QueueGitSyncJob records the job and enqueues args (the durable job that will run it) in one
// transaction. Errors: ErrNotFound (no such live space).
func (s *Store) QueueGitSyncJob(ctx context.Context, job *GitSyncJob, args JobArgs) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		n, err := tx.NewSelect().Model((*Space)(nil)).Where("id = ? AND deleted_at IS NULL", job.SpaceID).Count(ctx)
		if err != nil {
			return translate(err)
		}
		if n == 0 {
			return ErrNotFound
		}
		job.State = GitJobQueued
		if _, err := tx.NewInsert().Model(job).Exec(ctx); err != nil {
			return fmt.Errorf("insert git sync job: %w", translate(err))
		}
		_, err = s.insertJobTx(ctx, tx, args, nil)
		return err
	})
}

// ClaimGitSyncJob marks a queued job running and returns it with its space, unless the job has
// already ended (ended true: nothing to do). Jobs of one space run one at a time and in the order
// they were asked for: while another job of the space runs, or an earlier one waits, it returns
// ErrBusy. A job found running is its own interrupted run, claimed again.
func (s *Store) ClaimGitSyncJob(ctx context.Context, id string, now time.Time) (job *GitSyncJob, space *Space, ended bool, err error) {
	err = s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		job = new(GitSyncJob)
		if err := tx.NewSelect().Model(job).Where("gsj.id = ?", id).Scan(ctx); err != nil {
			return translate(err)
		}
		if job.State != GitJobQueued && job.State != GitJobRunning {
			ended = true
			return nil
		}
		// Jobs of a space take turns on the space's row lock.
		if space, err = s.lockSpace(ctx, tx, job.SpaceID); err != nil {
			return err
		}
		ahead, err := tx.NewSelect().Model((*GitSyncJob)(nil)).
			Where("space_id = ? AND id <> ?", job.SpaceID, job.ID).
			Where("(state = ? OR (state = ? AND (created_at < ? OR (created_at = ? AND id < ?))))",
				GitJobRunning, GitJobQueued, job.CreatedAt, job.CreatedAt, job.ID).
			Count(ctx)
		if err != nil {
			return translate(err)
		}
		if ahead > 0 {
			return ErrBusy
		}
		job.State, job.StartedAt = GitJobRunning, &now
		_, err = tx.NewUpdate().Model(job).Column("state", "started_at").WherePK().Exec(ctx)
		return translate(err)
	})
	return job, space, ended, err
}

// GitJobOutcome is how a job ended.
type GitJobOutcome struct {
	State      string
	Error      *string
	RevisionID *string
	CommitOID  *string
	// GitSync, when set, becomes the space's sync set-up.
	GitSync *string
	// RevisionGit, when set, is recorded on the outcome's revision (an export's commit).
	RevisionGit *string
}

// FinishGitSyncJob records a job's end, erases its credentials and, when the outcome says so,
// updates the space's sync set-up.
func (s *Store) FinishGitSyncJob(ctx context.Context, id string, out GitJobOutcome, now time.Time) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		return finishGitJob(ctx, tx, id, out, now)
	})
}

func finishGitJob(ctx context.Context, tx bun.Tx, id string, out GitJobOutcome, now time.Time) error {
	job := &GitSyncJob{ID: id, State: out.State, Error: out.Error, RevisionID: out.RevisionID, CommitOID: out.CommitOID, FinishedAt: &now}
	res, err := tx.NewUpdate().Model(job).Column("state", "error", "revision_id", "commit_oid", "finished_at").
		Set("credentials = NULL").WherePK().Exec(ctx)
	if err != nil {
		return fmt.Errorf("finish git sync job: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	if out.RevisionGit != nil && out.RevisionID != nil {
		if _, err := tx.NewUpdate().Model((*Revision)(nil)).Set("git = ?", *out.RevisionGit).Where("id = ?", *out.RevisionID).Exec(ctx); err != nil {
			return fmt.Errorf("record the revision's commit: %w", translate(err))
		}
	}
	if out.GitSync == nil {
		return nil
	}
	sp := new(GitSyncJob)
	if err := tx.NewSelect().Model(sp).Column("space_id").Where("id = ?", id).Scan(ctx); err != nil {
		return translate(err)
	}
	_, err = tx.NewUpdate().Model((*Space)(nil)).Set("git_sync = ?", *out.GitSync).Where("id = ?", sp.SpaceID).Exec(ctx)
	return translate(err)
}

// GitImport describes the revision an import makes.
type GitImport struct {
	JobID  string
	Author string
	// Git is the revision's commit metadata (JSON).
	Git string
	// Standalone: the revision does not become the space's content (it lives on a line of its own,
	// layered over the space's current content).
	Standalone bool
	// Outcome is recorded on the job in the same transaction (its RevisionID is filled in).
	Outcome GitJobOutcome
}

// CommitGitImport applies, in one transaction, the edit fn computes from the space's current
// content as a new revision (or a standalone one), and records the job's outcome. Nothing is
// written when fn fails. Errors: ErrNotFound, and fn's own.
func (s *Store) CommitGitImport(ctx context.Context, spaceID string, clock func() time.Time, in GitImport, fn func(ctx context.Context, c *ContentTx) (*Edit, error)) (*Revision, error) {
	var rev *Revision
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		space, err := s.lockSpace(ctx, tx, spaceID)
		if err != nil {
			return err
		}
		now := clock()
		line := newLineState(space)
		if in.Standalone {
			id := NewID()
			line = lineState{space: space, line: id, seq: 0, revisionID: space.RevisionID,
				view: View{SpaceID: space.ID, BaseSeq: space.RevisionSeq, ChangeRequestID: id}}
		}
		edit, err := fn(ctx, &ContentTx{tx: tx, View: line.view, OrganizationID: space.OrganizationID, Now: now})
		if err != nil {
			return err
		}
		meta := &Revision{Type: "edits", CreatedBy: authorOf(in.Author), Git: &in.Git}
		if in.Standalone {
			rev, err = s.commitStandalone(ctx, tx, line, edit, meta, now)
		} else {
			rev, err = s.commitEdit(ctx, tx, line, edit, meta, now)
		}
		if err != nil {
			return err
		}
		in.Outcome.RevisionID = &rev.ID
		return finishGitJob(ctx, tx, in.JobID, in.Outcome, now)
	})
	return rev, err
}

// commitStandalone writes edit on a line of its own over the space's current content: a revision
// of the space that is not its head.
func (s *Store) commitStandalone(ctx context.Context, tx bun.Tx, l lineState, edit *Edit, rev *Revision, now time.Time) (*Revision, error) {
	if err := insertContents(ctx, tx, l.space.OrganizationID, edit.Contents, now); err != nil {
		return nil, err
	}
	w := lineWrite{tx: tx, space: l.space, line: l.line, view: l.view, seq: 1, overlay: true}
	if err := writeVersions(ctx, w, pageVersions, edit.Pages, edit.RemovedPages); err != nil {
		return nil, err
	}
	if err := writeVersions(ctx, w, fileVersions, edit.Files, edit.RemovedFiles); err != nil {
		return nil, err
	}
	if err := writeVersions(ctx, w, reusableContentVersions, edit.ReusableContents, edit.RemovedReusableContents); err != nil {
		return nil, err
	}
	base := l.space.RevisionSeq
	rev.ID, rev.OrganizationID, rev.SpaceID, rev.Line, rev.Seq, rev.BaseSeq, rev.CreatedAt = NewID(), l.space.OrganizationID, l.space.ID, l.line, 1, &base, now
	rev.Parents = jsonList(l.space.RevisionID)
	if _, err := tx.NewInsert().Model(rev).Exec(ctx); err != nil {
		return nil, fmt.Errorf("insert revision: %w", translate(err))
	}
	return rev, nil
}

// GitSyncJobs lists a space's jobs, newest first: a keyset page.
func (s *Store) GitSyncJobs(ctx context.Context, spaceID string, page Window) (List[*GitSyncJob], error) {
	key := sortKey{name: "git-sync-jobs", column: "gsj.created_at", idCol: "gsj.id", desc: true, isTime: true}
	return paginate(ctx, s.db, key, page, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("gsj.space_id = ?", spaceID)
	}, func(j *GitSyncJob) (time.Time, string, string) { return j.CreatedAt, "", j.ID })
}

// LastGitSyncJob is the space's newest job. Errors: ErrNotFound.
func (s *Store) LastGitSyncJob(ctx context.Context, spaceID string) (*GitSyncJob, error) {
	job := new(GitSyncJob)
	if err := s.db.NewSelect().Model(job).Where("gsj.space_id = ?", spaceID).
		OrderExpr("gsj.created_at DESC, gsj.id DESC").Limit(1).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return job, nil
}

// FindGitSyncJob reads one job of a space. Errors: ErrNotFound.
func (s *Store) FindGitSyncJob(ctx context.Context, spaceID, id string) (*GitSyncJob, error) {
	job := new(GitSyncJob)
	if err := s.db.NewSelect().Model(job).Where("gsj.space_id = ? AND gsj.id = ?", spaceID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return job, nil
}
