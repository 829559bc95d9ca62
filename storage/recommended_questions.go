package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// RecommendedQuestions are the questions recommended for one scope (Key), drawn from the
// revisions Fingerprint names; PendingFingerprint names those a queued job draws from.
type RecommendedQuestions struct {
	bun.BaseModel `bun:"table:recommended_questions,alias:rq"`

	Key                string `bun:"scope_key,pk"`
	OrganizationID     string
	Fingerprint        string
	PendingFingerprint string
	Questions          string // JSON array of strings
	UpdatedAt          time.Time
}

// FindRecommendedQuestions reads the questions of a scope. Errors: ErrNotFound.
func (s *Store) FindRecommendedQuestions(ctx context.Context, key string) (*RecommendedQuestions, error) {
	out := new(RecommendedQuestions)
	if err := s.rdb.NewSelect().Model(out).Where("rq.scope_key = ?", key).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// QueueRecommendedQuestions queues job to draw a scope's questions from the revisions
// fingerprint names, unless a job is already drawing from them, in one transaction. It reports
// whether it queued one.
func (s *Store) QueueRecommendedQuestions(ctx context.Context, key, orgID, fingerprint string, job JobArgs, now time.Time) (bool, error) {
	queued := false
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		row := new(RecommendedQuestions)
		err := s.forUpdate(tx.NewSelect().Model(row).Where("rq.scope_key = ?", key)).Scan(ctx)
		switch err := translate(err); {
		case errors.Is(err, ErrNotFound):
			row = &RecommendedQuestions{Key: key, OrganizationID: orgID, PendingFingerprint: fingerprint, Questions: "[]", UpdatedAt: now}
			if _, err := tx.NewInsert().Model(row).On("CONFLICT (scope_key) DO NOTHING").Exec(ctx); err != nil {
				return fmt.Errorf("record recommended questions: %w", translate(err))
			}
		case err != nil:
			return err
		case row.PendingFingerprint == fingerprint:
			return nil
		default:
			if _, err := tx.NewUpdate().Model(row).Set("pending_fingerprint = ?", fingerprint).Where("scope_key = ?", key).Exec(ctx); err != nil {
				return translate(err)
			}
		}
		queued = true
		_, err = s.insertJobTx(ctx, tx, job, &JobOptions{MaxAttempts: 5})
		return err
	})
	return queued, err
}

// SaveRecommendedQuestions stores a scope's questions (JSON) drawn from the revisions
// fingerprint names.
func (s *Store) SaveRecommendedQuestions(ctx context.Context, key, fingerprint, questions string, now time.Time) error {
	_, err := s.db.NewUpdate().Model((*RecommendedQuestions)(nil)).
		Set("fingerprint = ?", fingerprint).Set("questions = ?", questions).Set("updated_at = ?", now).
		Where("scope_key = ?", key).Exec(ctx)
	return translate(err)
}

// ForgetPendingRecommendedQuestions clears what a scope's job was drawing from, so that the
// next request queues one again (after a job gave up).
func (s *Store) ForgetPendingRecommendedQuestions(ctx context.Context, key string) error {
	_, err := s.db.NewUpdate().Model((*RecommendedQuestions)(nil)).Set("pending_fingerprint = ''").Where("scope_key = ?", key).Exec(ctx)
	return translate(err)
}
