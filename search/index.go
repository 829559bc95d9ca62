package search

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// indexRow is a page's row in the search index: the current version of a document page of a
// space's own line. PostgreSQL derives its tsvector column; SQLite mirrors it into FTS5.
type indexRow struct {
	bun.BaseModel `bun:"table:search_pages,alias:sp"`

	ID             int64 `bun:"id,pk,autoincrement"`
	OrganizationID string
	SpaceID        string
	PageID         string
	ContentID      *string
	Title          string
	Body           string
}

// indexBatch bounds the rows of one index statement.
const indexBatch = 500

// maxBatch bounds the ids of one IN list (storage.MaxBatch).
const maxBatch = 1000

// Doc is a page as search indexes it: the current version of a document page.
type Doc struct {
	PageID      string
	ContentID   *string
	Title       string
	Description *string
	Markdown    string
	// Included is the markdown of the reusable contents the page may include, by the name it
	// includes them by: their text is searched as the page's.
	Included map[string]string
}

// Reindex replaces the index rows of a space's pages: those of pageIDs (the changed and removed
// pages) are deleted and docs are indexed, with their words added to the organization's
// vocabulary. Storage calls it inside the write's transaction (tx), so that what a space shows
// is what search finds at once.
func (ix *Index) Reindex(ctx context.Context, tx bun.IDB, orgID, spaceID string, pageIDs []string, docs []Doc) error {
	for start := 0; start < len(pageIDs); start += maxBatch {
		chunk := pageIDs[start:min(start+maxBatch, len(pageIDs))]
		if _, err := tx.NewDelete().Model((*indexRow)(nil)).
			Where("space_id = ? AND page_id IN (?)", spaceID, bun.List(chunk)).Exec(ctx); err != nil {
			return fmt.Errorf("unindex pages: %w", err)
		}
	}
	rows := make([]*indexRow, 0, min(len(docs), indexBatch))
	words := map[string]bool{}
	insert := func() error {
		if len(rows) == 0 {
			return nil
		}
		if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
			return fmt.Errorf("index pages: %w", err)
		}
		rows = rows[:0]
		return nil
	}
	for _, d := range docs {
		row := &indexRow{OrganizationID: orgID, SpaceID: spaceID, PageID: d.PageID, ContentID: d.ContentID,
			Title: d.Title, Body: searchBody(d.Description, ix.text(d.Markdown, d.Included))}
		rows = append(rows, row)
		vocabulary(words, row.Title, row.Body)
		if len(rows) == indexBatch {
			if err := insert(); err != nil {
				return err
			}
		}
	}
	if err := insert(); err != nil {
		return err
	}
	return addTerms(ctx, tx, orgID, words)
}

// maxIndexedBody bounds the text indexed per page (PostgreSQL's tsvector holds at most 1 MiB).
const maxIndexedBody = 256 << 10

// searchBody is the text indexed for a page: its description and its body's text, cut to
// maxIndexedBody at a character's start.
func searchBody(description *string, text string) string {
	body := text
	if description != nil {
		body = *description + "\n" + text
	}
	if len(body) > maxIndexedBody {
		cut := maxIndexedBody
		for cut > 0 && !utf8.RuneStart(body[cut]) {
			cut--
		}
		body = body[:cut]
	}
	return strings.ToValidUTF8(body, "")
}
