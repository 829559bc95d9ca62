package domain

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/text"
	"github.com/bindery/bindery/storage"
)

// PageEdit is the answer to a page mutation: the revision it made and the page as it now is
// (nil once deleted).
type PageEdit struct {
	Revision *model.Revision
	Page     *model.RevisionPage
	src      *ContentSource
}

// editContent runs an edit of the target's content as the caller: an editor of the space,
// writing into an open change request, or into the space itself when it is edited live.
// Errors: NotFound, Forbidden, Invalid (a locked space), Conflict (a closed change request).
func (r *App) editContent(ctx context.Context, target model.ContentTarget, fn func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error)) (*ContentSource, *storage.Revision, error) {
	sp, row, err := r.editableSpace(ctx, target.SpaceID)
	if err != nil {
		return nil, nil, err
	}
	t := storage.EditTarget{SpaceID: row.ID}
	if target.ChangeRequestID != nil {
		cr, err := r.Store.FindChangeRequest(ctx, row.ID, *target.ChangeRequestID)
		if err != nil {
			return nil, nil, notFound(err, "change request")
		}
		t.ChangeRequestID = cr.ID
	} else if row.EditMode != "live" {
		return nil, nil, apperr.Invalidf("changeRequestId", "the space is locked: edit it through a change request")
	}
	actor, _ := authz.RequireActor(ctx)
	ev := spaceEvent(EventSpaceContentUpdated, row)
	if t.ChangeRequestID != "" {
		ev = &storage.Event{Type: EventChangeRequestUpdated, OrganizationID: row.OrganizationID, SpaceID: row.ID, ChangeRequestID: t.ChangeRequestID, TargetType: "change-request", TargetID: t.ChangeRequestID}
	}
	ctx = r.emit(ctx, ev, map[string]any{"content": true})
	rev, err := r.Store.EditContent(ctx, t, actor.UserID, r.Now, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		edit, err := fn(ctx, c)
		if err != nil || edit.Empty() {
			return edit, err
		}
		return edit, keepsRootOrder(ctx, c, edit)
	})
	if err != nil {
		return nil, nil, contentWriteErr(err)
	}
	return keepSource(ctx, &ContentSource{Space: sp, row: row, View: storage.ViewOf(rev), RevisionID: rev.ID}), rev, nil
}

// keepsRootOrder refuses an edit that leaves a page after a group at the root of the space:
// Git Sync's SUMMARY.md puts everything below a group's heading inside the group, so that order
// would not survive a sync (gitsync.CheckOrder). A page already out of order (written before the
// rule) does not block other edits. Errors: Invalid.
func keepsRootOrder(ctx context.Context, c *storage.ContentTx, edit *storage.Edit) error {
	if !slices.ContainsFunc(edit.Pages, func(v *storage.PageVersion) bool { return v.ParentID == nil }) {
		return nil // no page arrives at or moves within the root
	}
	before, err := c.Children(ctx, nil)
	if err != nil {
		return err
	}
	byID := map[string]*storage.PageVersion{}
	for _, v := range before {
		byID[v.PageID] = v
	}
	for _, v := range edit.Pages {
		if v.ParentID == nil {
			byID[v.PageID] = v
		} else {
			delete(byID, v.PageID)
		}
	}
	for _, id := range edit.RemovedPages {
		delete(byID, id)
	}
	after := slices.SortedFunc(maps.Values(byID), func(a, b *storage.PageVersion) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.PageID, b.PageID))
	})
	outOfOrder := map[string]bool{}
	seenGroup := false
	for _, v := range before {
		seenGroup = seenGroup || v.Type == string(model.PageTypeGroup)
		outOfOrder[v.PageID] = seenGroup && v.Type != string(model.PageTypeGroup)
	}
	var roots []*gitsync.Page
	for _, v := range after {
		if !outOfOrder[v.PageID] {
			roots = append(roots, &gitsync.Page{Kind: v.Type, Title: v.Title})
		}
	}
	if err := gitsync.CheckOrder(roots); err != nil {
		return apperr.Invalidf("before", "%s", err.Error())
	}
	return nil
}

