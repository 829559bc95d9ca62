package domain

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// maxSemanticChanges bounds the changes one answer lists (the contract's limit, default 10).
const maxSemanticChanges = 100

// semanticLimit checks the contract's limit on changes. Errors: Invalid.
func semanticLimit(limit *int) (int, error) {
	if limit == nil || *limit == 0 {
		return 10, nil
	}
	if *limit < 0 || *limit > maxSemanticChanges {
		return 0, apperr.Invalidf("limit", "must be a whole number from 0 to %d", maxSemanticChanges)
	}
	return *limit, nil
}

// ChangeRequestChanges is what a change request changes over its space, page by page: pages
// created, deleted, moved and edited, compared with the space's content it is layered on. Its
// cost follows the pages it changes. Errors: NotFound, Invalid.
func (r *App) ChangeRequestChanges(ctx context.Context, spaceID, changeRequestID string, limit *int) (*model.RevisionSemanticChanges, error) {
	n, err := semanticLimit(limit)
	if err != nil {
		return nil, err
	}
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	cr, err := r.Store.FindChangeRequest(ctx, row.ID, changeRequestID)
	if err != nil {
		return nil, notFound(err, "change request")
	}
	ids, err := r.Store.PagesOverlaid(ctx, cr.ID, cr.HeadSeq)
	if err != nil {
		return nil, err
	}
	return r.semanticChanges(ctx, storage.View{SpaceID: row.ID, BaseSeq: cr.BaseSeq}, changeRequestView(cr), ids, n)
}

// RevisionSemanticChanges is what a revision changed over its first parent, page by page (over
// nothing for a space's first revision), and the change request a merge revision merged.
// Errors: NotFound, Invalid.
func (r *App) RevisionSemanticChanges(ctx context.Context, spaceID, revisionID string, limit *int) (*model.RevisionSemanticChanges, error) {
	n, err := semanticLimit(limit)
	if err != nil {
		return nil, err
	}
	_, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	rev, err := r.Store.FindRevision(ctx, row.ID, revisionID)
	if err != nil {
		return nil, notFound(err, "revision")
	}
	var before *storage.View
	var parents []string
	if rev.Parents != "" {
		if err := json.Unmarshal([]byte(rev.Parents), &parents); err != nil {
			return nil, err
		}
	}
	if len(parents) > 0 {
		parent, err := r.Store.FindRevision(ctx, row.ID, parents[0])
		if err != nil {
			return nil, notFound(err, "revision")
		}
		v := storage.ViewOf(parent)
		before = &v
	}
	ids, err := r.Store.PagesChangedAt(ctx, rev.Line, rev.Seq)
	if err != nil {
		return nil, err
	}
	if before == nil {
		before = &storage.View{SpaceID: row.ID, BaseSeq: 0} // nothing before the first revision
	}
	out, err := r.semanticChanges(ctx, *before, storage.ViewOf(rev), ids, n)
	if err != nil {
		return nil, err
	}
	if rev.MergedFrom != nil {
		if out.MergedFrom, err = r.ChangeRequestByID(ctx, row.ID, *rev.MergedFrom); err != nil && apperr.KindOf(err) != apperr.NotFound {
			return nil, err
		}
	}
	return out, nil
}

