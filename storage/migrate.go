package storage

import (
	"context"
	"embed"
	"fmt"

	"github.com/uptrace/bun/migrate"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrationTemplate is the data the SQL migrations are rendered with, one set of files for both
// dialects.
type migrationTemplate struct {
	Dialect   Dialect
	Timestamp string
}

func (s *Store) migrator() (*migrate.Migrator, error) {
	migrations := migrate.NewMigrations()
	if err := migrations.Discover(migrationFiles); err != nil {
		return nil, fmt.Errorf("discover migrations: %w", err)
	}
	return migrate.NewMigrator(s.db, migrations,
		migrate.WithTemplateData(migrationTemplate{Dialect: s.dialect, Timestamp: s.dialect.timestampType()}),
		migrate.WithMarkAppliedOnSuccess(true),
	), nil
}

// searchTermsMigration created the search vocabulary, which pages indexed before it are added to.
const searchTermsMigration = "20261125009001"

// Migrate applies every pending migration under the migration lock.
func (s *Store) Migrate(ctx context.Context) error {
	_, err := s.MigrateReport(ctx)
	return err
}

// MigrateReport applies every pending migration under the migration lock and returns the names of
// those it applied, in order (none when the database was up to date).
func (s *Store) MigrateReport(ctx context.Context) ([]string, error) {
	m, err := s.migrator()
	if err != nil {
		return nil, err
	}
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("init migrations: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		return nil, fmt.Errorf("lock migrations: %w", err)
	}
	defer m.Unlock(ctx) //nolint:errcheck // the migration result matters more than the unlock
	group, err := m.Migrate(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	for _, applied := range group.Migrations {
		if applied.Name == searchTermsMigration {
			if err := s.search.BackfillTerms(ctx); err != nil {
				return nil, err
			}
		}
	}
	// The job queue's tables are River's, versioned by River (still under Bindery's lock).
	if err := s.migrateJobs(ctx); err != nil {
		return nil, err
	}
	var names []string
	for _, mig := range group.Migrations {
		names = append(names, mig.Name)
	}
	return names, nil
}

// PendingMigrations lists the names of migrations not yet applied.
func (s *Store) PendingMigrations(ctx context.Context) ([]string, error) {
	m, err := s.migrator()
	if err != nil {
		return nil, err
	}
	if err := m.Init(ctx); err != nil {
		return nil, fmt.Errorf("init migrations: %w", err)
	}
	all, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	var names []string
	for _, mig := range all.Unapplied() {
		names = append(names, mig.Name)
	}
	return names, nil
}
