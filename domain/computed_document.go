package domain

import (
	"context"
	"encoding/json"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
)

// ComputedDocumentInput is the contract's getComputedDocument body: what to compute, and the
// seed GitBook derives node ids from (node ids here derive from the content itself).
type ComputedDocumentInput struct {
	Source *computedSource `json:"source"`
	Seed   *string         `json:"seed"`
}

// ComputedDocument computes the document a computed source makes, as an API-reference page of
// the space would show it: builtin:openapi only (a tag's operations, or the models), from the
// specification's latest version. Errors: Invalid (another source, bad props, no version yet),
// NotFound (the space, the specification).
func (r *App) ComputedDocument(ctx context.Context, spaceID string, in ComputedDocumentInput) (*document.Document, error) {
	switch {
	case in.Source == nil:
		return nil, apperr.Invalidf("source", "is required")
	case in.Seed == nil:
		return nil, apperr.Invalidf("seed", "is required")
	case in.Source.Type != builtinOpenAPI:
		return nil, apperr.Invalidf("source.type", "only %q is computed here", builtinOpenAPI)
	case in.Source.Dependencies.Spec.Ref.Kind != "openapi" || in.Source.Dependencies.Spec.Ref.Spec == "":
		return nil, apperr.Invalidf("source.dependencies.spec", `must reference a specification: {"ref": {"kind": "openapi", "spec": <slug>}}`)
	case in.Source.Props.Doc != "models" && in.Source.Props.Doc != "operations":
		return nil, apperr.Invalidf("source.props.doc", `must be "operations" or "models"`)
	case in.Source.Props.Doc == "operations" && in.Source.Props.Page == "":
		return nil, apperr.Invalidf("source.props.page", "is required for operations: the tag to show")
	}
	src, err := r.SpaceContent(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	pin, err := r.pinSpecOf(ctx, src.row, in.Source.Dependencies.Spec.Ref.Spec, nil)
	if err != nil {
		return nil, err
	}
	_, tags := pin.tags()
	page, found, err := pin.generate(in.Source.Props, tags)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, apperr.NotFoundf("the specification has no tag %q", in.Source.Props.Page)
	}
	doc, err := r.documentOf(ctx, src, page.markdown)
	return &doc, err
}

// ComputedDocumentJSON is ComputedDocument for GraphQL: the source as the contract writes it,
// the document tree as JSON. Errors: those of ComputedDocument.
func (r *App) ComputedDocumentJSON(ctx context.Context, spaceID string, source model.JSON, seed string) (model.JSON, error) {
	in := ComputedDocumentInput{Source: new(computedSource), Seed: &seed}
	if err := json.Unmarshal(source, in.Source); err != nil {
		return nil, apperr.Invalidf("source", "not a computed content source: %s", err.Error())
	}
	doc, err := r.ComputedDocument(ctx, spaceID, in)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(doc)
	return model.JSON(b), err
}
