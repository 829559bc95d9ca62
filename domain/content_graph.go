package domain

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// The GraphQL side of content: revisions resolve their pages and files lazily, from the source
// they were read from.

// revisionHeader is a revision without its pages and files, which GraphQL resolves on demand.
func (r *App) RevisionHeader(ctx context.Context, src *ContentSource) (*model.Revision, error) {
	rev, err := r.Store.FindRevision(ctx, src.row.ID, src.RevisionID)
	if err != nil {
		return nil, notFound(err, "revision")
	}
	return r.toRevision(rev, src), nil
}

// sourceOf is the content a GraphQL revision object shows.
func (r *App) SourceOf(ctx context.Context, rev *model.Revision) (*ContentSource, error) {
	if src, ok := SourceByKey(ctx, rev.Content); ok {
		return src, nil
	}
	return r.RevisionContent(ctx, rev.SpaceID, rev.ID)
}

// Revisions pages through a space's revisions (its own and its change requests'), newest first.
func (r *App) Revisions(ctx context.Context, spaceID string, first *int, after *string) (*model.Connection[*model.Revision], error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.RevisionPageOf(ctx, row.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, func(rev *storage.Revision) *model.Revision {
		return r.toRevision(rev, keepSource(ctx, &ContentSource{Space: sp, row: row, View: storage.ViewOf(rev), RevisionID: rev.ID}))
	}), nil
}

// pageMarkdown is a document page's markdown; the pages of one tree load theirs in one batch.
func (r *App) PageMarkdown(ctx context.Context, p *model.RevisionPage) (*string, error) {
	if p.Markdown != nil || p.Type != model.PageTypeDocument {
		return p.Markdown, nil
	}
	if p.DocumentID == nil {
		empty := ""
		return &empty, nil
	}
	md, _, err := loader.For(ctx, r.Store).PageContents.Load(ctx, *p.DocumentID)
	if err != nil {
		return nil, err
	}
	return &md, nil
}

// pageDocument is a document page's content as a document tree.
func (r *App) PageDocument(ctx context.Context, p *model.RevisionPage) (model.JSON, error) {
	if p.Type != model.PageTypeDocument {
		return nil, nil
	}
	if p.Document == nil {
		md, err := r.PageMarkdown(ctx, p)
		if err != nil {
			return nil, err
		}
		src, ok := SourceByKey(ctx, p.Content)
		if !ok {
			return nil, apperr.NotFoundf("page not found")
		}
		doc, err := r.documentOf(ctx, src, *md)
		if err != nil {
			return nil, err
		}
		p.Document = &doc
	}
	b, err := json.Marshal(p.Document)
	return model.JSON(b), err
}

// errFormat is the answer to a format that is neither document nor markdown, in both doors.
func errFormat() error { return apperr.Invalidf("format", `must be "document" or "markdown"`) }

// pageFormat checks the format a page is read in; "" is the default, document. Errors: Invalid.
func pageFormat(f model.PageFormat) (model.PageFormat, error) {
	switch {
	case f == "":
		return model.PageFormatDocument, nil
	case !f.IsValid():
		return "", errFormat()
	}
	return f, nil
}

func FormatOf(f *model.PageFormat) model.PageFormat {
	if f == nil {
		return model.PageFormatDocument
	}
	return *f
}

// nilIfNotFound turns NotFound into GraphQL's null for optional lookups.
func NilIfNotFound[T any](v *T, err error) (*T, error) {
	if err != nil && apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	return v, err
}

