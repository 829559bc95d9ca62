package domain

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Creating and deleting reusable content outside Git Sync. GitBook's API has no operation for
// either (its reusable-contents routes only read), so these are GraphQL's alone.

// CreateReusableContent adds a reusable content to the target's content: a change request
// (seen there until it is merged) or a live space. Its file is .gitbook/includes/<slug of the
// title>.md (made unique among the space's), which pages include with
// {% include ".gitbook/includes/<name>.md" %} (relative to the page) and Git Sync exports; the
// title goes into the file's front matter when the name would not give it back.
// Errors: Invalid, NotFound, Forbidden, Conflict (a closed change request).
func (r *App) CreateReusableContent(ctx context.Context, target model.ContentTarget, in model.CreateReusableContentInput) (*ReusableContentEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	id := storage.NewID()
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		current, err := c.ReusableContents(ctx)
		if err != nil {
			return nil, err
		}
		taken := map[string]bool{}
		for _, v := range current {
			if g := readBlobGit(v.Git); g != nil {
				taken[strings.ToLower(document.IncludeKey(g.Path))] = true
			}
		}
		base := gitsync.Slugify(in.Title)
		name := base + ".md"
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d.md", base, n)
		}
		path := gitsync.IncludesDir + "/" + name
		text := gitsync.IncludeText("", path, strings.TrimSpace(in.Title), deref(in.Markdown))
		contentID := storage.ContentID(c.OrganizationID, text)
		v := &storage.ReusableContentVersion{ReusableContentID: id, Title: strings.TrimSpace(in.Title),
			Git: jsonText(model.GitSyncBlob{Path: path}), ContentID: &contentID, CreatedAt: c.Now}
		return &storage.Edit{ReusableContents: []*storage.ReusableContentVersion{v}, Contents: []*storage.PageContent{{Markdown: text}}}, nil
	})
	if err != nil {
		return nil, err
	}
	out := &ReusableContentEdit{Revision: r.toRevision(rev, src)}
	if out.ReusableContent, err = r.ReusableContentByID(ctx, src, id); err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteReusableContent removes a reusable content from the target's content. GitBook's
// contract says nothing of a content still included, so one that a page (or another reusable
// content) of the target's content includes is refused: the error names the pages, and
// removing their includes first deletes it. Errors: NotFound, Forbidden, Invalid (a locked
// space without a change request), Conflict (still included; a closed change request).
func (r *App) DeleteReusableContent(ctx context.Context, target model.ContentTarget, id string) (*model.Revision, error) {
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		v, err := c.ReusableContent(ctx, id)
		if err != nil {
			return nil, notFound(err, "reusable content")
		}
		if g := readBlobGit(v.Git); g != nil {
			by, err := r.includedBy(ctx, c, document.IncludeKey(g.Path), id)
			if err != nil {
				return nil, err
			}
			if len(by) > 0 {
				return nil, apperr.Conflictf("the reusable content %q is still included by %s: remove those includes first", v.Title, nameList(by))
			}
		}
		return &storage.Edit{RemovedReusableContents: []string{id}}, nil
	})
	if err != nil {
		return nil, err
	}
	return r.toRevision(rev, src), nil
}

// includedBy names the pages and the other reusable contents of the line being edited that
// include the reusable content named key (document.IncludeKey): three statements.
func (r *App) includedBy(ctx context.Context, c *storage.ContentTx, key, self string) ([]string, error) {
	pages, err := c.IncludingPages(ctx)
	if err != nil {
		return nil, err
	}
	others, err := c.ReusableContents(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(pages)+len(others))
	for _, p := range pages {
		if p.ContentID != nil {
			ids = append(ids, *p.ContentID)
		}
	}
	for _, o := range others {
		if o.ContentID != nil && o.ReusableContentID != self {
			ids = append(ids, *o.ContentID)
		}
	}
	// Contents are immutable rows named by their text: reading them outside the edit's
	// transaction reads the same.
	bodies, err := r.Store.PageMarkdown(ctx, ids)
	if err != nil {
		return nil, err
	}
	var by []string
	for _, p := range pages {
		if slices.Contains(document.IncludedKeys(bodies[deref(p.ContentID)]), key) {
			by = append(by, fmt.Sprintf("page %q", p.Title))
		}
	}
	for _, o := range others {
		if o.ReusableContentID != self && slices.Contains(document.IncludedKeys(gitsync.IncludeBody(bodies[deref(o.ContentID)])), key) {
			by = append(by, fmt.Sprintf("reusable content %q", o.Title))
		}
	}
	return by, nil
}

// nameList joins names for a message: the first five, and how many more.
func nameList(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}