// pageEdit finishes a page mutation: the revision made and the page read back from it.
func (r *App) pageEdit(ctx context.Context, src *ContentSource, rev *storage.Revision, pageID string) (*PageEdit, error) {
	out := &PageEdit{Revision: r.toRevision(rev, src), src: src}
	if pageID == "" {
		return out, nil
	}
	page, err := r.Page(ctx, src, pageID, FormatMarkdown)
	if err != nil {
		return nil, err
	}
	out.Page = page
	return out, nil
}

// CreatePage adds a page under a parent (or at the root), before or after a sibling or last.
// Errors: Invalid, NotFound, Forbidden, Conflict.
func (r *App) CreatePage(ctx context.Context, target model.ContentTarget, in model.CreatePageInput) (*PageEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	pageID := storage.NewID()
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		siblings, err := placeUnder(ctx, c, in.Parent, in.PageType())
		if err != nil {
			return nil, err
		}
		pos, renumbered, err := position(siblings, in.Before, in.After, "")
		if err != nil {
			return nil, err
		}
		v := &storage.PageVersion{
			PageID: pageID, ParentID: in.Parent, Position: pos, Type: string(in.PageType()), Title: in.Title,
			Emoji: in.Emoji, Icon: in.Icon, Description: in.Description, CreatedAt: c.Now, UpdatedAt: c.Now,
		}
		v.Hidden, v.NoIndex = in.Hidden != nil && *in.Hidden, in.NoIndex != nil && *in.NoIndex
		if in.PageType() != model.PageTypeLink {
			v.Slug = uniqueSlug(slugify(in.Title), siblings, "")
			if in.Slug != nil {
				if err := slugFree(*in.Slug, siblings, ""); err != nil {
					return nil, err
				}
				v.Slug = *in.Slug
			}
		}
		if in.Layout != nil {
			v.Layout = jsonText(in.Layout)
		}
		if !in.Target.IsNull() {
			s := string(in.Target)
			v.LinkTarget = &s
		}
		edit := &storage.Edit{Pages: append([]*storage.PageVersion{v}, renumbered...)}
		if in.PageType() == model.PageTypeDocument {
			edit.Contents = setMarkdown(v, c.OrganizationID, deref(in.Markdown))
		}
		return edit, nil
	})
	if err != nil {
		return nil, err
	}
	return r.pageEdit(ctx, src, rev, pageID)
}

// placeUnder checks that a page of type t may live under parent and returns its future siblings.
func placeUnder(ctx context.Context, c *storage.ContentTx, parent *string, t model.PageType) ([]*storage.PageVersion, error) {
	if parent != nil {
		p, err := c.Page(ctx, *parent)
		if err != nil {
			return nil, apperr.NotFoundf("parent page not found")
		}
		if p.Type == string(model.PageTypeLink) {
			return nil, apperr.Invalidf("parent", "a link page has no child pages")
		}
		if t == model.PageTypeGroup {
			return nil, apperr.Invalidf("parent", "groups live at the root of the space")
		}
	}
	return c.Children(ctx, parent)
}

// position places a page among siblings (ordered, excluding self): before or after one of
// them, or last. Positions are floats, so placing a page normally rewrites no sibling; when
// repeated halving leaves no room between two neighbours, the siblings are renumbered and
// returned, to be written with the page.
func position(siblings []*storage.PageVersion, before, after *string, self string) (float64, []*storage.PageVersion, error) {
	others := siblings[:0:0]
	for _, s := range siblings {
		if s.PageID != self {
			others = append(others, s)
		}
	}
	at := len(others) // index the page takes among the others
	for field, id := range map[string]*string{"before": before, "after": after} {
		if id == nil {
			continue
		}
		i := slices.IndexFunc(others, func(s *storage.PageVersion) bool { return s.PageID == *id })
		if i < 0 {
			return 0, nil, apperr.Invalidf(field, "%s is not a sibling of the page", *id)
		}
		if at = i; field == "after" {
			at = i + 1
		}
	}
	switch {
	case len(others) == 0:
		return 0, nil, nil
	case at == 0:
		return others[0].Position - 1, nil, nil
	case at == len(others):
		return others[at-1].Position + 1, nil, nil
	}
	lo, hi := others[at-1].Position, others[at].Position
	if mid := lo + (hi-lo)/2; mid > lo && mid < hi {
		return mid, nil, nil
	}
	for i, s := range others {
		s.Position = float64(i)
		if i >= at {
			s.Position++
		}
	}
	return float64(at), others, nil
}

