// Package storage is the only package that speaks SQL: Bun models, queries, transactions and
// migrations, on PostgreSQL (production) and SQLite (the embedded default).
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bindery/bindery/search"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Store is the handle every caller uses: its connection pools and the dialect it speaks.
//
// db writes (and may read); rdb only reads. On PostgreSQL they are the same pool. On SQLite db is
// one connection, so writers queue in Go instead of meeting SQLITE_BUSY, and rdb is a pool of
// read-only connections that WAL lets read while the writer writes. Reads that must see a
// transaction's own writes use the transaction, never rdb.
type Store struct {
	db      *bun.DB
	rdb     *bun.DB
	dialect Dialect
	prep    prepared
	hooks   []bun.QueryHook // run around prepared statements too (AddQueryHook)
	tokens  tokenCache
	// search is the full-text index, kept in step by the edit transaction (Reindex).
	search *search.Index
	// include names the reusable contents a reindex reads (WithSearchTextIncluding).
	include func(path, stored string) (name, markdown string)
	// treeSQL is SiteTreesOf's statement (site_tree.go).
	treeSQL siteTreeSQLCache

	// The insert-only job client (jobs.go), made on first use.
	jobsOnce sync.Once
	jobs     *river.Client[*sql.Tx]
	jobsErr  error

	// feed wakes this process's event subscribers (event_feed.go); pgDSN is where the PostgreSQL
	// listener connects.
	feed  eventFeed
	tail  eventTail
	pgDSN string
}

// Option adjusts how Open connects.
type Option func(*options)

type options struct {
	maxConns   int
	tokenTTL   time.Duration
	tokenClock func() time.Time
	searchText func(markdown string, included map[string]string) string
	// include names a reusable content as pages include it (WithSearchTextIncluding); nil when
	// the search text reads no included content.
	include func(path, stored string) (name, markdown string)
}

// WithSearchText sets how the search index reads a page's markdown as text. Reading markdown is
// the graph's (domain/document.SearchText), not storage's: without this option the index holds
// the markdown as written.
func WithSearchText(fn func(markdown string) string) Option {
	return func(o *options) {
		o.searchText = func(markdown string, _ map[string]string) string { return fn(markdown) }
	}
}

// WithSearchTextIncluding is WithSearchText for a reader that also reads the reusable contents
// a page includes (domain/document.SearchTextIncluding): an edit's IncludedMarkdown, or, when the
// edit carries none (merges, API edits), the space's reusable contents read in the edit's
// transaction, each named by include from its Git path and its stored text (front matter and
// all) as pages include it.
func WithSearchTextIncluding(fn func(markdown string, included map[string]string) string, include func(path, stored string) (name, markdown string)) Option {
	return func(o *options) { o.searchText, o.include = fn, include }
}

// WithMaxConns sets the size of the connection pool: PostgreSQL connections kept open (and idle),
// or SQLite reader connections. n <= 0 keeps the default (DefaultMaxConns).
func WithMaxConns(n int) Option { return func(o *options) { o.maxConns = n } }

// DefaultMaxConns is the pool size when none is chosen: four connections per CPU, at least 8. A
// request holds a connection only while a statement runs, so a few per CPU keep the CPUs busy
// while others wait on the network or the disk.
func DefaultMaxConns() int { return max(8, 4*runtime.NumCPU()) }

// connLifetime recycles PostgreSQL connections now and then, so a server-side restart or a
// failover is picked up and backends do not grow without end.
const connLifetime = 30 * time.Minute

// Open connects to a database and returns its Store. dsn is a postgres:// or postgresql:// URL, or
// a SQLite file path (optionally prefixed with file:). Migrations are not applied: call Migrate.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	if o.maxConns <= 0 {
		o.maxConns = DefaultMaxConns()
	}
	s := &Store{tokens: tokenCache{ttl: o.tokenTTL, clock: o.tokenClock}}
	if isPostgres(dsn) {
		pgDSN, err := postgresDSN(dsn)
		if err != nil {
			return nil, err
		}
		s.pgDSN = pgDSN
		sqldb, err := sql.Open("pgx", pgDSN)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		// database/sql keeps only 2 idle connections by default: under load nearly every statement
		// would then start a new PostgreSQL backend. Keep the whole pool open.
		sqldb.SetMaxOpenConns(o.maxConns)
		sqldb.SetMaxIdleConns(o.maxConns)
		sqldb.SetConnMaxLifetime(connLifetime)
		s.db = bun.NewDB(sqldb, pgdialect.New()).WithQueryHook(queryCounter{})
		s.rdb = s.db
		s.dialect = Postgres
	} else {
		writer, err := sql.Open("sqlite", sqliteDSN(dsn, false))
		if err != nil {
			return nil, fmt.Errorf("open sqlite %s: %w", dsn, err)
		}
		writer.SetMaxOpenConns(1)
		writer.SetMaxIdleConns(1)
		s.db = bun.NewDB(writer, sqlitedialect.New()).WithQueryHook(queryCounter{})
		// The writer creates the file and turns WAL on before any reader opens it.
		if err := writer.PingContext(ctx); err != nil {
			writer.Close()
			return nil, fmt.Errorf("connect to database: %w", err)
		}
		reader, err := sql.Open("sqlite", sqliteDSN(dsn, true))
		if err != nil {
			writer.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", dsn, err)
		}
		reader.SetMaxOpenConns(o.maxConns)
		reader.SetMaxIdleConns(o.maxConns)
		s.rdb = bun.NewDB(reader, sqlitedialect.New()).WithQueryHook(queryCounter{})
		s.dialect = SQLite
	}
	s.search = search.New(s.db, s.rdb, o.searchText)
	s.include = o.include
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Ping(pingCtx); err != nil {
		s.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return s, nil
}

