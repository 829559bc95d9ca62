// Package storagetest gives tests real, migrated databases: SQLite always, and PostgreSQL whenever
// one is reachable (BINDERY_TEST_POSTGRES, default postgres://postgres@127.0.0.1:5432/postgres).
// Under CI=true an unreachable PostgreSQL fails the test instead of skipping it.
//
// Every PostgreSQL test gets its own database, cloned from a template migrated once per test
// binary. The clones are made ahead of need and dropped after the test, both in the background;
// call Main from TestMain so the last ones and the template are dropped when the package's tests
// end.
package storagetest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/google/uuid"
)

// DefaultPostgres is used when BINDERY_TEST_POSTGRES is unset.
const DefaultPostgres = "postgres://postgres@127.0.0.1:5432/postgres"

// Dialects lists the databases every storage and API test runs on.
var Dialects = []storage.Dialect{storage.SQLite, storage.Postgres}

// Main runs the package's tests and then drops the PostgreSQL template database, if one was made.
// opts are given to every store Open makes: a package whose tests search passes a markdown
// reader (storage.WithSearchText; the API tests pass the server's, domain/document's, which
// storage's own packages may not link).
func Main(m *testing.M, opts ...storage.Option) { os.Exit(Run(m, opts...)) }

// Run is Main without the exit, for a TestMain that reports something after the tests. A test
// database that could not be dropped fails the run.
func Run(m *testing.M, opts ...storage.Option) int {
	storeOptions = opts
	code := m.Run()
	if err := pg.finish(); err != nil {
		fmt.Fprintln(os.Stderr, "storagetest:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Each runs fn as a subtest per dialect ("sqlite", "postgres"), each with a fresh database. The
// dialects run in parallel with each other (and with other parallel subtests).
func Each(t *testing.T, fn func(t *testing.T, s *storage.Store)) {
	t.Helper()
	for _, d := range Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			fn(t, Open(t, d))
		})
	}
}

// DSN returns the address of a fresh database of dialect d, dropped when t ends: an empty SQLite
// file path, or a migrated PostgreSQL database.
func DSN(t testing.TB, d storage.Dialect) string {
	t.Helper()
	if d == storage.Postgres {
		return pg.newDatabase(t)
	}
	return filepath.Join(t.TempDir(), "bindery.db")
}

// MaxConns is the pool size of test databases: tests open many databases at once, and
// PostgreSQL's max_connections is shared by all of them.
const MaxConns = 4

// storeOptions are the options Main was given, for every store Open makes.
var storeOptions []storage.Option

// Open returns a fresh, migrated database of dialect d, closed (and dropped) when t ends.
func Open(t testing.TB, d storage.Dialect) *storage.Store {
	t.Helper()
	return OpenDSN(t, d, DSN(t, d))
}

// OpenDSN is Open on a database DSN gave: for a test that opens its store apart from making its
// database, e.g. inside a synctest bubble (whose goroutines, the pool's among them, must all be
// its own, while DSN's PostgreSQL clones are made by goroutines shared by the whole binary).
func OpenDSN(t testing.TB, d storage.Dialect, dsn string) *storage.Store {
	t.Helper()
	opts := append([]storage.Option{storage.WithMaxConns(MaxConns)}, storeOptions...)
	s, err := storage.Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatalf("open %s: %v", d, err)
	}
	t.Cleanup(func() { s.Close() })
	if d == storage.SQLite {
		if err := s.Migrate(context.Background()); err != nil {
			t.Fatalf("migrate sqlite: %v", err)
		}
	}
	return s
}

