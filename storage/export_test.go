package storage

import (
	"context"
	"errors"

	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
)

// ErrRolledBack is what InsertJobThenRollBack returns after rolling back.
var ErrRolledBack = errors.New("rolled back on purpose")

// InsertJobThenRollBack enqueues a job in a transaction that then fails, for the test that a job
// exists only when its transaction commits.
func (s *Store) InsertJobThenRollBack(ctx context.Context, args JobArgs) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := s.insertJobTx(ctx, tx, args, nil); err != nil {
			return err
		}
		return ErrRolledBack
	})
}

// JobKinds lists the kinds of every job in the queue, in insertion order.
func (s *Store) JobKinds(ctx context.Context) ([]string, error) {
	c, err := s.jobInserter()
	if err != nil {
		return nil, err
	}
	res, err := c.JobList(ctx, river.NewJobListParams().First(1000))
	if err != nil {
		return nil, err
	}
	var kinds []string
	for _, j := range res.Jobs {
		kinds = append(kinds, j.Kind)
	}
	return kinds, nil
}
