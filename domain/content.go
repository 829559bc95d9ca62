package domain

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/expr"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// ContentSource is content the caller may read: a space's current revision, a change request's,
// or any revision of a space. Both doors read pages and files through it.
type ContentSource struct {
	Space      *model.Space
	row        *storage.Space
	View       storage.View
	RevisionID string
	// published is set on the sources of published sites, read as their visitors see them.
	published bool

	// links is what resolving references needs, read once for every page of the source that a
	// request asks about (see links.go).
	links linkMemo
}

// The formats of a page's content: the JSON document tree (the default), or markdown.
const (
	FormatDocument = model.PageFormatDocument
	FormatMarkdown = model.PageFormatMarkdown
)

// SpaceContent is the current content of a space the caller can read. Errors: NotFound.
func (r *App) SpaceContent(ctx context.Context, spaceID string) (*ContentSource, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	return keepSource(ctx, &ContentSource{Space: sp, row: row, View: storage.View{SpaceID: row.ID, BaseSeq: row.RevisionSeq}, RevisionID: row.RevisionID}), nil
}

// ChangeRequestContent is the latest content of a change request. Errors: NotFound.
func (r *App) ChangeRequestContent(ctx context.Context, spaceID, changeRequestID string) (*ContentSource, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	cr, err := r.Store.FindChangeRequest(ctx, row.ID, changeRequestID)
	if err != nil {
		return nil, notFound(err, "change request")
	}
	return keepSource(ctx, &ContentSource{Space: sp, row: row, View: changeRequestView(cr), RevisionID: cr.RevisionID}), nil
}

// changeRequestView is what a change request shows now.
func changeRequestView(cr *storage.ChangeRequest) storage.View {
	return storage.View{SpaceID: cr.SpaceID, BaseSeq: cr.BaseSeq, ChangeRequestID: cr.ID, Seq: cr.HeadSeq}
}

// RevisionContent is one revision of a space (its own or a change request's). Errors: NotFound.
func (r *App) RevisionContent(ctx context.Context, spaceID, revisionID string) (*ContentSource, error) {
	sp, row, err := r.readableSpace(ctx, spaceID, false)
	if err != nil {
		return nil, err
	}
	rev, err := r.Store.FindRevision(ctx, row.ID, revisionID)
	if err != nil {
		return nil, notFound(err, "revision")
	}
	return keepSource(ctx, &ContentSource{Space: sp, row: row, View: storage.ViewOf(rev), RevisionID: rev.ID}), nil
}

// RevisionOf reads the whole revision: its page tree and files, in a fixed number of statements.
func (r *App) RevisionOf(ctx context.Context, src *ContentSource) (*model.Revision, error) {
	rev, err := r.Store.FindRevision(ctx, src.row.ID, src.RevisionID)
	if err != nil {
		return nil, notFound(err, "revision")
	}
	pages, err := r.PageTree(ctx, src)
	if err != nil {
		return nil, err
	}
	files, err := r.Store.FilesOf(ctx, src.View)
	if err != nil {
		return nil, err
	}
	if err := r.WithMarkdown(ctx, pages); err != nil {
		return nil, err
	}
	out := r.toRevision(rev, src)
	if rev.MergedFrom != nil {
		if out.MergedFrom, err = r.ChangeRequestByID(ctx, rev.SpaceID, *rev.MergedFrom); err != nil {
			return nil, err
		}
	}
	out.Pages = pages
	if out.ReusableContents, err = r.ReusableContentsOf(ctx, src); err != nil {
		return nil, err
	}
	out.Files = make([]*model.RevisionFile, len(files))
	for i, f := range files {
		out.Files[i] = r.toFile(f)
	}
	return out, nil
}

func (r *App) toRevision(rev *storage.Revision, src *ContentSource) *model.Revision {
	out := &model.Revision{
		Object: "revision", ID: rev.ID, CreatedAt: rev.CreatedAt, Type: model.RevisionType(rev.Type),
		Pages: []*model.RevisionPage{}, Files: []*model.RevisionFile{}, ReusableContents: []*model.RevisionReusableContent{},
		URLs:    model.AppURLs{App: r.Settings.AppURL + "/s/" + rev.SpaceID + "/"},
		SpaceID: rev.SpaceID, ChangeRequestID: rev.ChangeRequestID, MergedFromID: rev.MergedFrom, Content: src.key(),
	}
	if json.Unmarshal([]byte(rev.Parents), &out.Parents) != nil || out.Parents == nil {
		out.Parents = []string{}
	}
	if rev.Type == "merge" && rev.MergedFrom == nil {
		out.Type = "edits"
	}
	out.Git = revisionGit(rev.Git)
	return out
}

