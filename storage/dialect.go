package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/uptrace/bun"
)

// Dialect names a supported database. SQL that differs between them is chosen here and in the
// migration templates: row locks, upserts, placeholders, column types, the job queue's driver.
// The one exception is full-text search, whose two renderings of a query (a tsquery on
// PostgreSQL, an FTS5 expression on SQLite) are the bulk of search_query.go and search.go.
type Dialect string

// The supported dialects.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// timestampType is the column type used for time.Time in migrations.
func (d Dialect) timestampType() string {
	if d == Postgres {
		return "TIMESTAMPTZ"
	}
	return "TIMESTAMP"
}

// forUpdate makes a read inside a transaction lock the rows it reads until the transaction ends,
// so that writes that read them first take turns. Only PostgreSQL needs it: a SQLite write
// transaction holds the database's one write lock from BEGIN IMMEDIATE.
func (s *Store) forUpdate(q *bun.SelectQuery) *bun.SelectQuery {
	if s.dialect == Postgres {
		return q.For("UPDATE")
	}
	return q
}

// lockRows locks the rows q selects until the transaction ends (see forUpdate); on SQLite it
// runs nothing.
func (s *Store) lockRows(ctx context.Context, q *bun.SelectQuery) error {
	if s.dialect != Postgres {
		return nil
	}
	_, err := q.For("UPDATE").Exec(ctx)
	return translate(err)
}

// upsert makes an insert of rows whose key is taken update those rows instead, setting columns
// to the inserted values. Both databases take the same ON CONFLICT … DO UPDATE form.
func upsert(q *bun.InsertQuery, key string, columns ...string) *bun.InsertQuery {
	sets := make([]string, len(columns))
	for i, c := range columns {
		sets[i] = c + " = EXCLUDED." + c
	}
	return q.On("CONFLICT (" + key + ") DO UPDATE").Set(strings.Join(sets, ", "))
}

// insertNew makes an insert skip the rows whose key is taken; with no key, rows that break any
// unique constraint.
func insertNew(q *bun.InsertQuery, key string) *bun.InsertQuery {
	if key == "" {
		return q.On("CONFLICT DO NOTHING")
	}
	return q.On("CONFLICT (" + key + ") DO NOTHING")
}

// placeholder is the dialect's n-th positional parameter.
func (s *Store) placeholder(n int) bun.Safe {
	if s.dialect == Postgres {
		return bun.Safe(fmt.Sprintf("$%d", n))
	}
	return bun.Safe(fmt.Sprintf("?%d", n))
}

// riverDriver is River's driver for the dialect over the pool writes go through (writePool).
// Both drivers run on database/sql, so jobs and Bun share one pool and one transaction type.
func (d Dialect) riverDriver(pool *sql.DB) riverdriver.Driver[*sql.Tx] {
	if d == Postgres {
		return riverdatabasesql.New(pool)
	}
	return riversqlite.New(pool)
}

// secondsSince is the SQL for the seconds elapsed since a timestamp column, negative when it is
// in the future. River keeps SQLite's timestamps as UTC text, which julianday reads.
func (d Dialect) secondsSince(column string) string {
	if d == Postgres {
		return "CAST(EXTRACT(EPOCH FROM (now() - " + column + ")) AS DOUBLE PRECISION)"
	}
	return "((julianday('now') - julianday(" + column + ")) * 86400.0)"
}

// joinInOrder is the join keyword that keeps the left table the outer loop. SQLite's planner
// may otherwise scan the right table whole and index the left on the fly (a recursive CTE's
// result is estimated large); only CROSS JOIN fixes the order there, and PostgreSQL accepts no
// ON clause after CROSS JOIN.
func (d Dialect) joinInOrder() string {
	if d == SQLite {
		return "CROSS JOIN"
	}
	return "JOIN"
}
