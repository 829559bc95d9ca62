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

// joinInOrder is the join keyword that keeps the left table the outer loop. SQLite's planner
// may otherwise scan the right table whole and index the left on the fly (a recursive CTE's
// result is estimated large); only CROSS JOIN fixes the order there, and PostgreSQL accepts no
// ON clause after CROSS JOIN.
func (d Dialect) joinInOrder() string {
	if d == SQLite {
		return "CROSS JOIN"
	}
	return "JOIN"
}
