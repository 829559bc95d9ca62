package domain

import (
	"context"
	"crypto/sha256"
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
	if in.Source == nil {
		return nil, apperr.Invalidf("source", "is required")
	}
	if err := checkOpenAPISource(in.Source.Type, in.Source.Dependencies.Spec, in.Seed); err != nil {
		return nil, err
	}
	switch {
	case in.Source.Props.Doc != "models" && in.Source.Props.Doc != "operations":
		return nil, apperr.Invalidf("source.props.doc", `must be "operations" or "models"`)
	case in.Source.Props.Doc == "operations" && in.Source.Props.Page == "":
		return nil, apperr.Invalidf("source.props.page", "is required for operations: the tag to show")
	}
	src, pin, err := r.computedSpec(ctx, spaceID, in.Source.Dependencies.Spec.Ref.Spec)
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

// checkOpenAPISource checks what a computed source names besides its props: builtin:openapi, a
// specification, a seed. Errors: Invalid.
func checkOpenAPISource(sourceType string, spec specDependency, seed *string) error {
	switch {
	case seed == nil || *seed == "":
		return apperr.Invalidf("seed", "is required")
	case sourceType != builtinOpenAPI:
		return apperr.Invalidf("source.type", "only %q is computed here", builtinOpenAPI)
	case spec.Ref.Kind != "openapi" || spec.Ref.Spec == "":
		return apperr.Invalidf("source.dependencies.spec", `must reference a specification: {"ref": {"kind": "openapi", "spec": <slug>}}`)
	}
	return nil
}

// computedSpec pins the latest version of a specification for the readers of a space. Errors:
// Invalid (no version yet), NotFound.
func (r *App) computedSpec(ctx context.Context, spaceID, slug string) (*ContentSource, *pinnedSpec, error) {
	src, err := r.SpaceContent(ctx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	pin, err := r.pinSpecOf(ctx, src.row, slug, nil)
	return src, pin, err
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

// ComputedRevisionInput is the contract's getComputedRevision body.
type ComputedRevisionInput struct {
	Source *struct {
		Type         string `json:"type"`
		Dependencies struct {
			Spec specDependency `json:"spec"`
		} `json:"dependencies"`
		Props struct {
			Models *bool `json:"models"`
		} `json:"props"`
	} `json:"source"`
	Seed *string `json:"seed"`
}

// ComputedRevision is what a computed revision holds: pages (files and reusable contents, which
// no computed source makes here, are empty).
type ComputedRevision struct {
	Pages            []*model.RevisionPage `json:"pages"`
	Files            []*model.RevisionFile `json:"files"`
	ReusableContents []json.RawMessage     `json:"reusableContents"`
}

// ComputedRevision computes the pages an OpenAPI specification makes in the space (builtin:openapi:
// one page per tag, then the models' when props.models), from its latest version: each with its
// markdown, as the space's API-reference pages show it. Page ids derive from the seed and what the
// page shows, so the same seed gives the same ids. Errors: Invalid (another
// source, bad props, no version yet, too many pages), NotFound (the space, the specification).
func (r *App) ComputedRevision(ctx context.Context, spaceID string, in ComputedRevisionInput) (*ComputedRevision, error) {
	if in.Source == nil {
		return nil, apperr.Invalidf("source", "is required")
	}
	if err := checkOpenAPISource(in.Source.Type, in.Source.Dependencies.Spec, in.Seed); err != nil {
		return nil, err
	}
	if in.Source.Props.Models == nil {
		return nil, apperr.Invalidf("source.props.models", "is required: whether a page of the models follows the operations")
	}
	src, pin, err := r.computedSpec(ctx, spaceID, in.Source.Dependencies.Spec.Ref.Spec)
	if err != nil {
		return nil, err
	}
	generated, err := pin.pages(*in.Source.Props.Models)
	if err != nil {
		return nil, err
	}
	out := &ComputedRevision{Pages: make([]*model.RevisionPage, len(generated)), Files: []*model.RevisionFile{}, ReusableContents: []json.RawMessage{}}
	taken := map[string]bool{}
	for i, g := range generated {
		path := freePath(slug(g.title), taken)
		taken[path] = true
		md := g.markdown
		out.Pages[i] = &model.RevisionPage{ID: seededID(*in.Seed, g.props.Doc+"/"+g.props.Page), Title: g.title, Type: model.PageTypeDocument,
			Slug: path, Path: path, URLs: model.AppURLs{App: r.pageAppURL(src, path)}, Layout: model.DefaultPageLayout(), Markdown: &md}
	}
	return out, nil
}

// seededID is a page id made from a seed and what the page shows: stable for the same pair.
func seededID(seed, what string) string {
	sum := sha256.Sum256([]byte(seed + "\x00" + what))
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	id := make([]byte, 20)
	for i := range id {
		id[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(id)
}

// ComputedRevisionJSON is ComputedRevision for GraphQL: the source as the contract writes it, the
// answer as the contract's JSON. Errors: those of ComputedRevision.
func (r *App) ComputedRevisionJSON(ctx context.Context, spaceID string, source model.JSON, seed string) (model.JSON, error) {
	var in ComputedRevisionInput
	if err := json.Unmarshal(source, &in.Source); err != nil {
		return nil, apperr.Invalidf("source", "not a computed content source: %s", err.Error())
	}
	in.Seed = &seed
	out, err := r.ComputedRevision(ctx, spaceID, in)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	return model.JSON(b), err
}
