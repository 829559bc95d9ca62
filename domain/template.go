package domain

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Templates are content to start from: a built-in catalogue, and the spaces an organization
// marks as templates. Applying one adds its pages (and, for a space, its files) after the target's
// root pages, in the space or in a change request.

// templatePage is one page of a built-in template. Its markdown may hold {{ref.NAME}}
// placeholders, bound to files of the target by the apply call's contentRefs.
type templatePage struct {
	title, markdown string
	group           bool
	children        []templatePage
}

type builtinTemplate struct {
	model.Template
	pages []templatePage
}

var builtinTemplates = []builtinTemplate{
	{model.Template{ID: "getting-started", Title: "Getting started", Description: "An overview, a quickstart and a FAQ.", Source: "built-in", Placeholders: []string{}},
		[]templatePage{
			{title: "Overview", markdown: "# Overview\n\nWhat this product does, for whom, and where to go next.\n\n{% hint style=\"info\" %}\nNew here? Start with the [quickstart](quickstart.md).\n{% endhint %}\n"},
			{title: "Quickstart", markdown: "# Quickstart\n\n1. Install.\n2. Configure.\n3. Run your first task.\n"},
			{title: "FAQ", markdown: "# FAQ\n\n## Who is this for?\n\nAnswer.\n\n## How do I get help?\n\nAnswer.\n"},
		}},
	{model.Template{ID: "api-reference", Title: "API reference", Description: "Introduction, authentication and endpoints of an HTTP API.", Source: "built-in", Placeholders: []string{}},
		[]templatePage{
			{title: "Introduction", markdown: "# Introduction\n\nBase URL, versions and conventions.\n"},
			{title: "Authentication", markdown: "# Authentication\n\n```http\nAuthorization: Bearer <token>\n```\n"},
			{title: "Endpoints", group: true, children: []templatePage{
				{title: "List resources", markdown: "# List resources\n\n`GET /resources`\n"},
				{title: "Create a resource", markdown: "# Create a resource\n\n`POST /resources`\n"},
			}},
		}},
	{model.Template{ID: "product-docs", Title: "Product documentation", Description: "A branded welcome page, guides and a changelog; binds a logo file.", Source: "built-in", Placeholders: []string{"logo"}},
		[]templatePage{
			{title: "Welcome", markdown: "# Welcome\n\n![Logo]({{ref.logo}})\n\nEverything you need to use the product.\n"},
			{title: "Guides", markdown: "# Guides\n\nStep-by-step guides.\n", children: []templatePage{
				{title: "First steps", markdown: "# First steps\n\nA guided tour.\n"},
			}},
			{title: "Changelog", markdown: "# Changelog\n\n## Unreleased\n\n- First release.\n"},
		}},
}