// OpenAt opens another store on the database at dsn (from DSN), as another server of the same
// deployment would: migrated, with its own pool, closed when t ends.
func OpenAt(t testing.TB, dsn string, opts ...storage.Option) *storage.Store {
	t.Helper()
	s, err := storage.Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatalf("open %s: %v", dsn, err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
}

// Kept opens a migrated database of dialect d that outlives the test, for benchmarks whose data
// takes minutes to generate: the SQLite file dir/name.db, or the PostgreSQL database
// bindery_kept_<name> on the test server. With fresh it is emptied first. It is closed, not
// dropped, when t ends.
func Kept(t testing.TB, d storage.Dialect, dir, name string, fresh bool) *storage.Store {
	t.Helper()
	dsn := filepath.Join(dir, name+".db")
	if d == storage.Postgres {
		if err := pg.setup(); err != nil {
			t.Skipf("skipping PostgreSQL: %v", err)
		}
		db := "bindery_kept_" + name
		if fresh {
			if _, err := pg.admin.Exec("DROP DATABASE IF EXISTS " + db + " WITH (FORCE)"); err != nil {
				t.Fatalf("drop kept database: %v", err)
			}
		}
		var n int
		if err := pg.admin.QueryRow("SELECT count(*) FROM pg_database WHERE datname = $1", db).Scan(&n); err != nil {
			t.Fatalf("find kept database: %v", err)
		}
		if n == 0 {
			if _, err := pg.admin.Exec("CREATE DATABASE " + db); err != nil {
				t.Fatalf("create kept database: %v", err)
			}
		}
		dsn = withDatabase(PostgresURL(), db)
	} else {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if fresh {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				if err := os.Remove(dsn + suffix); err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
			}
		}
	}
	opts := append([]storage.Option{storage.WithMaxConns(MaxConns)}, storeOptions...)
	s, err := storage.Open(context.Background(), dsn, opts...)
	if err != nil {
		t.Fatalf("open %s: %v", d, err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate %s: %v", d, err)
	}
	return s
}

// PostgresURL is the admin URL of the test server.
func PostgresURL() string {
	if u := os.Getenv("BINDERY_TEST_POSTGRES"); u != "" {
		return u
	}
	return DefaultPostgres
}

type postgresHarness struct {
	once     sync.Once
	admin    *sql.DB
	template string
	err      error

	// One goroutine clones the template ahead of need (PostgreSQL refuses a clone while another
	// is in progress), another drops the databases of ended tests: a test waits for neither.
	spares chan clone
	drops  chan string
	stop   chan struct{} // closed when the tests end: the cloner stops

	clonerDone, dropperDone chan struct{}

	mu       sync.Mutex
	dropErrs []error // drops that failed, reported when the tests end
}

// clone is a database cloned from the template, or why none could be.
type clone struct {
	name string
	err  error
}

// spareClones is how many databases wait ready: enough that the tests running in parallel seldom
// wait for a CREATE DATABASE, few enough to leave PostgreSQL's connections to the tests.
var spareClones = max(2, runtime.GOMAXPROCS(0))

// concurrentDrops is how many test databases are dropped at once.
const concurrentDrops = 8

var pg postgresHarness

// setup connects to the server, builds the migrated template database and starts the cloner and
// the dropper, once per binary.
func (h *postgresHarness) setup() error {
	h.once.Do(func() {
		admin, err := sql.Open("pgx", PostgresURL())
		if err == nil {
			err = admin.Ping()
		}
		if err != nil {
			h.err = fmt.Errorf("PostgreSQL at %s is not reachable: %w", redact(PostgresURL()), err)
			return
		}
		h.admin = admin
		name := "bindery_tmpl_" + strings.ReplaceAll(uuid.NewString(), "-", "")
		if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
			h.err = fmt.Errorf("create template database: %w", err)
			return
		}
		h.template = name
		s, err := storage.Open(context.Background(), withDatabase(PostgresURL(), name), storage.WithMaxConns(1))
		if err != nil {
			h.err = err
			return
		}
		defer s.Close()
		if h.err = s.Migrate(context.Background()); h.err != nil {
			return
		}
		h.spares, h.drops, h.stop = make(chan clone, spareClones), make(chan string, 1024), make(chan struct{})
		h.clonerDone, h.dropperDone = make(chan struct{}), make(chan struct{})
		go h.cloneAhead()
		go h.dropBehind()
	})
	return h.err
}

