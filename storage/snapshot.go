package storage

import (
	"context"
	"errors"
	"fmt"
)

// ErrSnapshotUnsupported: PostgreSQL is backed up with its own tools (pg_dump), not by Bindery.
var ErrSnapshotUnsupported = errors.New("snapshots are for SQLite; back PostgreSQL up with pg_dump")

// SnapshotTo writes a consistent copy of a SQLite database to path (which must not exist) while
// the database stays in use: VACUUM INTO reads one transaction's view, so every write committed
// before it started is in the copy, including what is still in the WAL file.
func (s *Store) SnapshotTo(ctx context.Context, path string) error {
	if s.dialect != SQLite {
		return ErrSnapshotUnsupported
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", path); err != nil {
		return fmt.Errorf("snapshot database: %w", err)
	}
	return nil
}

// FileBlobKeys returns the key of every file body the database refers to, in any revision: what
// a backup's file store must hold. Files are stored before the rows that refer to them commit,
// so the keys listed are already in the store.
func (s *Store) FileBlobKeys(ctx context.Context) ([]string, error) {
	var keys []string
	err := s.db.NewSelect().Table("file_versions").ColumnExpr("DISTINCT blob_key").
		Where("NOT deleted").Where("blob_key <> ''").Scan(ctx, &keys)
	if err != nil {
		return nil, fmt.Errorf("list file keys: %w", err)
	}
	return keys, nil
}