// semanticChanges compares the pages ids in two views: four statements (the pages in each view,
// their parents, and the bodies of edited documents) whatever the size of the space.
func (r *App) semanticChanges(ctx context.Context, before, after storage.View, ids []string, limit int) (*model.RevisionSemanticChanges, error) {
	out := &model.RevisionSemanticChanges{Changes: []*model.SemanticChange{}}
	if len(ids) == 0 {
		return out, nil
	}
	was, err := r.pagesByID(ctx, before, ids)
	if err != nil {
		return nil, err
	}
	is, err := r.pagesByID(ctx, after, ids)
	if err != nil {
		return nil, err
	}
	// The parents of moved pages, named in both views, and the bodies of edited documents.
	var parentsBefore, parentsAfter, contents []string
	for _, id := range ids {
		b, a := was[id], is[id]
		if b == nil || a == nil {
			continue
		}
		if deref(b.ParentID) != deref(a.ParentID) {
			if b.ParentID != nil {
				parentsBefore = append(parentsBefore, *b.ParentID)
			}
			if a.ParentID != nil {
				parentsAfter = append(parentsAfter, *a.ParentID)
			}
		}
		if deref(b.ContentID) != deref(a.ContentID) {
			for _, c := range []*string{b.ContentID, a.ContentID} {
				if c != nil {
					contents = append(contents, *c)
				}
			}
		}
	}
	parentWas, err := r.pagesByID(ctx, before, parentsBefore)
	if err != nil {
		return nil, err
	}
	parentIs, err := r.pagesByID(ctx, after, parentsAfter)
	if err != nil {
		return nil, err
	}
	bodies := map[string]string{}
	if len(contents) > 0 {
		if bodies, err = r.Store.PageMarkdown(ctx, contents); err != nil {
			return nil, err
		}
	}
	var all []*model.SemanticChange
	for _, id := range ids {
		b, a := was[id], is[id]
		switch {
		case b == nil && a == nil:
			// Added and removed again: nothing changed.
		case b == nil:
			all = append(all, &model.SemanticChange{Type: "page_created", Page: changedPage(a)})
		case a == nil:
			all = append(all, &model.SemanticChange{Type: "page_deleted", Page: changedPage(b)})
		default:
			if deref(b.ParentID) != deref(a.ParentID) {
				all = append(all, &model.SemanticChange{Type: "page_moved", Page: changedPage(a), Parent: &model.ChangedParent{
					Before: changedParent(parentWas, b.ParentID), After: changedParent(parentIs, a.ParentID),
				}})
			}
			if attrs := changedAttributes(b, a, bodies); len(attrs) > 0 {
				all = append(all, &model.SemanticChange{Type: "page_edited", Page: changedPage(a), Attributes: attrs})
			}
		}
	}
	if len(all) > limit {
		out.More, all = len(all)-limit, all[:limit]
	}
	if all != nil {
		out.Changes = all
	}
	return out, nil
}

// pagesByID reads the live pages of a view among ids, keyed by id.
func (r *App) pagesByID(ctx context.Context, v storage.View, ids []string) (map[string]*storage.PageVersion, error) {
	out := map[string]*storage.PageVersion{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := r.Store.PagesIn(ctx, v, ids)
	if err != nil {
		return nil, err
	}
	for _, p := range rows {
		out[p.PageID] = p
	}
	return out, nil
}

func changedPage(p *storage.PageVersion) *model.ChangedPage {
	t := p.Type
	if p.Computed != nil {
		t = "computed"
	}
	return &model.ChangedPage{ID: p.PageID, Type: t, Title: p.Title}
}

// changedParent names a moved page's parent (nil: the top of the space).
func changedParent(pages map[string]*storage.PageVersion, id *string) *model.ChangedPage {
	if id == nil || pages[*id] == nil {
		return nil
	}
	return changedPage(pages[*id])
}

// changedAttributes lists the attributes of a page that differ between two versions, those the
// contract names for its type: a link's target is compared but not spelled out.
func changedAttributes(b, a *storage.PageVersion, bodies map[string]string) []*model.AttributeChange {
	var out []*model.AttributeChange
	add := func(name string, before, after *string) {
		if deref(before) != deref(after) {
			out = append(out, &model.AttributeChange{Name: name, Before: before, After: after})
		}
	}
	add("title", &b.Title, &a.Title)
	add("emoji", b.Emoji, a.Emoji)
	switch a.Type {
	case "link":
		return out
	case "group":
		add("slug", &b.Slug, &a.Slug)
		return out
	}
	add("slug", &b.Slug, &a.Slug)
	add("description", b.Description, a.Description)
	if deref(b.ContentID) != deref(a.ContentID) {
		body := func(id *string) *string {
			if id == nil {
				return nil
			}
			md := bodies[*id]
			return &md
		}
		if before, after := body(b.ContentID), body(a.ContentID); deref(before) != deref(after) {
			out = append(out, &model.AttributeChange{Name: "document", Before: before, After: after})
		}
	}
	return out
}
