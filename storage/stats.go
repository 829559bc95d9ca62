package storage

import "database/sql"

// SQLDB is the connection pool, for its statistics (metrics) and nothing else: queries go through
// Store methods.
func (s *Store) SQLDB() *sql.DB { return s.db.DB }
