package main

import (
	"context"
	"fmt"
	"time"

	"github.com/bindery/bindery/backup"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/urfave/cli/v3"
)

// filesLocation is the --files value, or the default next to the SQLite file, checked for form
// (a usage error) before anything is opened.
func filesLocation(cmd *cli.Command, c *config) (string, error) {
	loc := filesDir(c.Files, c.Database)
	if _, err := blob.ParseLocation(loc); err != nil {
		return "", usage(cmd, err.Error())
	}
	return loc, nil
}

// openFiles opens the file store and checks that it answers: a bucket that does not exist or
// refuses the credentials stops the command here, not at the first upload.
func openFiles(ctx context.Context, location string) (*blob.Store, error) {
	blobs, err := blob.Open(ctx, location)
	if err != nil {
		return nil, fmt.Errorf("open file storage: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := blobs.Check(cctx); err != nil {
		blobs.Close()
		return nil, fmt.Errorf("file storage unreachable: %w", err)
	}
	return blobs, nil
}

func (c *config) backupCommand() *cli.Command {
	b := &c.Backup
	return &cli.Command{
		Name:  "backup",
		Usage: "write a consistent backup (SQLite snapshot and uploaded files) into a new directory, while the server runs",
		Flags: []cli.Flag{
			c.databaseFlag(),
			c.filesFlag(),
			&cli.StringFlag{Name: "out", Required: true, Destination: &b.Out, Usage: "the backup directory (must not exist, or be empty)"},
			&cli.BoolFlag{Name: "skip-files", Destination: &b.SkipFiles, Usage: "leave the uploaded files out (a bucket protected by its own versioning or replication)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if isPostgres(c.Database) && c.Files == "" && !b.SkipFiles {
				// A PostgreSQL server's default (./bindery-files) is relative to where the server
				// runs, which this command cannot know: copying another directory would make a
				// backup without the files.
				return usage(cmd, "the uploaded files are not in the PostgreSQL database: give --files (or BINDERY_FILES) the location the server keeps them in (its --files, or bindery-files in the directory it runs in when it has none)")
			}
			location, err := filesLocation(cmd, c)
			if err != nil {
				return err
			}
			var blobs *blob.Store
			if !b.SkipFiles {
				if blobs, err = openFiles(ctx, location); err != nil {
					return err
				}
				defer blobs.Close()
			}
			store, err := storage.Open(ctx, c.Database)
			if err != nil {
				return err
			}
			defer store.Close()
			m, err := backup.Take(ctx, store, blobs, b.Out, backup.Options{Version: version, SkipFiles: b.SkipFiles})
			if err != nil {
				return err
			}
			switch {
			case m.Snapshot && m.FilesSkipped:
				fmt.Printf("backed up the SQLite database to %s; the files were skipped: they stay in %s\n", b.Out, blobs)
			case m.Snapshot:
				fmt.Printf("backed up the SQLite database and %d file(s) to %s\n", m.Files, b.Out)
			default:
				fmt.Printf("copied %d file(s) to %s; the PostgreSQL database is not in it: back it up with pg_dump (docs/operations.md)\n", m.Files, b.Out)
			}
			return nil
		},
	}
}

func (c *config) restoreCommand() *cli.Command {
	b := &c.Backup
	return &cli.Command{
		Name:  "restore",
		Usage: "restore a backup into a new SQLite database path and its file store (stop the server first)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Required: true, Destination: &b.From, Usage: "the backup directory"},
			c.databaseFlag(),
			c.filesFlag(),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			from, db := b.From, c.Database
			location, err := filesLocation(cmd, c)
			if err != nil {
				return err
			}
			m, err := backup.Read(from)
			if err != nil {
				return err
			}
			if m.Snapshot && isPostgresURL(db) {
				return fmt.Errorf("this backup holds a SQLite database; --database must be a SQLite path, not a PostgreSQL URL")
			}
			var blobs *blob.Store
			if !m.FilesSkipped { // the store must answer before anything is restored
				if blobs, err = openFiles(ctx, location); err != nil {
					return err
				}
				defer blobs.Close()
			}
			if m.Snapshot {
				if err := backup.RestoreDatabase(from, db); err != nil {
					return err
				}
			}
			if m.FilesSkipped {
				fmt.Printf("restored the database to %s; the backup holds no files: they are those of the store it was taken with\n", db)
				return nil
			}
			n, err := backup.RestoreFiles(ctx, from, blobs)
			if err != nil {
				return err
			}
			if m.Snapshot {
				fmt.Printf("restored the database to %s and %d file(s) to %s\n", db, n, blobs)
			} else {
				fmt.Printf("restored %d file(s) to %s; restore the PostgreSQL database with pg_restore (docs/operations.md)\n", n, blobs)
			}
			return nil
		},
	}
}

func isPostgresURL(db string) bool {
	return len(db) > 11 && (db[:11] == "postgres://" || (len(db) > 13 && db[:13] == "postgresql://"))
}