// PageTree reads the pages of a content source as a tree, without their content: one statement.
func (r *App) PageTree(ctx context.Context, src *ContentSource) ([]*model.RevisionPage, error) {
	// Through the loader: the trees of a list's spaces leave in one statement. A view's pages
	// never change (a view is a line at a sequence number), so they are safe to keep.
	rows, _, err := loader.For(ctx, r.Store).PageTrees.Load(ctx, src.View)
	if err != nil {
		return nil, err
	}
	return r.buildTree(src, rows), nil
}

// WithMarkdown fills in the markdown of every document page of a tree, in one statement: the
// contract's page shape carries the content (markdown or document) in every listing.
func (r *App) WithMarkdown(ctx context.Context, tree []*model.RevisionPage) error {
	var docs []*model.RevisionPage
	var ids []string
	var walk func([]*model.RevisionPage)
	walk = func(pages []*model.RevisionPage) {
		for _, p := range pages {
			if p.Type == model.PageTypeDocument {
				docs = append(docs, p)
				if p.DocumentID != nil {
					ids = append(ids, *p.DocumentID)
				}
			}
			walk(p.Pages)
		}
	}
	walk(tree)
	// Through the loader, even with no ids: a parent may have announced this call (ExpectCalls).
	bodies, err := loader.For(ctx, r.Store).PageContents.LoadMany(ctx, ids)
	if err != nil {
		return err
	}
	for _, p := range docs {
		md := bodies[deref(p.DocumentID)]
		p.Markdown = &md
	}
	return nil
}

// buildTree links versions (ordered by position) into pages with children and paths.
func (r *App) buildTree(src *ContentSource, rows []*storage.PageVersion) []*model.RevisionPage {
	byID := make(map[string]*model.RevisionPage, len(rows))
	for _, row := range rows {
		byID[row.PageID] = r.toPage(src, row)
	}
	roots := []*model.RevisionPage{}
	for _, row := range rows {
		p := byID[row.PageID]
		if parent := byID[deref(row.ParentID)]; row.ParentID != nil && parent != nil {
			parent.Pages = append(parent.Pages, p)
		} else {
			roots = append(roots, p)
		}
	}
	var setPaths func(pages []*model.RevisionPage, prefix string)
	setPaths = func(pages []*model.RevisionPage, prefix string) {
		for _, p := range pages {
			if p.Type != model.PageTypeLink {
				p.Path = prefix + p.Slug
				p.URLs.App = r.pageAppURL(src, p.Path)
			}
			setPaths(p.Pages, p.Path+"/")
		}
	}
	setPaths(roots, "")
	return roots
}

func (r *App) pageAppURL(src *ContentSource, path string) string {
	base := r.Settings.AppURL + "/s/" + src.View.SpaceID
	if src.View.ChangeRequestID != "" {
		base += "/~/changes/" + src.View.ChangeRequestID
	}
	return base + "/" + path
}

// toPage converts a version into a page without children or path.
func (r *App) toPage(src *ContentSource, v *storage.PageVersion) *model.RevisionPage {
	created, updated := v.CreatedAt, v.UpdatedAt
	p := &model.RevisionPage{
		ID: v.PageID, Title: v.Title, Emoji: v.Emoji, Icon: v.Icon, CreatedAt: &created, UpdatedAt: &updated,
		Type: model.PageType(v.Type), Slug: v.Slug, Description: v.Description, Hidden: v.Hidden,
		NoIndex: v.NoIndex, NoRobotsIndex: v.NoRobotsIndex, Layout: model.DefaultPageLayout(),
		Cover: jsonOf(v.Cover), Variables: jsonOf(v.Variables), Target: jsonOf(v.LinkTarget), Git: pageGit(v.Git),
		DocumentID: v.ContentID, Parent: v.ParentID, Pages: []*model.RevisionPage{}, Content: src.key(),
	}
	if v.Layout != nil {
		_ = json.Unmarshal([]byte(*v.Layout), &p.Layout) // written by us from a validated layout
	}
	if v.Computed != nil {
		// The seed of a generated page's ids: the page's own id, stable across its versions.
		p.Computed, p.ComputedSeed = model.JSON(*v.Computed), &p.ID
	}
	if p.Type == model.PageTypeLink {
		p.Href = linkHref(src, p.Target)
	}
	return p
}

