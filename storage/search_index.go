package storage

import (
	"context"
	"fmt"

	"github.com/bindery/bindery/search"
	"github.com/uptrace/bun"
)

// indexEdit keeps the search index in step with a write to a space's own line, inside the
// write's transaction: the rows of the changed and removed pages are replaced by rows for their
// new versions. Writes to a change request's line are not indexed: search covers current content
// only.
func (s *Store) indexEdit(ctx context.Context, tx bun.Tx, l lineState, edit *Edit) error {
	if l.cr != nil || len(edit.Pages)+len(edit.RemovedPages) == 0 {
		return nil
	}
	ids := make([]string, 0, len(edit.Pages)+len(edit.RemovedPages))
	for _, p := range edit.Pages {
		ids = append(ids, p.PageID)
	}
	ids = append(ids, edit.RemovedPages...)
	markdown, err := indexedMarkdown(ctx, tx, edit)
	if err != nil {
		return err
	}
	docs := make([]search.Doc, 0, len(edit.Pages))
	for _, p := range edit.Pages {
		if p.Type != "document" || p.Deleted {
			continue
		}
		d := search.Doc{PageID: p.PageID, ContentID: p.ContentID, Title: p.Title, Description: p.Description, Included: edit.IncludedMarkdown}
		if p.ContentID != nil {
			d.Markdown = markdown[*p.ContentID]
		}
		docs = append(docs, d)
	}
	return s.search.Reindex(ctx, tx, l.space.OrganizationID, l.space.ID, ids, docs)
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
