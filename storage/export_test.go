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

// IndexedColumns lists each index of table with its columns in order.
func (s *Store) IndexedColumns(ctx context.Context, table string) (map[string][]string, error) {
	out := map[string][]string{}
	var names []string
	if s.dialect == Postgres {
		var rows []struct {
			Index  string `bun:"index"`
			Column string `bun:"col"`
		}
		err := s.db.NewRaw(`SELECT i.relname AS index, a.attname AS col
			FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
			CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
			JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
			WHERE t.relname = ? ORDER BY i.relname, k.n`, table).Scan(ctx, &rows)
		for _, r := range rows {
			out[r.Index] = append(out[r.Index], r.Column)
		}
		return out, err
	}
	if err := s.db.NewRaw(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`, table).Scan(ctx, &names); err != nil {
		return nil, err
	}
	for _, name := range names {
		var cols []struct {
			Name string `bun:"name"`
		}
		if err := s.db.NewRaw(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`, name).Scan(ctx, &cols); err != nil {
			return nil, err
		}
		for _, c := range cols {
			out[name] = append(out[name], c.Name)
		}
	}
	return out, nil
}