// linkHref is where a link page leads: its URL, or the address of the page it points at.
func linkHref(src *ContentSource, target model.JSON) *string {
	var ref struct{ Kind, URL, Page string }
	if json.Unmarshal(target, &ref) != nil {
		return nil
	}
	if ref.Kind == "url" {
		return &ref.URL
	}
	return nil
}

func jsonOf(s *string) model.JSON {
	if s == nil {
		return nil
	}
	return model.JSON(*s)
}

// Page reads one page with its child pages and path, with its content in the given format ("":
// document): a fixed number of statements, whatever the size of the space. Errors: Invalid
// (format), NotFound.
func (r *App) Page(ctx context.Context, src *ContentSource, pageID string, format model.PageFormat) (*model.RevisionPage, error) {
	format, err := pageFormat(format)
	if err != nil {
		return nil, err
	}
	chain, err := r.Store.PageWithAncestors(ctx, src.View, pageID)
	if err != nil {
		return nil, notFound(err, "page")
	}
	sub, err := r.Store.PageSubtree(ctx, src.View, pageID)
	if err != nil {
		return nil, err
	}
	page := r.subtree(src, chain, sub)
	if err := r.WithMarkdown(ctx, page.Pages); err != nil {
		return nil, err
	}
	return page, r.withContent(ctx, src, page, format)
}

// subtree builds a page (the first of chain, followed by its ancestors) with its descendants.
func (r *App) subtree(src *ContentSource, chain, descendants []*storage.PageVersion) *model.RevisionPage {
	slugs := make([]string, 0, len(chain))
	for i := len(chain) - 1; i >= 0; i-- {
		slugs = append(slugs, chain[i].Slug)
	}
	prefix := strings.Join(slugs[:len(slugs)-1], "/")
	pages := r.buildTree(src, append([]*storage.PageVersion{chain[0]}, descendants...))
	var page *model.RevisionPage
	for _, p := range pages {
		if p.ID == chain[0].PageID {
			page = p
		}
	}
	if prefix != "" {
		var reprefix func(*model.RevisionPage)
		reprefix = func(p *model.RevisionPage) {
			if p.Type != model.PageTypeLink {
				p.Path = prefix + "/" + p.Path
				p.URLs.App = r.pageAppURL(src, p.Path)
			}
			for _, c := range p.Pages {
				reprefix(c)
			}
		}
		reprefix(page)
	}
	return page
}

// PageByPath finds a document or group page by its path. Errors: Invalid (format), NotFound.
func (r *App) PageByPath(ctx context.Context, src *ContentSource, path string, format model.PageFormat) (*model.RevisionPage, error) {
	format, err := pageFormat(format)
	if err != nil {
		return nil, err
	}
	tree, err := r.PageTree(ctx, src)
	if err != nil {
		return nil, err
	}
	path = strings.Trim(path, "/")
	if unescaped, err := url.PathUnescape(path); err == nil {
		path = unescaped
	}
	var found *model.RevisionPage
	var walk func([]*model.RevisionPage)
	walk = func(pages []*model.RevisionPage) {
		for _, p := range pages {
			if found == nil && p.Type != model.PageTypeLink && p.Path == path {
				found = p
			}
			walk(p.Pages)
		}
	}
	walk(tree)
	if found == nil {
		return nil, apperr.NotFoundf("page not found")
	}
	if err := r.WithMarkdown(ctx, found.Pages); err != nil {
		return nil, err
	}
	return found, r.withContent(ctx, src, found, format)
}

// withContent loads a document page's content in the format asked for.
func (r *App) withContent(ctx context.Context, src *ContentSource, page *model.RevisionPage, format model.PageFormat) error {
	if page.Type != model.PageTypeDocument {
		return nil
	}
	markdown, err := r.markdownOf(ctx, page)
	if err != nil {
		return err
	}
	if format == FormatMarkdown {
		page.Markdown = &markdown
		return nil
	}
	doc, err := r.documentOf(ctx, src, markdown)
	if err != nil {
		return err
	}
	page.Document = &doc
	return nil
}

// markdownOf reads a page's markdown; a page without content has none.
func (r *App) markdownOf(ctx context.Context, page *model.RevisionPage) (string, error) {
	if page.DocumentID == nil {
		return "", nil
	}
	bodies, err := r.Store.PageMarkdown(ctx, []string{*page.DocumentID})
	if err != nil {
		return "", err
	}
	return bodies[*page.DocumentID], nil
}

// documentOf parses markdown into the document tree, resolving references to the content's files
// by name (reading the file list only when the markdown refers to something).
func (r *App) documentOf(ctx context.Context, src *ContentSource, markdown string) (document.Document, error) {
	return r.documentFor(ctx, src, markdown, nil)
}

