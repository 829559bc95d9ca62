package domain

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
)

// DocumentByID reads a document of a space's current content by its id (a page's documentId),
// as a document tree. A document only a change request or an older revision holds is not found
// here: read it through its page there. Errors: NotFound.
func (r *App) DocumentByID(ctx context.Context, spaceID, documentID string) (*document.Document, error) {
	src, err := r.SpaceContent(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if _, err := r.Store.PageHolding(ctx, src.View, documentID); err != nil {
		return nil, notFound(err, "document")
	}
	bodies, err := r.Store.PageMarkdown(ctx, []string{documentID})
	if err != nil {
		return nil, err
	}
	doc, err := r.documentOf(ctx, src, bodies[documentID])
	return &doc, err
}

// DocumentJSON is DocumentByID for GraphQL: the document tree as JSON, nil when not found.
func (r *App) DocumentJSON(ctx context.Context, spaceID, documentID string) (model.JSON, error) {
	doc, err := r.DocumentByID(ctx, spaceID, documentID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(doc)
	return model.JSON(b), err
}
