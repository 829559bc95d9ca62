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
	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/bindery/bindery/storage/blob/blobtest"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/google/go-cmp/cmp"
)

// stack is a running server over a SQLite file and a files directory.
func stack(t *testing.T, db string) (*domain.App, *httptest.Server) {
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
	res := &domain.App{Store: store, Blobs: blobs, Now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }}
	srv := httptest.NewServer(rest.NewServerWith(res, doors.Mount(res, rest.Options{})))
	t.Cleanup(srv.Close)
	return res, srv
}

// TestBackupUnderWriteLoad backs a SQLite server up while clients keep writing spaces and files,
// restores the backup, and finds every write acknowledged before the backup started.
func TestBackupUnderWriteLoad(t *testing.T) {
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	res, srv := stack(t, live)
	creds, err := res.Bootstrap(context.Background(), domain.BootstrapInput{OrgTitle: "Backup", Email: "admin@backup.test"})
	if err != nil {
		t.Fatal(err)
	}

	var (
		mu       sync.Mutex
		progress = sync.NewCond(&mu) // a write was acknowledged
		spaces   []string
		keys     []string
		stop     = make(chan struct{})
		wg       sync.WaitGroup
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
					progress.Broadcast()
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
				progress.Broadcast()
				mu.Unlock()
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()

	// Writes are counted, not waited for: the backup starts once both writers have had five
	// writes acknowledged, and the writers stop once five more of each came after it.
	atLeast := func(nSpaces, nKeys int) {
		mu.Lock()
		defer mu.Unlock()
		for len(spaces) < nSpaces || len(keys) < nKeys {
			progress.Wait()
		}
	}
	atLeast(5, 5)
	mu.Lock()
	ackedSpaces, ackedKeys := append([]string(nil), spaces...), append([]string(nil), keys...)
	mu.Unlock()
	out := filepath.Join(dir, "backup")
	printed, err := run(t, context.Background(), "backup", "--database", live, "--out", out)
	mu.Lock()
	afterSpaces, afterKeys := len(spaces), len(keys)
	mu.Unlock()
	atLeast(afterSpaces+5, afterKeys+5) // writes go on after the backup, too
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

// TestBackupRefusesToLeaveTheFilesOut: a backup that would not hold the files the database
// refers to stops before writing anything, saying what is missing and how to include it. On
// PostgreSQL the server's default files directory is relative to where it runs, so --files (or
// BINDERY_FILES) is required; given, a location that lacks the files is refused on both
// databases, and the right one is copied.
func TestBackupRefusesToLeaveTheFilesOut(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			db := storagetest.DSN(t, d)
			if _, err := run(t, ctx, "migrate", "--database", db); err != nil {
				t.Fatal(err)
			}
			files := filepath.Join(dir, "server-files")
			key := storeFileIn(t, db, files)

			if d == storage.Postgres {
				out := filepath.Join(dir, "no-files-flag")
				printed, err := run(t, ctx, "backup", "--database", db, "--out", out)
				if err == nil || !strings.Contains(err.Error(), "give --files (or BINDERY_FILES) the location the server keeps them in") {
					t.Fatalf("PostgreSQL backup without --files: %q %v, want a refusal naming --files", printed, err)
				}
				if _, err := os.Stat(out); !os.IsNotExist(err) {
					t.Errorf("a refused backup made %s: %v", out, err)
				}
			}

			out := filepath.Join(dir, "wrong-files")
			printed, err := run(t, ctx, "backup", "--database", db, "--files", filepath.Join(dir, "elsewhere"), "--out", out)
			if err == nil || !strings.Contains(err.Error(), "1 of the 1 file(s) the database refers to are not in") || !strings.Contains(err.Error(), key) {
				t.Fatalf("backup from a store without the files: %q %v, want a refusal naming the missing file", printed, err)
			}
			if entries, _ := os.ReadDir(out); len(entries) > 0 {
				t.Errorf("a refused backup wrote %d entries into %s", len(entries), out)
			}

			out = filepath.Join(dir, "backup")
			printed, err = run(t, ctx, "backup", "--database", db, "--files", files, "--out", out)
			if err != nil || !strings.Contains(printed, "1 file(s)") {
				t.Fatalf("backup with the server's files: %q %v", printed, err)
			}
			if m, err := backup.Read(out); err != nil || m.Files != 1 {
				t.Fatalf("manifest = %+v, %v", m, err)
			}

			if d == storage.Postgres {
				t.Setenv("BINDERY_FILES", files)
				out = filepath.Join(dir, "from-env")
				if printed, err := run(t, ctx, "backup", "--database", db, "--out", out); err != nil || !strings.Contains(printed, "1 file(s)") {
					t.Fatalf("backup with BINDERY_FILES: %q %v", printed, err)
				}
			}
		})
	}
}

// storeFileIn stores one file in the files location and a space's revision referring to it in
// the database, as an upload does, and returns the file's key.
func storeFileIn(t *testing.T, db, files string) string {
	t.Helper()
	ctx := context.Background()
	store, err := storage.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	blobs, err := blob.Open(ctx, files)
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	info, err := blobs.Put(ctx, strings.NewReader("the only file"), -1)
	if err != nil {
		t.Fatal(err)
	}
	res := &domain.App{Store: store, Blobs: blobs, Now: func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }}
	creds, err := res.Bootstrap(ctx, domain.BootstrapInput{OrgTitle: "Files", Email: "admin@files.test"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rest.NewServerWith(res, doors.Mount(res, rest.Options{})))
	defer srv.Close()
	req, _ := http.NewRequest("POST", srv.URL+"/v1/orgs/"+creds.OrganizationID+"/spaces", strings.NewReader(`{"title":"Files"}`))
	req.Header.Set("Authorization", "Bearer "+creds.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var space struct{ ID string }
	json.NewDecoder(resp.Body).Decode(&space)
	resp.Body.Close()
	_, err = store.EditContent(ctx, storage.EditTarget{SpaceID: space.ID}, "", res.Now, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		return &storage.Edit{Files: []*storage.FileVersion{{FileID: storage.NewID(), Name: "only.txt", ContentType: "text/plain",
			Size: info.Size, BlobKey: info.Key, CreatedAt: c.Now}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return info.Key
}