// documentFor is documentOf with the reusable contents the markdown includes in place, each
// read through show first (a published page keeps only what its visitor sees; nil: as stored).
func (r *App) documentFor(ctx context.Context, src *ContentSource, markdown string, show func(string) string) (document.Document, error) {
	resolve, loadErr := r.fileResolver(ctx, src)
	includes, includeErr := r.includeResolver(ctx, src, show)
	doc, err := document.ConvertWith(markdown, resolve, includes)
	if errors.Is(err, document.ErrTooLarge) {
		return doc, apperr.Invalidf("format", "the page's content is too large to read as a document (over %d nodes); read it as markdown", document.MaxReadNodes)
	}
	if *loadErr == nil {
		*loadErr = *includeErr
	}
	return doc, *loadErr
}

// fileResolver finds the content's files by the name a reference ends with, reading the file
// list the first time one is asked for; the error it met, if any, is left at the returned pointer.
func (r *App) fileResolver(ctx context.Context, src *ContentSource) (document.FileResolver, *error) {
	var (
		files   map[string]string
		loadErr error
	)
	resolve := func(target string) (string, bool) {
		if files == nil && loadErr == nil {
			files = map[string]string{}
			rows, err := r.filesOf(ctx, src)
			loadErr = err
			for _, f := range rows {
				files[f.Name] = f.FileID
				files[f.FileID] = f.FileID
			}
		}
		name := target
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		if unescaped, err := url.PathUnescape(name); err == nil {
			name = unescaped
		}
		id, ok := files[name]
		return id, ok
	}
	return resolve, &loadErr
}

// includeResolver finds the reusable contents of src by the path an include tag names
// (document.IncludeKey), reading them (two statements) the first time one is asked for; the
// error it met, if any, is left at the returned pointer.
func (r *App) includeResolver(ctx context.Context, src *ContentSource, show func(string) string) (document.IncludeResolver, *error) {
	var (
		byKey   map[string]document.Include
		loadErr error
	)
	resolve := func(target string) (document.Include, bool) {
		if byKey == nil && loadErr == nil {
			byKey, loadErr = r.reusableContents(ctx, src)
		}
		inc, ok := byKey[document.IncludeKey(target)]
		if ok && show != nil {
			inc.Markdown = show(inc.Markdown)
		}
		return inc, ok
	}
	return resolve, &loadErr
}

// includeSet is a content source's reusable contents by include key, their markdown without
// front matter: read once (two statements), then shared. The zero value is ready to use.
type includeSet struct {
	mu     sync.Mutex
	byKey  map[string]document.Include
	loaded bool
}

// reusableContents returns the source's reusable contents, reading them the first time.
func (r *App) reusableContents(ctx context.Context, src *ContentSource) (map[string]document.Include, error) {
	src.links.mu.Lock()
	if src.links.includes == nil {
		src.links.includes = &includeSet{}
	}
	set := src.links.includes
	src.links.mu.Unlock()
	set.mu.Lock()
	defer set.mu.Unlock()
	if set.loaded {
		return set.byKey, nil
	}
	byKey, err := r.readReusableContents(ctx, src.View)
	if err != nil {
		return nil, err // not remembered: the next view tries again
	}
	set.byKey, set.loaded = byKey, true
	return byKey, nil
}

// readReusableContents reads a view's reusable contents by include key.
func (r *App) readReusableContents(ctx context.Context, view storage.View) (map[string]document.Include, error) {
	rows, err := r.Store.ReusableContentsOf(ctx, view)
	if err != nil {
		return nil, err
	}
	out := map[string]document.Include{}
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]string, 0, len(rows))
	for _, v := range rows {
		ids = append(ids, deref(v.ContentID))
	}
	bodies, err := r.Store.PageMarkdown(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, v := range rows {
		if g := readBlobGit(v.Git); g != nil {
			out[document.IncludeKey(g.Path)] = document.Include{ID: v.ReusableContentID, Markdown: gitsync.IncludeBody(bodies[deref(v.ContentID)]), Path: g.Path}
		}
	}
	return out, nil
}

// Files pages through the files of a content source.
func (r *App) Files(ctx context.Context, src *ContentSource, first *int, after *string) (*model.Connection[*model.RevisionFile], error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.FilePageOf(ctx, src.View, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, r.toFile), nil
}

