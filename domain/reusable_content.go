package domain

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/expr"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Reusable content: read through a content source (a space's current content, a change
// request's, a revision) as pages are, and edited in a change request or a live space.

// ReusableContentsOf lists the reusable contents of a content source, by title: one statement.
func (r *App) ReusableContentsOf(ctx context.Context, src *ContentSource) ([]*model.RevisionReusableContent, error) {
	rows, err := r.Store.ReusableContentsOf(ctx, src.View)
	if err != nil {
		return nil, err
	}
	out := make([]*model.RevisionReusableContent, len(rows))
	for i, v := range rows {
		out[i] = toReusableContent(src, v)
	}
	return out, nil
}

// ReusableContentByID reads one reusable content of a content source. Errors: NotFound.
func (r *App) ReusableContentByID(ctx context.Context, src *ContentSource, id string) (*model.RevisionReusableContent, error) {
	v, err := r.Store.ReusableContentOf(ctx, src.View, id)
	if err != nil {
		return nil, notFound(err, "reusable content")
	}
	return toReusableContent(src, v), nil
}

func toReusableContent(src *ContentSource, v *storage.ReusableContentVersion) *model.RevisionReusableContent {
	return &model.RevisionReusableContent{ID: v.ReusableContentID, Title: v.Title, Git: readBlobGit(v.Git), DocumentID: v.ContentID, Content: src.key()}
}

// ReusableContentMarkdown is a reusable content's markdown, without the front matter its file
// keeps (its title is its own field). Reads of many are batched.
func (r *App) ReusableContentMarkdown(ctx context.Context, rc *model.RevisionReusableContent) (string, error) {
	if rc.DocumentID == nil {
		return "", nil
	}
	text, _, err := loader.For(ctx, r.Store).PageContents.Load(ctx, *rc.DocumentID)
	if err != nil {
		return "", err
	}
	return gitsync.IncludeMarkdown(text), nil
}

// ReusableContentDocument is a reusable content's document: relative references start from its
// file, the reusable contents it includes are in place, and its expressions are evaluated as
// asked (no page variables apply). Errors: Invalid (evaluated, a document too large).
func (r *App) ReusableContentDocument(ctx context.Context, src *ContentSource, rc *model.RevisionReusableContent, evaluation model.Evaluation) (document.Document, error) {
	if evaluation != "" && !evaluation.IsValid() {
		return document.Document{}, apperr.Invalidf("evaluated", `must be true, false or "deterministic-only"`)
	}
	markdown, err := r.ReusableContentMarkdown(ctx, rc)
	if err != nil {
		return document.Document{}, err
	}
	inc := document.Include{ID: rc.ID, Markdown: markdown}
	if rc.Git != nil {
		inc.Path = rc.Git.Path
	}
	files, filesErr := r.fileResolver(ctx, src)
	includes, includeErr := r.includeResolver(ctx, src, nil)
	doc, err := document.ConvertReusable(inc, files, includes)
	if errors.Is(err, document.ErrTooLarge) {
		return doc, apperr.Invalidf("document", "the reusable content is too large to read as a document (over %d nodes)", document.MaxReadNodes)
	}
	if err := errors.Join(*filesErr, *includeErr); err != nil {
		return doc, err
	}
	if evaluation != "" && evaluation != model.EvaluateNone {
		mode := expr.All
		if evaluation == model.EvaluateDeterministic {
			mode = expr.Deterministic
		}
		doc = document.Evaluate(doc, expr.Evaluator(expr.Env{SpaceVars: map[string]string{}, PageVars: map[string]string{}}, mode, r.Now))
	}
	return doc, nil
}

// ReusableContentEdit is what an edit of a reusable content returns: the revision it made and
// the reusable content read back from it.
type ReusableContentEdit struct {
	Revision        *model.Revision
	ReusableContent *model.RevisionReusableContent
}

