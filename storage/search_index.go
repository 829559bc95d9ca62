package storage

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// SearchPage is a page's row in the search index: the current version of a document page of a
// space's own line. PostgreSQL derives its tsvector column; SQLite mirrors it into FTS5.
type SearchPage struct {
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

// indexEdit keeps the search index in step with a write to a space's own line, inside the
// write's transaction, so that what a space shows is what search finds at once. The rows of the
// changed and removed pages are replaced by rows for the new versions. Writes to a change
// request's line are not indexed: search covers current content only.
func (s *Store) indexEdit(ctx context.Context, tx bun.Tx, l lineState, edit *Edit) error {
	if l.cr != nil || len(edit.Pages)+len(edit.RemovedPages) == 0 {
		return nil
	}
	ids := make([]string, 0, len(edit.Pages)+len(edit.RemovedPages))
	for _, p := range edit.Pages {
		ids = append(ids, p.PageID)
	}
	ids = append(ids, edit.RemovedPages...)
	for start := 0; start < len(ids); start += MaxBatch {
		chunk := ids[start:min(start+MaxBatch, len(ids))]
		if _, err := tx.NewDelete().Model((*SearchPage)(nil)).
			Where("space_id = ? AND page_id IN (?)", l.space.ID, bun.List(chunk)).Exec(ctx); err != nil {
			return fmt.Errorf("unindex pages: %w", translate(err))
		}
	}
	markdown, err := indexedMarkdown(ctx, tx, edit)
	if err != nil {
		return err
	}
	rows := make([]*SearchPage, 0, indexBatch)
	words := map[string]bool{}
	insert := func() error {
		if len(rows) == 0 {
			return nil
		}
		if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
			return fmt.Errorf("index pages: %w", translate(err))
		}
		rows = rows[:0]
		return nil
	}
	for _, p := range edit.Pages {
		if p.Type != "document" || p.Deleted {
			continue
		}
		md := ""
		if p.ContentID != nil {
			md = markdown[*p.ContentID]
		}
		row := &SearchPage{
			OrganizationID: l.space.OrganizationID, SpaceID: l.space.ID, PageID: p.PageID,
			ContentID: p.ContentID, Title: p.Title, Body: searchBody(p.Description, s.searchText(md, edit.IncludedMarkdown)),
		}
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
	return addTerms(ctx, tx, l.space.OrganizationID, words)
}

// indexedMarkdown returns the markdown of the edit's pages by content id: the edit's new bodies,
// and the stored ones it refers to (a merge brings no bodies of its own).
func indexedMarkdown(ctx context.Context, tx bun.Tx, edit *Edit) (map[string]string, error) {
	out := make(map[string]string, len(edit.Contents))
	for _, c := range edit.Contents {
		out[c.ID] = c.Markdown
	}
	var missing []string
	for _, p := range edit.Pages {
		if p.ContentID != nil && p.Type == "document" {
			if _, ok := out[*p.ContentID]; !ok {
				out[*p.ContentID] = ""
				missing = append(missing, *p.ContentID)
			}
		}
	}
	for start := 0; start < len(missing); start += MaxBatch {
		var rows []*PageContent
		chunk := missing[start:min(start+MaxBatch, len(missing))]
		if err := tx.NewSelect().Model(&rows).Where("pc.id IN (?)", bun.List(chunk)).Scan(ctx); err != nil {
			return nil, fmt.Errorf("read indexed contents: %w", translate(err))
		}
		for _, r := range rows {
			out[r.ID] = r.Markdown
		}
	}
	return out, nil
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