// Templates lists the templates an organization's members can apply: the built-in ones, then the
// organization's template spaces the caller can read.
func (r *App) Templates(ctx context.Context, orgID string) ([]*model.Template, error) {
	acc, err := r.viewerAccess(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !acc.Member {
		return nil, apperr.NotFoundf("organization not found")
	}
	out := make([]*model.Template, 0, len(builtinTemplates))
	for i := range builtinTemplates {
		t := builtinTemplates[i].Template
		out = append(out, &t)
	}
	spaces, err := r.orgSpaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	for _, s := range spaces {
		if s.IsTemplate && canRead(acc.SpaceRole(spaceNode(s))) {
			out = append(out, &model.Template{ID: s.ID, Title: s.Title, Source: "space", Placeholders: []string{}})
		}
	}
	return out, nil
}

// ApplyTemplate adds a template's pages to a space or to one of its change requests. Errors:
// Invalid (unknown template, unbound or unknown placeholders, a reference to a missing file),
// NotFound, Forbidden, Conflict.
func (r *App) ApplyTemplate(ctx context.Context, spaceID string, in model.ApplyTemplateInput) (*model.Revision, error) {
	if strings.TrimSpace(in.ID) == "" {
		return nil, apperr.Invalidf("id", "is required")
	}
	_, row, err := r.editableSpace(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	builtin, source, err := r.findTemplate(ctx, row, in.ID)
	if err != nil {
		return nil, err
	}
	refs, err := templateRefs(builtin, in.ContentRefs())
	if err != nil {
		return nil, err
	}
	var sourcePages []*storage.PageVersion
	var sourceFiles []*storage.FileVersion
	if source != nil {
		view := storage.View{SpaceID: source.ID, BaseSeq: source.RevisionSeq}
		if sourcePages, err = r.Store.PagesOf(ctx, view); err != nil {
			return nil, err
		}
		if sourceFiles, err = r.Store.FilesOf(ctx, view); err != nil {
			return nil, err
		}
	}
	src, rev, err := r.editContent(ctx, model.ContentTarget{SpaceID: row.ID, ChangeRequestID: in.ChangeRequestID}, func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
		names, err := boundFiles(ctx, c, refs)
		if err != nil {
			return nil, err
		}
		roots, err := c.Children(ctx, nil)
		if err != nil {
			return nil, err
		}
		pos, _, _ := position(roots, nil, nil, "") // last: never renumbers
		a := applier{c: c, now: c.Now, edit: &storage.Edit{}, taken: roots}
		if builtin != nil {
			a.builtin(builtin.pages, nil, pos, names)
		} else {
			a.copySpace(sourcePages, sourceFiles, pos)
		}
		return a.edit, nil
	})
	if err != nil {
		return nil, err
	}
	return r.toRevision(rev, src), nil
}

// findTemplate finds a built-in template, or a template space of the target's organization the
// caller can read. Errors: Invalid (unknown template).
func (r *App) findTemplate(ctx context.Context, target *storage.Space, id string) (*builtinTemplate, *storage.Space, error) {
	for i := range builtinTemplates {
		if builtinTemplates[i].ID == id {
			return &builtinTemplates[i], nil, nil
		}
	}
	if _, row, err := r.readableSpace(ctx, id, false); err == nil && row.IsTemplate && row.OrganizationID == target.OrganizationID {
		return nil, row, nil
	}
	return nil, nil, apperr.Invalidf("id", "%q is not a template of this organization", id)
}

// templateRefs checks that contentRefs bind exactly the template's placeholders, each to a file.
func templateRefs(t *builtinTemplate, given map[string]model.JSON) (map[string]string, error) {
	var placeholders []string
	if t != nil {
		placeholders = t.Placeholders
	}
	files := map[string]string{}
	for name, raw := range given {
		if !slices.Contains(placeholders, name) {
			return nil, apperr.Invalidf("params.contentRefs."+name, "the template has no placeholder %q", name)
		}
		var ref struct{ Kind, File string }
		if json.Unmarshal(raw, &ref) != nil || ref.Kind != "file" || ref.File == "" {
			return nil, apperr.Invalidf("params.contentRefs."+name, `must be {"kind":"file","file":"<file id>"}`)
		}
		files[name] = ref.File
	}
	for _, name := range placeholders {
		if files[name] == "" {
			return nil, apperr.Invalidf("params.contentRefs."+name, "the template needs a file for %q", name)
		}
	}
	return files, nil
}

// boundFiles reads the names of the files placeholders are bound to, in the target's content.
func boundFiles(ctx context.Context, c *storage.ContentTx, refs map[string]string) (map[string]string, error) {
	names := map[string]string{}
	for name, fileID := range refs {
		f, err := c.File(ctx, fileID)
		if err != nil {
			return nil, apperr.Invalidf("params.contentRefs."+name, "file %s is not in the content the template is applied to", fileID)
		}
		names[name] = f.Name
	}
	return names, nil
}

// applier builds the edit that adds a template's pages.
type applier struct {
	c     *storage.ContentTx
	now   time.Time
	edit  *storage.Edit
	taken []*storage.PageVersion // root pages, whose slugs new root pages must not reuse
}

func (a *applier) page(parent *string, pos float64, t, title string) *storage.PageVersion {
	v := &storage.PageVersion{PageID: storage.NewID(), ParentID: parent, Position: pos, Type: t, Title: title, CreatedAt: a.now, UpdatedAt: a.now}
	if parent == nil {
		v.Slug = uniqueSlug(slugify(title), a.taken, "")
		a.taken = append(a.taken, v)
	}
	a.edit.Pages = append(a.edit.Pages, v)
	return v
}

// builtin adds a built-in template's pages, binding {{ref.NAME}} to the bound files' paths.
func (a *applier) builtin(pages []templatePage, parent *string, pos float64, files map[string]string) {
	var siblings []*storage.PageVersion
	for i, tp := range pages {
		kind := model.PageTypeDocument
		if tp.group {
			kind = model.PageTypeGroup
		}
		v := a.page(parent, pos+float64(i), string(kind), tp.title)
		if parent != nil {
			v.Slug = uniqueSlug(slugify(tp.title), siblings, "")
			siblings = append(siblings, v)
		}
		if !tp.group {
			md := tp.markdown
			for name, file := range files {
				md = strings.ReplaceAll(md, "{{ref."+name+"}}", ".gitbook/assets/"+url.PathEscape(file))
			}
			a.edit.Contents = append(a.edit.Contents, setMarkdown(v, a.c.OrganizationID, md)...)
		}
		a.builtin(tp.children, &v.PageID, 0, files)
	}
}

// copySpace adds a template space's pages (sharing their stored content) and files (sharing their
// bytes) under new ids.
func (a *applier) copySpace(pages []*storage.PageVersion, files []*storage.FileVersion, pos float64) {
	ids := map[string]string{}
	for _, p := range pages {
		ids[p.PageID] = storage.NewID()
	}
	for i, p := range pages {
		v := &storage.PageVersion{}
		*v = *p
		v.Span = storage.Span{}
		v.PageID, v.CreatedAt, v.UpdatedAt = ids[p.PageID], a.now, a.now
		if p.ParentID != nil {
			parent := ids[*p.ParentID]
			v.ParentID = &parent
		} else {
			v.Position = pos + float64(i)
			v.Slug = uniqueSlug(p.Slug, a.taken, "")
			a.taken = append(a.taken, v)
		}
		a.edit.Pages = append(a.edit.Pages, v)
	}
	for _, f := range files {
		v := &storage.FileVersion{}
		*v = *f
		v.Span = storage.Span{}
		v.FileID, v.CreatedAt = storage.NewID(), a.now
		a.edit.Files = append(a.edit.Files, v)
	}
}

// SetSpaceTemplate marks a space as a template of its organization, or unmarks it (space
// admins). Errors: NotFound, Forbidden.
func (r *App) SetSpaceTemplate(ctx context.Context, spaceID string, template bool) (*model.Space, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	if err := require(sp.ViewerRole, model.MemberRoleAdmin, "space"); err != nil {
		return nil, err
	}
	row.IsTemplate, row.UpdatedAt = template, r.Now()
	if err := r.Store.UpdateSpace(ctx, row, storage.SpaceIsTemplate); err != nil {
		return nil, notFound(err, "space")
	}
	return sameCounts(r.toSpace(row, sp.ViewerRole), sp), nil
}

// applyTemplate is GraphQL's applyTemplate: the REST body's fields as arguments.
func (r *App) ApplyTemplateTo(ctx context.Context, target model.ContentTarget, templateID string, contentRefs model.JSON) (*model.Revision, error) {
	in := model.ApplyTemplateInput{ID: templateID, ChangeRequestID: target.ChangeRequestID}
	if !contentRefs.IsNull() {
		in.Params = &model.TemplateParams{}
		if err := json.Unmarshal(contentRefs, &in.Params.ContentRefs); err != nil {
			return nil, apperr.Invalidf("contentRefs", "must be an object of content references")
		}
	}
	return r.ApplyTemplate(ctx, target.SpaceID, in)
}