// UpdateReusableContent changes a reusable content's title or markdown in the target's content:
// a change request (where only that change request sees it until it is merged) or a live
// space. Its file keeps its front matter, with the title written into it, so Git Sync exports
// what the edit says. Errors: Invalid, NotFound, Forbidden, Conflict (a closed change request).
func (r *App) UpdateReusableContent(ctx context.Context, target model.ContentTarget, id string, in model.UpdateReusableContentInput) (*ReusableContentEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		v, err := c.ReusableContent(ctx, id)
		if err != nil {
			return nil, notFound(err, "reusable content")
		}
		// Contents are immutable rows named by their text: reading one outside the edit's
		// transaction reads the same.
		bodies, err := r.Store.PageMarkdown(ctx, []string{deref(v.ContentID)})
		if err != nil {
			return nil, err
		}
		old, path := bodies[deref(v.ContentID)], ""
		if g := readBlobGit(v.Git); g != nil {
			path = g.Path
		}
		title, body := v.Title, gitsync.IncludeMarkdown(old)
		if in.Title != nil {
			title = *in.Title
		}
		if in.Markdown != nil {
			body = *in.Markdown
		}
		text := gitsync.IncludeText(old, path, title, body)
		if title == v.Title && text == old {
			return &storage.Edit{}, nil
		}
		contentID := storage.ContentID(c.OrganizationID, text)
		v.Title, v.ContentID, v.CreatedAt = title, &contentID, c.Now
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

// RevisionReusableContents are a GraphQL revision's reusable contents.
func (r *App) RevisionReusableContents(ctx context.Context, rev *model.Revision) ([]*model.RevisionReusableContent, error) {
	src, err := r.SourceOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	list, err := r.ReusableContentsOf(ctx, src)
	if err != nil || !Wants(ctx, WantReusableContentText) {
		return list, err
	}
	// Each one's markdown is one key of one batch.
	withContent := 0
	for _, rc := range list {
		if rc.DocumentID != nil {
			withContent++
		}
	}
	loader.For(ctx, r.Store).PageContents.Expect(withContent)
	return list, nil
}

// RevisionReusableContent is one reusable content of a GraphQL revision; nil when it has none
// of that id.
func (r *App) RevisionReusableContent(ctx context.Context, rev *model.Revision, id string) (*model.RevisionReusableContent, error) {
	src, err := r.SourceOf(ctx, rev)
	if err != nil {
		return nil, err
	}
	return NilIfNotFound(r.ReusableContentByID(ctx, src, id))
}

// ReusableContentJSON is a GraphQL reusable content's document, as JSON.
func (r *App) ReusableContentJSON(ctx context.Context, rc *model.RevisionReusableContent, evaluated *model.Evaluation) (model.JSON, error) {
	src, ok := SourceByKey(ctx, rc.Content)
	if !ok {
		return nil, apperr.NotFoundf("reusable content not found")
	}
	doc, err := r.ReusableContentDocument(ctx, src, rc, model.Evaluation(deref((*string)(evaluated))))
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(doc)
	return model.JSON(b), err
}

// reusableContentConflicts are the reusable contents a change request and its space both
// changed, differently, since the change request's base: conflicts as a page's are.
func reusableContentConflicts(ctx context.Context, m *storage.MergeTx) ([]conflict, error) {
	ids := make([]string, len(m.ReusableContents))
	for i, v := range m.ReusableContents {
		ids[i] = v.ReusableContentID
	}
	current, err := m.SpaceReusableContents(ctx, ids)
	if err != nil {
		return nil, err
	}
	var conflicts []conflict
	for _, v := range m.ReusableContents {
		cur := current[v.ReusableContentID]
		var span *storage.Span
		if cur != nil {
			span = &cur.Span
		}
		if !derivesFrom(&v.Span, span) && !storage.SameReusableContentVersion(v, cur) {
			conflicts = append(conflicts, conflict{"reusable content", v.ReusableContentID, v.Title, "changed in the space and in the change request"})
		}
	}
	return conflicts, nil
}