// cloneAhead keeps spareClones clones of the template ready until the tests end.
func (h *postgresHarness) cloneAhead() {
	defer close(h.clonerDone)
	for {
		c := clone{name: "bindery_t_" + strings.ReplaceAll(uuid.NewString(), "-", "")}
		if _, err := h.admin.Exec("CREATE DATABASE " + c.name + " TEMPLATE " + h.template); err != nil {
			c = clone{err: fmt.Errorf("create test database: %w", err)}
		}
		select {
		case h.spares <- c:
		case <-h.stop:
			if c.err == nil {
				h.drops <- c.name // the dropper runs until finish closes drops, after this returns
			}
			return
		}
	}
}

// dropBehind drops the databases of ended tests until the tests end. Each DROP DATABASE waits
// for a checkpoint, most of its time (a second or two); drops running together share one (eight
// took 2.5 s together, 19 s one after another).
func (h *postgresHarness) dropBehind() {
	defer close(h.dropperDone)
	var wg sync.WaitGroup
	for range concurrentDrops {
		wg.Go(func() {
			for name := range h.drops {
				if _, err := h.admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
					h.mu.Lock()
					h.dropErrs = append(h.dropErrs, fmt.Errorf("drop test database %s: %w", name, err))
					h.mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
}

func (h *postgresHarness) newDatabase(t testing.TB) string {
	t.Helper()
	if err := h.setup(); err != nil {
		if CI() {
			t.Fatalf("CI requires PostgreSQL tests: %v", err)
		}
		t.Skipf("skipping PostgreSQL: %v", err)
	}
	c := <-h.spares
	if c.err != nil {
		t.Fatal(c.err)
	}
	// Cleanups run last first: the test's stores are closed before its database is dropped.
	t.Cleanup(func() { h.drops <- c.name })
	return withDatabase(PostgresURL(), c.name)
}

// finish stops the cloner, drops the spare clones, waits for every drop, drops the template and
// returns the drops that failed.
func (h *postgresHarness) finish() error {
	if h.admin == nil {
		return nil
	}
	defer h.admin.Close()
	if h.stop != nil {
		close(h.stop)
		<-h.clonerDone
		close(h.spares)
		for c := range h.spares {
			if c.err == nil {
				h.drops <- c.name
			}
		}
		close(h.drops)
		<-h.dropperDone
	}
	if h.template != "" {
		h.admin.Exec("DROP DATABASE IF EXISTS " + h.template + " WITH (FORCE)") //nolint:errcheck // best effort at exit
	}
	return errors.Join(h.dropErrs...)
}

// withDatabase points dsn at database name. Test databases are thrown away, so their commits
// need not wait for the disk (synchronous_commit=off, sent by pgx as a runtime parameter).
func withDatabase(dsn, name string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return dsn
	}
	u.Path = "/" + name
	q := u.Query()
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparseable URL)"
	}
	return u.Redacted()
}

// CI reports whether the tests run under CI (CI set to a true value, as strconv.ParseBool reads
// it: "true", "1", "TRUE"…), where what would be skipped elsewhere (PostgreSQL, a browser) must
// fail instead. Every test package asks here, so that CI is recognised one way.
func CI() bool {
	v, _ := strconv.ParseBool(os.Getenv("CI"))
	return v
}

// T0 is the time the rows tests make are stamped with.
var T0 = time.Date(2026, 1, 2, 3, 4, 5, 123456000, time.UTC)

// NewOrg bootstraps an organization and its owner, stamped T0.
func NewOrg(t testing.TB, s *storage.Store, ownerEmail string) (*storage.Organization, *storage.User) {
	t.Helper()
	org := &storage.Organization{Title: "Acme", Type: "business", Plan: "enterprise_2024", MergeRules: `{"type":"none"}`, InviteLinks: true, CreatedAt: T0, UpdatedAt: T0}
	u, _, err := s.Bootstrap(context.Background(), org, storage.NewUser{DisplayName: "Owner", Email: ownerEmail, EmailVerified: true}, T0)
	if err != nil {
		t.Fatalf("Bootstrap: %v", err)
	}
	return org, u
}
