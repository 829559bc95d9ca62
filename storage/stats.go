package storage

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/uptrace/bun"
)

// SQLDB is the connection pool, for its statistics (metrics) and nothing else: queries go through
// Store methods.
func (s *Store) SQLDB() *sql.DB { return s.db.DB }

// AddQueryHook adds a Bun query hook (tracing) to every statement the Store runs from now on.
// Call it before the Store is shared: it is not safe alongside running queries.
func (s *Store) AddQueryHook(h bun.QueryHook) {
	s.hooks = append(s.hooks, h)
	reads := s.rdb != s.db
	s.db = s.db.WithQueryHook(h)
	if reads {
		s.rdb = s.rdb.WithQueryHook(h) // SQLite's read pool is a DB of its own
	} else {
		s.rdb = s.db
	}
}

// Analyze refreshes the planner's statistics (ANALYZE on both databases), as PostgreSQL's
// autovacuum does some time after a bulk load: benchmarks that generate their data call it
// rather than wait. Without statistics PostgreSQL intersected a rare word's matches with every
// page of the space (46 ms instead of 0.8 ms at 100,000 pages).
//
// On SQLite the FTS5 index's own tables keep no samples (sqlite_stat4): FTS5 looks a term up in
// each segment with a bound `term <= ?`, and with samples for that range the planner marks the
// statement to be prepared again whenever the value changes, so every lookup reparsed its SQL
// (40% of the CPU of an organization search of 10 spaces at 200,000 pages). Then it merges the
// full-text index a bulk load left in many segments (search.Index.Optimize).
func (s *Store) Analyze(ctx context.Context) error {
	if s.dialect == Postgres {
		if _, err := s.db.ExecContext(ctx, "ANALYZE"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		return nil
	}
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, "ANALYZE"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		var stat4 int
		if err := tx.NewRaw("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'").Scan(ctx, &stat4); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		if stat4 == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM sqlite_stat4 WHERE tbl LIKE 'search\\_pages\\_fts\\_%' ESCAPE '\\'"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		// Reload the statistics (the readers reload them with the schema ANALYZE changed).
		if _, err := tx.ExecContext(ctx, "ANALYZE sqlite_schema"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// A bulk load leaves the full-text index in many segments (search.Index.Optimize).
	return s.search.Optimize(ctx)
}
