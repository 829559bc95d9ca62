package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bindery/bindery/graph"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
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
	blobs, err := blob.Open(filesDir("", db))
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
		if !res2.Blobs.Has(k) {
			t.Errorf("acknowledged file %s missing after restore", k)
		}
	}
	t.Logf("%d spaces and %d files acknowledged before the backup, all restored", len(ackedSpaces), len(ackedKeys))
}