// File reads one file. Errors: NotFound.
func (r *App) File(ctx context.Context, src *ContentSource, fileID string) (*model.RevisionFile, error) {
	f, err := r.Store.FileOf(ctx, src.View, fileID)
	if err != nil {
		return nil, notFound(err, "file")
	}
	return r.toFile(f), nil
}

func (r *App) toFile(f *storage.FileVersion) *model.RevisionFile {
	out := &model.RevisionFile{
		ID: f.FileID, Name: f.Name, ContentType: f.ContentType, Size: int(f.Size),
		DownloadURL: r.Settings.filesURL() + "/files/" + f.ID + "/" + url.PathEscape(f.Name),
	}
	if f.Width != nil && f.Height != nil && *f.Width > 0 {
		out.Dimensions = &model.FileDimensions{Width: *f.Width, Height: *f.Height}
	}
	out.Git = blobGit(f.Git)
	return out
}

// EvaluatedPage is Page with the content's expressions evaluated as asked: all of them, or only
// those whose inputs are deterministic. Expressions see the page's variables (space.vars is empty:
// spaces have no variables yet). One that fails stays as written; in a document its node carries
// data.error. Evaluation "" is none. Errors: Invalid (format, evaluated), NotFound.
func (r *App) EvaluatedPage(ctx context.Context, src *ContentSource, pageID string, format model.PageFormat, evaluation model.Evaluation) (*model.RevisionPage, error) {
	return r.evaluated(evaluation, func() (*model.RevisionPage, error) { return r.Page(ctx, src, pageID, format) })
}

// EvaluatedPageByPath is EvaluatedPage for a page found by its path (PageByPath).
// Errors: Invalid (format, evaluated), NotFound.
func (r *App) EvaluatedPageByPath(ctx context.Context, src *ContentSource, path string, format model.PageFormat, evaluation model.Evaluation) (*model.RevisionPage, error) {
	return r.evaluated(evaluation, func() (*model.RevisionPage, error) { return r.PageByPath(ctx, src, path, format) })
}

// evaluated reads a page with read and evaluates its expressions as evaluation asks.
func (r *App) evaluated(evaluation model.Evaluation, read func() (*model.RevisionPage, error)) (*model.RevisionPage, error) {
	if evaluation != "" && !evaluation.IsValid() {
		return nil, apperr.Invalidf("evaluated", `must be true, false or "deterministic-only"`)
	}
	page, err := read()
	if err != nil || evaluation == "" || evaluation == model.EvaluateNone || page.Type != model.PageTypeDocument {
		return page, err
	}
	mode := expr.All
	if evaluation == model.EvaluateDeterministic {
		mode = expr.Deterministic
	}
	eval := expr.Evaluator(expr.Env{SpaceVars: map[string]string{}, PageVars: stringVars(page.Variables)}, mode, r.Now)
	if page.Document != nil {
		doc := document.Evaluate(*page.Document, eval)
		page.Document = &doc
	}
	if page.Markdown != nil {
		md, _ := document.EvaluateMarkdown(*page.Markdown, eval)
		page.Markdown = &md
	}
	return page, nil
}

// stringVars reads variables as strings (numbers and booleans as written).
func stringVars(raw model.JSON) map[string]string {
	out := map[string]string{}
	var vars map[string]any
	if raw.IsNull() || json.Unmarshal(raw, &vars) != nil {
		return out
	}
	for k, v := range vars {
		if s, ok := v.(string); ok {
			out[k] = s
		} else if b, err := json.Marshal(v); err == nil {
			out[k] = string(b)
		}
	}
	return out
}

// samePage reports whether two versions of a page hold the same thing, wherever and whenever
// they were written: a rewrite that changes nothing (an import, a translation run) keeps the
// version it has.
func samePage(a, b *storage.PageVersion) bool {
	eq := func(x, y *string) bool { return deref(x) == deref(y) }
	return a.PageID == b.PageID && eq(a.ParentID, b.ParentID) && a.Position == b.Position && a.Type == b.Type &&
		a.Title == b.Title && a.Slug == b.Slug && eq(a.Emoji, b.Emoji) && eq(a.Icon, b.Icon) &&
		eq(a.Description, b.Description) && a.Hidden == b.Hidden && a.NoIndex == b.NoIndex &&
		a.NoRobotsIndex == b.NoRobotsIndex && eq(a.Layout, b.Layout) && eq(a.Cover, b.Cover) &&
		eq(a.Variables, b.Variables) && eq(a.LinkTarget, b.LinkTarget) && eq(a.Git, b.Git) && eq(a.ContentID, b.ContentID) &&
		eq(a.Computed, b.Computed)
}
