package storage_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// Concurrent writers queue for SQLite's one writer connection instead of failing with
// SQLITE_BUSY, and readers keep reading meanwhile.
func TestSQLiteWritersQueueAndReadersRead(t *testing.T) {
	ctx := context.Background()
	s, err := storage.Open(ctx, filepath.Join(t.TempDir(), "b.db"), storage.WithMaxConns(4))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 32 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.CreateUser(ctx, storage.NewUser{DisplayName: "u", Email: fmt.Sprintf("u%d@example.com", i)}, now); err != nil {
				errs <- fmt.Errorf("write %d: %w", i, err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.CountUsers(ctx); err != nil {
				errs <- fmt.Errorf("read %d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n, err := s.CountUsers(ctx); err != nil || n != 32 {
		t.Errorf("CountUsers = %d, %v; want 32 (a read after the writes sees them all)", n, err)
	}
}

// A PostgreSQL URL that does not set them gets JIT off and no parallel workers, on every
// connection of the pool (storage.Open adds them as connection parameters).
func TestPostgresSessionDefaults(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		if s.Dialect() != storage.Postgres {
			t.Skip("PostgreSQL's settings")
		}
		for setting, want := range map[string]string{"jit": "off", "max_parallel_workers_per_gather": "0"} {
			var got string
			if err := s.SQLDB().QueryRowContext(context.Background(), "SHOW "+setting).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s = %s, want %s", setting, got, want)
			}
		}
	})
}