// setMarkdown points a version at its markdown and returns the body to store (shared with any
// identical body already stored).
func setMarkdown(v *storage.PageVersion, orgID, markdown string) []*storage.PageContent {
	id := storage.ContentID(orgID, markdown)
	v.ContentID = &id
	c := &storage.PageContent{Markdown: markdown}
	for _, ref := range document.References(markdown) {
		c.Refs = append(c.Refs, &storage.ContentRef{Node: ref.Node, Type: ref.Type, Target: ref.Target})
	}
	return []*storage.PageContent{c}
}

// UpdatePage changes a page's title, slug, content or options. Errors: Invalid, NotFound,
// Forbidden, Conflict.
func (r *App) UpdatePage(ctx context.Context, target model.ContentTarget, pageID string, in model.UpdatePageInput) (*PageEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		v, err := c.Page(ctx, pageID)
		if err != nil {
			return nil, apperr.NotFoundf("page not found")
		}
		edit := &storage.Edit{}
		if err := applyPageUpdate(v, in); err != nil {
			return nil, err
		}
		if s := in.Slug.Value(); s != nil && v.Type != string(model.PageTypeLink) {
			siblings, err := c.Children(ctx, v.ParentID)
			if err != nil {
				return nil, err
			}
			if err := slugFree(*s, siblings, v.PageID); err != nil {
				return nil, err
			}
			v.Slug = *s
		}
		if md := in.Markdown.Value(); md != nil {
			if v.Type != string(model.PageTypeDocument) {
				return nil, apperr.Invalidf("markdown", "only document pages have content")
			}
			if v.Computed != nil {
				return nil, apperr.Invalidf("markdown", "this page is generated from an OpenAPI specification: move it to another version with updateOpenAPIPages")
			}
			edit.Contents = setMarkdown(v, c.OrganizationID, *md)
		}
		v.UpdatedAt = c.Now
		edit.Pages = []*storage.PageVersion{v}
		return edit, nil
	})
	if err != nil {
		return nil, err
	}
	return r.pageEdit(ctx, src, rev, pageID)
}

// applyPageUpdate copies the set fields of in onto v (content and slug are handled by the caller).
func applyPageUpdate(v *storage.PageVersion, in model.UpdatePageInput) error {
	if t := in.Title.Value(); t != nil {
		v.Title = *t
	}
	if val, set := in.Emoji.ValueOK(); set {
		v.Emoji = val
	}
	if val, set := in.Icon.ValueOK(); set {
		v.Icon = val
	}
	if val, set := in.Description.ValueOK(); set {
		v.Description = val
	}
	if b := in.Hidden.Value(); b != nil {
		v.Hidden = *b
	}
	if b := in.NoIndex.Value(); b != nil {
		v.NoIndex = *b
	}
	if b := in.NoRobotsIndex.Value(); b != nil {
		v.NoRobotsIndex = *b
	}
	if val, set := in.Layout.ValueOK(); set {
		v.Layout = nil
		if val != nil {
			v.Layout = jsonText(val)
		}
	}
	if val, set := in.Cover.ValueOK(); set {
		v.Cover = rawText(val)
	}
	if val, set := in.Variables.ValueOK(); set {
		v.Variables = rawText(val)
	}
	if val, set := in.Target.ValueOK(); set {
		if v.Type != string(model.PageTypeLink) {
			return apperr.Invalidf("target", "only link pages have a target")
		}
		v.LinkTarget = rawText(val)
	}
	return nil
}