// Search is the store's full-text index.
func (s *Store) Search() *search.Index { return s.search }

// Close releases the connection pools.
func (s *Store) Close() error {
	s.feed.stop()
	s.prep.close()
	err := s.db.Close()
	if s.rdb != s.db {
		err = errors.Join(err, s.rdb.Close())
	}
	return err
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.rdb.PingContext(ctx) }

// Dialect reports which database the Store speaks.
func (s *Store) Dialect() Dialect { return s.dialect }

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// postgresDSN sets default_query_exec_mode=exec unless the caller chose a mode: Bun inlines
// arguments into SQL text, so pgx's default statement cache would prepare every distinct query.
// It also turns JIT compilation off unless the caller set jit: the search statements' estimated
// costs pass jit_above_cost, and compiling them took about 20 ms of statements that run in a few.
// And parallel workers, unless the caller set max_parallel_workers_per_gather: Bindery's
// statements are bounded, and PostgreSQL plans workers only where it overestimates one (a
// phrase's GIN scan of a fifth of a space's pages, estimated at 9,884 rows for 1,001 read: 67 ms
// with two workers, 15 ms without, on 2 cores serving other requests, each of the pool's
// connections able to start its own).
func postgresDSN(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("parse database URL: invalid URL")
	}
	q := u.Query()
	if q.Get("default_query_exec_mode") == "" {
		q.Set("default_query_exec_mode", "exec")
	}
	if q.Get("jit") == "" {
		q.Set("jit", "off")
	}
	if q.Get("max_parallel_workers_per_gather") == "" {
		q.Set("max_parallel_workers_per_gather", "0")
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// sqliteDSN turns a path into a modernc DSN with the pragmas Bindery relies on: foreign keys,
// WAL for concurrent readers, a busy timeout instead of immediate SQLITE_BUSY (a checkpoint, or
// another process), and IMMEDIATE transactions so a read-then-write transaction never fails to
// upgrade its lock. Readers are query_only, so a write sent to them by mistake fails loudly.
func sqliteDSN(path string, readOnly bool) string {
	path = strings.TrimPrefix(path, "file:")
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if readOnly {
		return "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)&_pragma=query_only(1)"
	}
	return "file:" + path + "?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// inTx runs fn in a transaction: Store methods that write more than one row own theirs.
// When ctx carries events (WithEvent), the transaction writes them last, so they commit with the
// change or not at all.
func (s *Store) inTx(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) error {
	evs, ctx := pendingEvents(ctx)
	if len(evs) == 0 {
		return s.db.RunInTx(ctx, nil, fn)
	}
	w := &writing{evs: evs}
	err := s.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := fn(context.WithValue(ctx, writingEventsKey{}, w), tx); err != nil {
			return err
		}
		if w.none {
			return nil
		}
		return s.writeEvents(ctx, tx, evs)
	})
	if err == nil {
		s.feed.wake()
	}
	return err
}

// An update names the fields of a row it writes with a typed set of the row's field constants
// (SpaceTitle|SpaceIcon): the graph says what it changed in the row it read, storage alone knows
// which columns that is. Each row type has its own field type, so one row's fields cannot be
// passed to another's update, and a misspelt field does not compile.

// columnsOf lists the columns of the fields in set, in the fields' order.
func columnsOf[F ~uint32](set F, columns map[F][]string) []string {
	var out []string
	for f := F(1); f != 0 && f <= set; f <<= 1 {
		if set&f != 0 {
			out = append(out, columns[f]...)
		}
	}
	return out
}
