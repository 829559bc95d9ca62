// Package storage is the only package that speaks SQL: Bun models, queries, transactions and
// migrations, on PostgreSQL (production) and SQLite (the embedded default).
package storage

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Store is the handle every caller uses: one *bun.DB and the dialect it speaks.
type Store struct {
	db      *bun.DB
	dialect Dialect

	// The insert-only job client (jobs.go), made on first use.
	jobsOnce sync.Once
	jobs     *river.Client[*sql.Tx]
	jobsErr  error
}

// Open connects to a database and returns its Store. dsn is a postgres:// or postgresql:// URL, or
// a SQLite file path (optionally prefixed with file:). Migrations are not applied: call Migrate.
func Open(ctx context.Context, dsn string) (*Store, error) {
	var (
		db      *bun.DB
		dialect Dialect
	)
	if isPostgres(dsn) {
		pgDSN, err := postgresDSN(dsn)
		if err != nil {
			return nil, err
		}
		sqldb, err := sql.Open("pgx", pgDSN)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		db = bun.NewDB(sqldb, pgdialect.New())
		dialect = Postgres
	} else {
		sqldb, err := sql.Open("sqlite", sqliteDSN(dsn))
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", dsn, err)
		}
		// SQLite serialises writers; one writer connection at a time avoids SQLITE_BUSY storms while
		// WAL still lets readers proceed.
		sqldb.SetMaxOpenConns(8)
		db = bun.NewDB(sqldb, sqlitedialect.New())
		dialect = SQLite
	}
	s := &Store{db: db.WithQueryHook(queryCounter{}), dialect: dialect}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Ping(pingCtx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return s, nil
}

// Close releases the connection pool.
func (s *Store) Close() error { return s.db.Close() }

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Dialect reports which database the Store speaks.
func (s *Store) Dialect() Dialect { return s.dialect }

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// postgresDSN sets default_query_exec_mode=exec unless the caller chose a mode: Bun inlines
// arguments into SQL text, so pgx's default statement cache would prepare every distinct query.
func postgresDSN(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("parse database URL: invalid URL")
	}
	q := u.Query()
	if q.Get("default_query_exec_mode") == "" {
		q.Set("default_query_exec_mode", "exec")
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// sqliteDSN turns a path into a modernc DSN with the pragmas Bindery relies on: foreign keys,
// WAL for concurrent readers, a busy timeout instead of immediate SQLITE_BUSY, and IMMEDIATE
// transactions so a read-then-write transaction never fails to upgrade its lock.
func sqliteDSN(path string) string {
	path = strings.TrimPrefix(path, "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// inTx runs fn in a transaction: Store methods that write more than one row own theirs.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	return s.db.RunInTx(ctx, nil, fn)
}