// MovePage moves a page (with its descendants) under a parent and/or among its siblings.
// Errors: Invalid (into itself, or a group below the root), NotFound, Forbidden, Conflict.
func (r *App) MovePage(ctx context.Context, target model.ContentTarget, pageID string, in model.MovePageInput) (*PageEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		v, err := c.Page(ctx, pageID)
		if err != nil {
			return nil, apperr.NotFoundf("page not found")
		}
		if in.Parent != nil {
			if err := notInside(ctx, c, *in.Parent, pageID); err != nil {
				return nil, err
			}
		}
		siblings, err := placeUnder(ctx, c, in.Parent, model.PageType(v.Type))
		if err != nil {
			return nil, err
		}
		var renumbered []*storage.PageVersion
		if v.Position, renumbered, err = position(siblings, in.Before, in.After, pageID); err != nil {
			return nil, err
		}
		if deref(v.ParentID) != deref(in.Parent) && v.Type != string(model.PageTypeLink) {
			v.Slug = uniqueSlug(v.Slug, siblings, pageID)
		}
		v.ParentID, v.UpdatedAt = in.Parent, c.Now
		return &storage.Edit{Pages: append([]*storage.PageVersion{v}, renumbered...)}, nil
	})
	if err != nil {
		return nil, err
	}
	return r.pageEdit(ctx, src, rev, pageID)
}

// notInside refuses to move a page under itself or one of its descendants.
func notInside(ctx context.Context, c *storage.ContentTx, parentID, pageID string) error {
	for id, depth := parentID, 0; id != "" && depth < 64; depth++ {
		if id == pageID {
			return apperr.Invalidf("parent", "a page cannot move inside itself")
		}
		p, err := c.Page(ctx, id)
		if err != nil {
			return apperr.NotFoundf("parent page not found")
		}
		id = deref(p.ParentID)
	}
	return nil
}

// DeletePage removes a page and its descendants. Errors: NotFound, Forbidden, Conflict.
func (r *App) DeletePage(ctx context.Context, target model.ContentTarget, pageID string) (*PageEdit, error) {
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		if _, err := c.Page(ctx, pageID); err != nil {
			return nil, apperr.NotFoundf("page not found")
		}
		descendants, err := c.Descendants(ctx, pageID)
		if err != nil {
			return nil, err
		}
		removed := []string{pageID}
		for _, d := range descendants {
			removed = append(removed, d.PageID)
		}
		return &storage.Edit{RemovedPages: removed}, nil
	})
	if err != nil {
		return nil, err
	}
	return r.pageEdit(ctx, src, rev, "")
}

// slugify derives a page slug from a title (text.Slug), at most 100 characters.
func slugify(title string) string { return text.SlugOf(title, 100, "page") }

// slugFree refuses a slug a sibling (other than self) already uses: a slug given by the caller
// is kept as given or refused, never changed. Errors: Invalid.
func slugFree(slug string, siblings []*storage.PageVersion, self string) error {
	if uniqueSlug(slug, siblings, self) != slug {
		return apperr.Invalidf("slug", "another page at this level already uses %q", slug)
	}
	return nil
}

// uniqueSlug returns slug, or slug-2, slug-3… if a sibling (other than self) already uses it.
// Every page slug the graph derives (created, moved, imported, copied) goes through it.
func uniqueSlug(slug string, siblings []*storage.PageVersion, self string) string {
	taken := map[string]bool{}
	for _, s := range siblings {
		if s.PageID != self {
			taken[s.Slug] = true
		}
	}
	return text.Unique(slug, func(s string) bool { return taken[s] })
}

func jsonText(v any) *string {
	b, _ := json.Marshal(v)
	s := string(b)
	return &s
}

func rawText(j model.JSON) *string {
	if j.IsNull() {
		return nil
	}
	s := string(j)
	return &s
}