// SpaceRevision is a space's current revision, as the graph shows it (its pages and files load
// when asked). Under a list of spaces (which already decided the caller's role and keeps the
// spaces' rows in the request's loaders), every space's revision leaves in one batch, and so do
// their page trees and markdown after it (announced by readableSpaces). Errors: NotFound.
func (r *App) SpaceRevision(ctx context.Context, sp *model.Space) (*model.Revision, error) {
	if loader.Alone(ctx) || !canRead(sp.ViewerRole) {
		src, err := r.SpaceContent(ctx, sp.ID) // read afresh, after a change too
		if err != nil {
			return nil, err
		}
		return r.RevisionHeader(ctx, src)
	}
	l := loader.For(ctx, r.Store)
	row, err := l.Spaces.Find(ctx, sp.ID)
	if err != nil {
		return nil, notFound(err, "space")
	}
	rev, err := l.Revisions.Find(ctx, row.RevisionID)
	if err == nil && rev.SpaceID != row.ID {
		err = storage.ErrNotFound
	}
	if err != nil {
		return nil, notFound(err, "revision")
	}
	return r.toRevision(rev, keepSource(ctx, &ContentSource{Space: sp, row: row, View: storage.View{SpaceID: row.ID, BaseSeq: row.RevisionSeq}, RevisionID: row.RevisionID})), nil
}

// announceSpaceContent tells the loaders what each of a list's spaces is about to read of its
// content, when the request asks for it, and keeps the spaces' rows for them.
func (r *App) announceSpaceContent(ctx context.Context, rows []*storage.Space) {
	if len(rows) == 0 || !Wants(ctx, WantSpaceContent) {
		return
	}
	l := loader.For(ctx, r.Store)
	byID := make(map[string]*storage.Space, len(rows))
	for _, s := range rows {
		byID[s.ID] = s
	}
	l.Spaces.Prime(byID)
	expectContentReads(ctx, l, len(rows))
}

// expectContentReads tells the loaders that n contents of a list are about to read their
// revision, and their page trees and page contents when the request asks for them.
func expectContentReads(ctx context.Context, l *loader.Loaders, n int) {
	l.Revisions.Expect(n)
	if Wants(ctx, WantRevisionPages) {
		l.PageTrees.Expect(n)
		if Wants(ctx, WantPageContent) {
			l.PageContents.ExpectCalls(n)
		}
	}
}

// ChangeRequestRevision is a change request's latest revision, as the graph shows it. Under a
// list of change requests (whose rows and space the request's loaders keep), every change
// request's revision leaves in one batch, and so do their page trees and markdown after it.
// Errors: NotFound.
func (r *App) ChangeRequestRevision(ctx context.Context, cr *model.ChangeRequest) (*model.Revision, error) {
	if loader.Alone(ctx) {
		src, err := r.ChangeRequestContent(ctx, cr.Space, cr.ID) // read afresh, after a change too
		if err != nil {
			return nil, err
		}
		return r.RevisionHeader(ctx, src)
	}
	l := loader.For(ctx, r.Store)
	row, err := l.ChangeRequests.Find(ctx, cr.ID)
	if err != nil {
		return nil, notFound(err, "change request")
	}
	spaceRow, err := l.Spaces.Find(ctx, row.SpaceID)
	if err != nil {
		return nil, notFound(err, "space")
	}
	acc, err := r.viewerAccess(ctx, spaceRow.OrganizationID)
	if err != nil {
		return nil, err
	}
	role := acc.SpaceRole(spaceNode(spaceRow))
	if !canRead(role) {
		return nil, apperr.NotFoundf("change request not found")
	}
	rev, err := l.Revisions.Find(ctx, row.RevisionID)
	if err == nil && rev.SpaceID != spaceRow.ID {
		err = storage.ErrNotFound
	}
	if err != nil {
		return nil, notFound(err, "revision")
	}
	src := keepSource(ctx, &ContentSource{Space: r.toSpace(spaceRow, role), row: spaceRow, View: changeRequestView(row), RevisionID: row.RevisionID})
	return r.toRevision(rev, src), nil
}

// announceChangeRequestContent is announceSpaceContent for a list of a space's change requests.
func (r *App) announceChangeRequestContent(ctx context.Context, space *storage.Space, rows []*storage.ChangeRequest) {
	r.primeChangeRequests(ctx, map[string]*storage.Space{space.ID: space}, rows)
}
