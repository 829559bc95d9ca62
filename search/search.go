// Package search is Bindery's full-text search, whole: how a query is read (query.go), which
// words it looks for once completed and corrected (plan.go), how pages are indexed as they are
// written (index.go, terms.go), and how each database matches and ranks them (rank.go, and
// sqlite.go and postgres.go for what only one of them does). Storage's edit transaction calls
// Reindex; the graph plans and reads through an Index.
package search

import (
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Index reads and writes the search index of one database.
type Index struct {
	db     bun.IDB // writes (and may read)
	rdb    bun.IDB // reads only: on SQLite, a pool apart from the one writer
	sqlite bool
	text   func(markdown string, included map[string]string) string
}

// New is the index of the database db writes to and rdb reads from. text reads a page's
// markdown, with the reusable contents it may include, as the text to index (nil indexes the
// markdown itself).
func New(db, rdb *bun.DB, text func(markdown string, included map[string]string) string) *Index {
	if text == nil {
		text = func(markdown string, _ map[string]string) string { return markdown }
	}
	return &Index{db: db, rdb: rdb, sqlite: db.Dialect().Name() == dialect.SQLite, text: text}
}
