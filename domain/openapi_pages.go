package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/openapidoc"
	"github.com/bindery/bindery/storage"
)

// API-reference pages: document pages generated from one version of an OpenAPI specification
// (one per tag with its operations, and optionally one of its models), which they pin. Their
// content is written when they are inserted or moved to another version, never when the
// specification changes; both are edits like any other (docs/openapi.md).

// OpenAPIPagesEdit is the answer to inserting or updating API-reference pages: the revision
// the edit made and the specification's pages as they now are.
type OpenAPIPagesEdit struct {
	Revision *model.Revision
	Pages    []*model.RevisionPage
}

// computedSource is what an API-reference page is generated from, stored as the contract's
// ComputedContentSourceDocumentOpenAPI, with its dependency resolved: value.lastVersion is the
// version the page pins.
type computedSource struct {
	Type         string `json:"type"`
	Dependencies struct {
		Spec specDependency `json:"spec"`
	} `json:"dependencies"`
	Props computedProps `json:"props"`
}

// specDependency is the contract's ComputedContentDependencyOpenAPI.
type specDependency struct {
	Ref struct {
		Kind string `json:"kind"`
		Spec string `json:"spec"`
	} `json:"ref"`
	Value *specValue `json:"value"`
}

// specValue is the resolved specification: LastVersion is the version the page pins.
type specValue struct {
	Object      string `json:"object"`
	ID          string `json:"id"`
	Slug        string `json:"slug"`
	LastVersion string `json:"lastVersion,omitempty"`
}

// computedProps say which part of the specification a page shows: a tag's operations
// ({doc: operations, page: <tag>}) or the models ({doc: models}).
type computedProps struct {
	Doc  string `json:"doc"`
	Page string `json:"page,omitempty"`
}

const builtinOpenAPI = "builtin:openapi"

// maxReferencePages bounds the pages one specification makes.
const maxReferencePages = 500

func computedJSON(spec *storage.OpenAPISpec, versionID string, props computedProps) *string {
	var c computedSource
	c.Type, c.Props = builtinOpenAPI, props
	c.Dependencies.Spec.Ref.Kind, c.Dependencies.Spec.Ref.Spec = "openapi", spec.Slug
	c.Dependencies.Spec.Value = &specValue{Object: "openapi-spec", ID: spec.ID, Slug: spec.Slug, LastVersion: versionID}
	return jsonText(c)
}

// computedOf reads what a page is generated from; nil for a page that is not an API-reference
// page.
func computedOf(v *storage.PageVersion) *computedSource {
	if v.Computed == nil {
		return nil
	}
	var c computedSource
	if json.Unmarshal([]byte(*v.Computed), &c) != nil || c.Type != builtinOpenAPI {
		return nil
	}
	return &c
}

// generatedPage is a page to write: its title, what it shows, its markdown.
type generatedPage struct {
	title    string
	props    computedProps
	markdown string
}

// pinnedSpec is the specification version an edit generates pages from.
type pinnedSpec struct {
	spec    *storage.OpenAPISpec
	version *storage.OpenAPISpecVersion
	doc     *openapidoc.Doc
}

