package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/backup"
	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/bindery/bindery/storage/blob/blobtest"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/google/go-cmp/cmp"
)

// stack is a running server over a SQLite file and a files directory.
func stack(t *testing.T, db string) (*graph.Resolver, *httptest.Server) {
	t.Helper()
	store, err := storage.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	blobs, err := blob.Open(context.Background(), filesDir("", db))
	if err != nil {
		t.Fatal(err)
	}
	res := &graph.Resolver{Store: store, Blobs: blobs, Now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }}
	srv := httptest.NewServer(rest.NewServer(res))
	t.Cleanup(srv.Close)
	return res, srv
}

// TestBackupUnderWriteLoad backs a SQLite server up while clients keep writing spaces and files,
// restores the backup, and finds every write acknowledged before the backup started.
func TestBackupUnderWriteLoad(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	res, srv := stack(t, live)
	creds, err := res.Bootstrap(context.Background(), graph.BootstrapInput{OrgTitle: "Backup", Email: "admin@backup.test"})
	if err != nil {
		t.Fatal(err)
	}

	var (
		mu     sync.Mutex
		spaces []string
		keys   []string
		stop   = make(chan struct{})
		wg     sync.WaitGroup
	)
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body := fmt.Sprintf(`{"title":"Space %d-%d"}`, w, i)
				req, _ := http.NewRequest("POST", srv.URL+"/v1/orgs/"+creds.OrganizationID+"/spaces", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+creds.Token)
				req.Header.Set("Content-Type", "application/json")
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					continue
				}
				var s struct{ ID string }
				json.NewDecoder(resp.Body).Decode(&s)
				resp.Body.Close()
				if resp.StatusCode == http.StatusCreated {
					mu.Lock()
					spaces = append(spaces, s.ID)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			b := make([]byte, 2048)
			rand.Read(b)
			if info, err := res.Blobs.Put(context.Background(), bytes.NewReader(b), -1); err == nil {
				mu.Lock()
				keys = append(keys, info.Key)
				mu.Unlock()
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()

	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	ackedSpaces, ackedKeys := append([]string(nil), spaces...), append([]string(nil), keys...)
	mu.Unlock()
	out := filepath.Join(dir, "backup")
	printed, err := run(t, context.Background(), "backup", "--database", live, "--out", out)
	time.Sleep(100 * time.Millisecond) // writes go on after the backup, too
	close(stop)
	wg.Wait()
	if err != nil || !strings.Contains(printed, "backed up the SQLite database") {
		t.Fatalf("backup: %q %v", printed, err)
	}
	if len(ackedSpaces) < 5 || len(ackedKeys) < 5 {
		t.Fatalf("too little load before the backup: %d spaces, %d files", len(ackedSpaces), len(ackedKeys))
	}
	if _, err := run(t, context.Background(), "backup", "--database", live, "--out", out); err == nil {
		t.Error("backing up into a non-empty directory succeeded")
	}

	restored := filepath.Join(dir, "restored", "bindery.db")
	if printed, err := run(t, context.Background(), "restore", "--from", out, "--database", restored); err != nil {
		t.Fatalf("restore: %q %v", printed, err)
	}
	if _, err := run(t, context.Background(), "restore", "--from", out, "--database", restored); err == nil {
		t.Error("restoring over an existing database succeeded")
	}
	res2, srv2 := stack(t, restored)
	for _, id := range ackedSpaces {
		req, _ := http.NewRequest("GET", srv2.URL+"/v1/spaces/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+creds.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("acknowledged space %s: %d after restore", id, resp.StatusCode)
		}
	}
	for _, k := range ackedKeys {
		if has, err := res2.Blobs.Has(context.Background(), k); err != nil || !has {
			t.Errorf("acknowledged file %s missing after restore", k)
		}
	}
	t.Logf("%d spaces and %d files acknowledged before the backup, all restored", len(ackedSpaces), len(ackedKeys))
}

// TestBackupS3Store: the files of an S3 store are copied into the backup by content hash (beside
// a SQLite snapshot, or alone for PostgreSQL) and restore into another bucket; with --skip-files
// the backup holds the database only, says so, and its restore leaves the files where they are.
func TestBackupS3Store(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			db := storagetest.DSN(t, d)
			if _, err := run(t, ctx, "migrate", "--database", db); err != nil {
				t.Fatal(err)
			}
			src := blobtest.NewS3(t)
			blobs, err := blob.Open(ctx, src.Location)
			if err != nil {
				t.Fatal(err)
			}
			defer blobs.Close()
			for _, content := range []string{"one", "two", "three"} {
				if _, err := blobs.Put(ctx, strings.NewReader(content), -1); err != nil {
					t.Fatal(err)
				}
			}
			want := src.Objects(t)

			out := filepath.Join(dir, "backup")
			printed, err := run(t, ctx, "backup", "--database", db, "--files", src.Location, "--out", out)
			if err != nil || !strings.Contains(printed, "3 file(s)") {
				t.Fatalf("backup: %q %v", printed, err)
			}
			m, err := backup.Read(out)
			if err != nil || m.Files != 3 || m.FilesFrom == "" || m.Snapshot != (d == storage.SQLite) {
				t.Fatalf("manifest = %+v, %v", m, err)
			}
			dst := blobtest.NewS3(t)
			restored := filepath.Join(dir, "restored.db")
			if d == storage.Postgres {
				restored = db // only the files are restored
			}
			if printed, err := run(t, ctx, "restore", "--from", out, "--database", restored, "--files", dst.Location); err != nil || !strings.Contains(printed, "3 file(s)") {
				t.Fatalf("restore: %q %v", printed, err)
			}
			if got := dst.Objects(t); !cmp.Equal(got, want) {
				t.Errorf("restored bucket = %v, want %v", got, want)
			}

			skipped := filepath.Join(dir, "db-only")
			printed, err = run(t, ctx, "backup", "--database", db, "--files", src.Location, "--out", skipped, "--skip-files")
			if d == storage.Postgres {
				// Nothing would be in it: pg_dump backs PostgreSQL up.
				if err == nil {
					t.Fatalf("PostgreSQL backup with --skip-files succeeded: %q", printed)
				}
				return
			}
			if err != nil || !strings.Contains(printed, "files were skipped") {
				t.Fatalf("backup --skip-files: %q %v", printed, err)
			}
			if m, err := backup.Read(skipped); err != nil || !m.FilesSkipped || m.Files != 0 {
				t.Fatalf("manifest = %+v, %v", m, err)
			}
			if _, err := os.Stat(filepath.Join(skipped, backup.FilesDir)); !os.IsNotExist(err) {
				t.Errorf("a backup without files has a files directory: %v", err)
			}
			printed, err = run(t, ctx, "restore", "--from", skipped, "--database", filepath.Join(dir, "again.db"), "--files", dst.Location)
			if err != nil || !strings.Contains(printed, "holds no files") {
				t.Fatalf("restore of a database-only backup: %q %v", printed, err)
			}
		})
	}
}
