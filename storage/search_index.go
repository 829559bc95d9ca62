package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/bindery/bindery/search"
	"github.com/uptrace/bun"
)

// indexEdit keeps the search index in step with a write to a space's own line, inside the
// write's transaction: the rows of the changed and removed pages are replaced by rows for their
// new versions. Writes to a change request's line are not indexed: search covers current content
// only.
func (s *Store) indexEdit(ctx context.Context, tx bun.Tx, l lineState, edit *Edit) error {
	if l.cr != nil {
		return nil
	}
	if len(edit.ReusableContents)+len(edit.RemovedReusableContents) > 0 && s.include != nil {
		// Pages show the reusable contents they include as their own text: those that may
		// include one are indexed again with the new contents.
		including, err := includingPages(ctx, tx, View{SpaceID: l.space.ID, BaseSeq: l.seq + 1}, edit)
		if err != nil {
			return err
		}
		if len(including) > 0 {
			again := *edit
			again.Pages = append(slices.Clip(edit.Pages), including...)
			edit = &again
		}
	}
	if len(edit.Pages)+len(edit.RemovedPages) == 0 {
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
	included := edit.IncludedMarkdown
	if included == nil && s.include != nil && slices.ContainsFunc(edit.Pages, indexed) {
		// The edit's own line after it: the write is at the next sequence number.
		if included, err = s.includedMarkdown(ctx, tx, View{SpaceID: l.space.ID, BaseSeq: l.seq + 1}); err != nil {
			return err
		}
	}
	docs := make([]search.Doc, 0, len(edit.Pages))
	for _, p := range edit.Pages {
		if !indexed(p) {
			continue
		}
		d := search.Doc{PageID: p.PageID, ContentID: p.ContentID, Title: p.Title, Description: p.Description, Included: included}
		if p.ContentID != nil {
			d.Markdown = markdown[*p.ContentID]
		}
		docs = append(docs, d)
	}
	return s.search.Reindex(ctx, tx, l.space.OrganizationID, l.space.ID, ids, docs)
}

// indexed reports whether a written page version has index rows: a live document.
func indexed(p *PageVersion) bool { return p.Type == "document" && !p.Deleted }

// includedMarkdown reads the reusable contents of a view, named as pages include them
// (WithSearchTextIncluding), in one statement.
func (s *Store) includedMarkdown(ctx context.Context, tx bun.Tx, v View) (map[string]string, error) {
	var rows []struct {
		Git      *string
		Markdown string
	}
	cond, args := v.where(reusableContentVersions, "rcv")
	if err := tx.NewSelect().TableExpr("reusable_content_versions AS rcv").
		Join("JOIN page_contents AS pc ON pc.id = rcv.content_id").
		ColumnExpr("rcv.git, pc.markdown").
		Where(cond, args...).Where("NOT rcv.deleted").Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("read included contents: %w", translate(err))
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		var g struct {
			Path string `json:"path"`
		}
		if r.Git == nil || json.Unmarshal([]byte(*r.Git), &g) != nil || g.Path == "" {
			continue // pages include reusable content by its path
		}
		name, md := s.include(g.Path, r.Markdown)
		out[name] = md
	}
	return out, nil
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

// includingPages are the live document pages of a view whose markdown holds an include tag,
// but for those the edit writes itself: one statement.
func includingPages(ctx context.Context, tx bun.Tx, v View, edit *Edit) ([]*PageVersion, error) {
	var rows []*PageVersion
	if err := pagesQuery(tx, v, &rows).Join("JOIN page_contents AS pc ON pc.id = pv.content_id").
		Where("pv.type = 'document'").Where("pc.markdown LIKE ?", "%include%").Scan(ctx); err != nil {
		return nil, fmt.Errorf("read including pages: %w", translate(err))
	}
	written := make(map[string]bool, len(edit.Pages))
	for _, p := range edit.Pages {
		written[p.PageID] = true
	}
	return slices.DeleteFunc(rows, func(p *PageVersion) bool { return written[p.PageID] }), nil
}