// pinSpec finds the specification (by slug, in the space's organization) and the version (by
// id, the latest when nil) that pages of the space are generated from, and parses it. The
// caller must be able to edit the space and to read the organization's specifications.
// Errors: NotFound (the space, the specification, also one of another organization, the
// version), Forbidden, Invalid (no version yet).
func (r *App) pinSpec(ctx context.Context, spaceID, slug string, versionID *string) (*pinnedSpec, error) {
	_, row, err := r.editableSpace(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return r.pinSpecOf(ctx, row, slug, versionID)
}

// pinSpecOf is pinSpec for a space whose access the caller has checked.
func (r *App) pinSpecOf(ctx context.Context, row *storage.Space, slug string, versionID *string) (*pinnedSpec, error) {
	org, err := r.specReader(ctx, row.OrganizationID)
	if err != nil {
		return nil, err
	}
	spec, err := r.Store.FindSpec(ctx, org.ID, slug)
	if err != nil {
		return nil, notFound(err, "OpenAPI specification")
	}
	id := deref(versionID)
	if id == "" {
		if spec.LastVersionID == nil {
			return nil, apperr.Invalidf("spec", "the OpenAPI specification %q has no version yet (its URL is still to be fetched, or its fetches failed)", slug)
		}
		id = *spec.LastVersionID
	}
	v, err := r.Store.FindSpecVersion(ctx, spec.ID, id, true)
	if err != nil {
		return nil, notFound(err, "OpenAPI specification version")
	}
	doc, err := specDoc(ctx, v)
	var problem *openapidoc.Problem
	if errors.As(err, &problem) {
		// Stored before a limit it exceeds (the nesting limits): store the specification again.
		return nil, apperr.Invalidf("spec", "version %s of the OpenAPI specification %q cannot make pages: %s", v.ID, slug, problem.Error())
	}
	if err != nil {
		return nil, fmt.Errorf("parse stored OpenAPI version %s: %w", v.ID, err)
	}
	return &pinnedSpec{spec: spec, version: v, doc: doc}, nil
}

// generate makes the page that shows props from the pinned version; ok is false when the
// version has nothing for it (a tag it no longer has). Errors: Invalid (a page too large).
func (p *pinnedSpec) generate(props computedProps, tags map[string]openapidoc.Tag) (generatedPage, bool, error) {
	g := generatedPage{props: props}
	switch props.Doc {
	case "models":
		g.title, g.markdown = "Models", openapidoc.ModelsMarkdown(p.doc)
	default:
		t, ok := tags[props.Page]
		if !ok {
			return g, false, nil
		}
		g.title, g.markdown = truncateRunes(t.Name, 255), openapidoc.TagMarkdown(t)
	}
	if len(g.markdown) > model.MaxMarkdownBytes {
		return g, false, apperr.Invalidf("spec", "the page %q would be larger than %d bytes", g.title, model.MaxMarkdownBytes)
	}
	if err := document.CheckMarkdown(g.markdown); err != nil {
		return g, false, apperr.Invalidf("spec", "the page %q would be too large: %s", g.title, err.Error())
	}
	return g, true, nil
}

func (p *pinnedSpec) tags() ([]openapidoc.Tag, map[string]openapidoc.Tag) {
	list := p.doc.Tags()
	byName := make(map[string]openapidoc.Tag, len(list))
	for _, t := range list {
		byName[t.Name] = t
	}
	return list, byName
}

// pages generates every page of the pinned version, in order: the tags', then the models'.
// Errors: Invalid (nothing to show, too many pages, a page too large).
func (p *pinnedSpec) pages(models bool) ([]generatedPage, error) {
	list, byName := p.tags()
	props := make([]computedProps, 0, len(list)+1)
	for _, t := range list {
		props = append(props, computedProps{Doc: "operations", Page: t.Name})
	}
	if models {
		props = append(props, computedProps{Doc: "models"})
	}
	switch {
	case len(props) == 0:
		return nil, apperr.Invalidf("spec", "the OpenAPI specification %q has no operations to make pages of", p.spec.Slug)
	case len(props) > maxReferencePages:
		return nil, apperr.Invalidf("spec", "the OpenAPI specification %q would make more than %d pages", p.spec.Slug, maxReferencePages)
	}
	out := make([]generatedPage, 0, len(props))
	for _, pr := range props {
		g, _, err := p.generate(pr, byName)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// pageWrites collects the versions and bodies an edit writes, each page once.
type pageWrites struct {
	order    []string
	pages    map[string]*storage.PageVersion
	removed  map[string]bool
	contents []*storage.PageContent
	seen     map[string]bool // content ids already collected
}

func newPageWrites() *pageWrites {
	return &pageWrites{pages: map[string]*storage.PageVersion{}, removed: map[string]bool{}, seen: map[string]bool{}}
}

func (w *pageWrites) page(v *storage.PageVersion) {
	if _, ok := w.pages[v.PageID]; !ok {
		w.order = append(w.order, v.PageID)
	}
	w.pages[v.PageID] = v
}

func (w *pageWrites) content(v *storage.PageVersion, orgID, markdown string) {
	for _, c := range setMarkdown(v, orgID, markdown) {
		if !w.seen[*v.ContentID] {
			w.seen[*v.ContentID] = true
			w.contents = append(w.contents, c)
		}
	}
}

func (w *pageWrites) edit() *storage.Edit {
	e := &storage.Edit{Contents: w.contents}
	for _, id := range w.order {
		if !w.removed[id] {
			e.Pages = append(e.Pages, w.pages[id])
		}
	}
	for id := range w.removed {
		e.RemovedPages = append(e.RemovedPages, id)
	}
	slices.Sort(e.RemovedPages)
	return e
}

// place writes generated pages under parent, one after the other, starting before or after a
// sibling (last when neither), and returns their ids. siblings are the parent's pages by
// position; pages the edit already writes are used as written.
func (w *pageWrites) place(c *storage.ContentTx, pin *pinnedSpec, parent *string, siblings []*storage.PageVersion, before, after *string, gen []generatedPage) ([]string, error) {
	for i, s := range siblings {
		if v := w.pages[s.PageID]; v != nil {
			siblings[i] = v
		}
	}
	ids := make([]string, 0, len(gen))
	for _, g := range gen {
		pos, renumbered, err := position(siblings, before, after, "")
		if err != nil {
			return nil, err
		}
		for _, s := range renumbered {
			w.page(s)
		}
		v := &storage.PageVersion{
			PageID: storage.NewID(), ParentID: parent, Position: pos, Type: string(model.PageTypeDocument),
			Title: g.title, Slug: uniqueSlug(slugify(g.title), siblings, ""),
			Computed: computedJSON(pin.spec, pin.version.ID, g.props), CreatedAt: c.Now, UpdatedAt: c.Now,
		}
		w.content(v, c.OrganizationID, g.markdown)
		w.page(v)
		ids = append(ids, v.PageID)
		siblings = append(siblings, v)
		slices.SortStableFunc(siblings, func(a, b *storage.PageVersion) int {
			switch {
			case a.Position < b.Position:
				return -1
			case a.Position > b.Position:
				return 1
			}
			return 0
		})
		before, after = nil, &v.PageID
	}
	return ids, nil
}

// specPages returns the pages of the content generated from the specification slug.
func specPages(ctx context.Context, c *storage.ContentTx, slug string) ([]*storage.PageVersion, error) {
	all, err := c.Pages(ctx)
	if err != nil {
		return nil, err
	}
	var mine []*storage.PageVersion
	for _, p := range all {
		if cs := computedOf(p); cs != nil && cs.Dependencies.Spec.Ref.Spec == slug {
			mine = append(mine, p)
		}
	}
	return mine, nil
}

// InsertOpenAPIPages inserts the API-reference pages of a specification's version (the latest
// unless given) into a space or change request: one document page per tag with its operations,
// and a models page when asked, placed like createPage places a page. The pages pin the
// version. Errors: Invalid (also pages of the specification already there), NotFound,
// Forbidden, Conflict.
func (r *App) InsertOpenAPIPages(ctx context.Context, target model.ContentTarget, in model.InsertOpenAPIPagesInput) (*OpenAPIPagesEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	pin, err := r.pinSpec(ctx, target.SpaceID, in.Spec, in.Version)
	if err != nil {
		return nil, err
	}
	gen, err := pin.pages(in.Models != nil && *in.Models)
	if err != nil {
		return nil, err
	}
	var ids []string
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		mine, err := specPages(ctx, c, pin.spec.Slug)
		if err != nil {
			return nil, err
		}
		if len(mine) > 0 {
			return nil, apperr.Invalidf("spec", "this content already has API-reference pages of %q: move them to another version with updateOpenAPIPages", pin.spec.Slug)
		}
		siblings, err := placeUnder(ctx, c, in.Parent, model.PageTypeDocument)
		if err != nil {
			return nil, err
		}
		w := newPageWrites()
		if ids, err = w.place(c, pin, in.Parent, siblings, in.Before, in.After, gen); err != nil {
			return nil, err
		}
		return w.edit(), nil
	})
	if err != nil {
		return nil, err
	}
	return r.openAPIPagesEdit(ctx, src, rev, ids)
}

// UpdateOpenAPIPages moves the API-reference pages of a specification in a space or change
// request to another of its versions (the latest unless given): each page is generated again
// from it, a tag the version no longer has loses its page (and the pages under it), and a tag
// it adds gets one after the others. Errors: Invalid (no such pages), NotFound, Forbidden,
// Conflict.
func (r *App) UpdateOpenAPIPages(ctx context.Context, target model.ContentTarget, in model.UpdateOpenAPIPagesInput) (*OpenAPIPagesEdit, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	pin, err := r.pinSpec(ctx, target.SpaceID, in.Spec, in.Version)
	if err != nil {
		return nil, err
	}
	tagList, tags := pin.tags()
	var ids []string
	src, rev, err := r.editContent(ctx, target, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		mine, err := specPages(ctx, c, pin.spec.Slug)
		if err != nil {
			return nil, err
		}
		if len(mine) == 0 {
			return nil, apperr.Invalidf("spec", "this content has no API-reference pages of %q: insert them with insertOpenAPIPages", pin.spec.Slug)
		}
		w := newPageWrites()
		shown := map[string]bool{}
		var last *storage.PageVersion // the last tag page kept: new tags go after it
		for _, p := range mine {
			props := computedOf(p).Props
			g, ok, err := pin.generate(props, tags)
			if err != nil {
				return nil, err
			}
			if !ok {
				descendants, err := c.Descendants(ctx, p.PageID)
				if err != nil {
					return nil, err
				}
				w.removed[p.PageID] = true
				for _, d := range descendants {
					w.removed[d.PageID] = true
				}
				continue
			}
			shown[props.Page] = props.Doc != "models"
			was := *p
			p.Computed = computedJSON(pin.spec, pin.version.ID, props)
			w.content(p, c.OrganizationID, g.markdown)
			if !samePage(&was, p) { // the same version again changes nothing
				p.UpdatedAt = c.Now
				w.page(p)
			}
			ids = append(ids, p.PageID)
			if props.Doc != "models" && (last == nil || deref(p.ParentID) == deref(last.ParentID) && p.Position > last.Position) {
				last = p
			}
		}
		var gen []generatedPage
		for _, t := range tagList {
			if !shown[t.Name] {
				g, _, err := pin.generate(computedProps{Doc: "operations", Page: t.Name}, tags)
				if err != nil {
					return nil, err
				}
				gen = append(gen, g)
			}
		}
		if len(gen) > 0 {
			parent, after := mine[0].ParentID, (*string)(nil)
			if last != nil {
				parent, after = last.ParentID, &last.PageID
			}
			siblings, err := c.Children(ctx, parent)
			if err != nil {
				return nil, err
			}
			added, err := w.place(c, pin, parent, siblings, nil, after, gen)
			if err != nil {
				return nil, err
			}
			ids = append(ids, added...)
		}
		return w.edit(), nil
	})
	if err != nil {
		return nil, err
	}
	return r.openAPIPagesEdit(ctx, src, rev, ids)
}

// openAPIPagesEdit reads the pages an edit wrote back from the revision it made, with their
// markdown: a fixed number of statements.
func (r *App) openAPIPagesEdit(ctx context.Context, src *ContentSource, rev *storage.Revision, ids []string) (*OpenAPIPagesEdit, error) {
	tree, err := r.PageTree(ctx, src)
	if err != nil {
		return nil, err
	}
	byID := map[string]*model.RevisionPage{}
	var walk func([]*model.RevisionPage)
	walk = func(pages []*model.RevisionPage) {
		for _, p := range pages {
			byID[p.ID] = p
			walk(p.Pages)
		}
	}
	walk(tree)
	out := &OpenAPIPagesEdit{Revision: r.toRevision(rev, src), Pages: []*model.RevisionPage{}}
	for _, id := range ids {
		if p := byID[id]; p != nil {
			out.Pages = append(out.Pages, p)
		}
	}
	if err := r.WithMarkdown(ctx, out.Pages); err != nil {
		return nil, err
	}
	return out, nil
}

// truncateRunes cuts s to at most n characters.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
