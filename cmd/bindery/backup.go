package main

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/backup"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/blob"
	"github.com/urfave/cli/v3"
)

func filesDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "files-dir", Sources: cli.EnvVars("BINDERY_FILES_DIR"), Usage: "where uploaded files are kept (default: DATABASE-files next to a SQLite file, ./bindery-files for PostgreSQL)"}
}

func backupCommand() *cli.Command {
	return &cli.Command{
		Name:  "backup",
		Usage: "write a consistent backup (SQLite snapshot and uploaded files) into a new directory, while the server runs",
		Flags: []cli.Flag{
			databaseFlag(),
			filesDirFlag(),
			&cli.StringFlag{Name: "out", Required: true, Usage: "the backup directory (must not exist, or be empty)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			db := cmd.String("database")
			store, err := storage.Open(ctx, db)
			if err != nil {
				return err
			}
			defer store.Close()
			blobs, err := blob.Open(filesDir(cmd.String("files-dir"), db))
			if err != nil {
				return err
			}
			m, err := backup.Take(ctx, store, blobs, cmd.String("out"), version)
			if err != nil {
				return err
			}
			if m.Snapshot {
				fmt.Printf("backed up the SQLite database and %d file(s) to %s\n", m.Files, cmd.String("out"))
			} else {
				fmt.Printf("copied %d file(s) to %s; the PostgreSQL database is not in it: back it up with pg_dump (docs/operations.md)\n", m.Files, cmd.String("out"))
			}
			return nil
		},
	}
}

func restoreCommand() *cli.Command {
	return &cli.Command{
		Name:  "restore",
		Usage: "restore a backup into a new SQLite database path and its files directory (stop the server first)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Required: true, Usage: "the backup directory"},
			databaseFlag(),
			filesDirFlag(),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			from, db := cmd.String("from"), cmd.String("database")
			m, err := backup.Read(from)
			if err != nil {
				return err
			}
			if m.Snapshot {
				if isPostgresURL(db) {
					return fmt.Errorf("this backup holds a SQLite database; --database must be a SQLite path, not a PostgreSQL URL")
				}
				if err := backup.RestoreDatabase(from, db); err != nil {
					return err
				}
			}
			blobs, err := blob.Open(filesDir(cmd.String("files-dir"), db))
			if err != nil {
				return err
			}
			n, err := backup.RestoreFiles(ctx, from, blobs)
			if err != nil {
				return err
			}
			if m.Snapshot {
				fmt.Printf("restored the database to %s and %d file(s) to %s\n", db, n, blobs.Dir())
			} else {
				fmt.Printf("restored %d file(s) to %s; restore the PostgreSQL database with pg_restore (docs/operations.md)\n", n, blobs.Dir())
			}
			return nil
		},
	}
}

func isPostgresURL(db string) bool {
	return len(db) > 11 && (db[:11] == "postgres://" || (len(db) > 13 && db[:13] == "postgresql://"))
}
