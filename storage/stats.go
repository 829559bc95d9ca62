package storage

import (
	"database/sql"

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
