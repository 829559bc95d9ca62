package storage

// Dialect names a supported database. SQL that differs between them is chosen here and in the
// migration templates, nowhere else.
type Dialect string

// The supported dialects.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// timestampType is the column type used for time.Time in migrations.
func (d Dialect) timestampType() string {
	if d == Postgres {
		return "TIMESTAMPTZ"
	}
	return "TIMESTAMP"
}
