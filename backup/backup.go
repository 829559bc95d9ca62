// Package backup takes and restores Bindery backups: a directory holding a consistent snapshot of
// a SQLite database (bindery.db), the uploaded files it refers to (files/, content-addressed as
// in a directory store) and a manifest. PostgreSQL databases are backed up with pg_dump; Bindery
// then copies only the files (see docs/operations.md). Files are copied by content hash from any
// store (a directory or a bucket) and restored into any store, so a backup also moves files from
// one kind of store to another.
package backup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
)

// File names inside a backup directory.
const (
	DatabaseFile = "bindery.db"
	FilesDir     = "files"
	ManifestFile = "manifest.json"
)

// Manifest describes a backup.
type Manifest struct {
	Format   int    `json:"format"`
	Version  string `json:"version"` // of the bindery that took it
	Database string `json:"database"`
	Snapshot bool   `json:"snapshot"` // false for PostgreSQL: the database is not in the backup
	Files    int    `json:"files"`
	// FilesFrom is the store the files were copied from (a directory, or an s3:// URL).
	FilesFrom string `json:"filesFrom,omitempty"`
	// FilesSkipped: the files are not in the backup (Options.SkipFiles); they stay in their store.
	FilesSkipped bool      `json:"filesSkipped,omitempty"`
	StartedAt    time.Time `json:"startedAt"`
	EndedAt      time.Time `json:"endedAt"`
}

// Options tune Take.
type Options struct {
	Version string // of the bindery taking the backup, recorded in the manifest
	// SkipFiles leaves the uploaded files out: for a bucket protected by its own versioning or
	// replication. Blobs are never changed or deleted by Bindery, so a database restored later
	// still finds its files in the live store.
	SkipFiles bool
}

// Take writes a backup of store and blobs into out, which must not exist or be empty. The
// database is snapshotted first and the files copied after: a file is stored before the row that
// refers to it commits, so every file the snapshot refers to is already there to be copied.
func Take(ctx context.Context, store *storage.Store, blobs *blob.Store, out string, opt Options) (*Manifest, error) {
	if opt.SkipFiles && store.Dialect() != storage.SQLite {
		return nil, errors.New("nothing to back up: a PostgreSQL database is backed up with pg_dump, and the files are skipped")
	}
	if !opt.SkipFiles {
		if err := filesPresent(ctx, store, blobs); err != nil {
			return nil, err
		}
	}
	if err := emptyDir(out); err != nil {
		return nil, err
	}
	m := &Manifest{Format: 1, Version: opt.Version, Database: string(store.Dialect()), StartedAt: time.Now().UTC()}
	if store.Dialect() == storage.SQLite {
		if err := store.SnapshotTo(ctx, filepath.Join(out, DatabaseFile)); err != nil {
			return nil, err
		}
		m.Snapshot = true
	}
	if opt.SkipFiles {
		m.FilesSkipped = true
	} else {
		n, err := copyBlobs(ctx, blobs, filepath.Join(out, FilesDir))
		if err != nil {
			return nil, err
		}
		m.Files, m.FilesFrom = n, blobs.String()
	}
	m.EndedAt = time.Now().UTC()
	raw, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(out, ManifestFile), append(raw, '\n'), 0o640); err != nil {
		return nil, fmt.Errorf("write manifest: %w", err)
	}
	return m, nil
}

// Read returns a backup's manifest. Errors: the directory is not a backup.
func Read(dir string) (*Manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("%s is not a Bindery backup (no %s): %w", dir, ManifestFile, err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil || m.Format != 1 {
		return nil, fmt.Errorf("%s: unreadable manifest", dir)
	}
	return &m, nil
}

// RestoreDatabase copies a backup's SQLite snapshot to path, which must not exist: restoring
// never overwrites a database. The copy is written beside path and renamed into place.
func RestoreDatabase(from, path string) error {
	m, err := Read(from)
	if err != nil {
		return err
	}
	if !m.Snapshot {
		return errors.New("this backup holds no database (it was taken from PostgreSQL: restore that with pg_restore)")
	}
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists: restore into a new path (move the old database away first)", path)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			return fmt.Errorf("%s exists: remove the old database's WAL files first", path+suffix)
		}
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return err
		}
	}
	tmp := path + ".restoring"
	if err := copyFile(filepath.Join(from, DatabaseFile), tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

// RestoreFiles copies a backup's files into blobs (a directory or a bucket), skipping those already
// there (same key, same bytes), and returns how many it copied. A backup taken without its files
// restores none.
func RestoreFiles(ctx context.Context, from string, blobs *blob.Store) (int, error) {
	m, err := Read(from)
	if err != nil || m.FilesSkipped {
		return 0, err
	}
	src, err := blob.Open(ctx, filepath.Join(from, FilesDir))
	if err != nil {
		return 0, err
	}
	defer src.Close()
	n := 0
	err = src.Keys(ctx, func(key string) error {
		if has, err := blobs.Has(ctx, key); err != nil || has {
			return err
		}
		f, err := src.Open(ctx, key)
		if err != nil {
			return err
		}
		defer f.Close()
		info, err := blobs.Put(ctx, f, -1)
		if err != nil {
			return err
		}
		if info.Key != key {
			return fmt.Errorf("backup file %s is corrupt (its content hashes to %s)", key, info.Key)
		}
		n++
		return nil
	})
	return n, err
}

// filesPresent checks, before anything is written, that blobs holds every file the database
// refers to: a file store that is not the server's (a wrong --files, or a default location that
// is another directory's) would otherwise make a backup without the files.
func filesPresent(ctx context.Context, store *storage.Store, blobs *blob.Store) error {
	keys, err := store.FileBlobKeys(ctx)
	if err != nil {
		return err
	}
	missing, first := 0, ""
	for _, key := range keys {
		has, err := blobs.Has(ctx, key)
		if err != nil {
			return err
		}
		if !has {
			if missing++; first == "" {
				first = key
			}
		}
	}
	if missing > 0 {
		return fmt.Errorf("%d of the %d file(s) the database refers to are not in %s (the first: %s): give --files the location the server keeps its files in", missing, len(keys), blobs, first)
	}
	return nil
}

// copyBlobs copies every blob of blobs into a directory store at dir, by content hash.
func copyBlobs(ctx context.Context, blobs *blob.Store, dir string) (int, error) {
	dst, err := blob.Open(ctx, dir)
	if err != nil {
		return 0, err
	}
	defer dst.Close()
	n := 0
	err = blobs.Keys(ctx, func(key string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := blobs.Open(ctx, key)
		if errors.Is(err, blob.ErrNotFound) {
			return nil // deleted since listed
		}
		if err != nil {
			return err
		}
		defer f.Close()
		info, err := dst.Put(ctx, f, -1)
		if err != nil {
			return err
		}
		if info.Key != key {
			return fmt.Errorf("file %s in %s is corrupt (its content hashes to %s)", key, blobs, info.Key)
		}
		n++
		return nil
	})
	return n, err
}

func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o750)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty: back up into a new directory", dir)
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o640)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
