package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Links and backlinks: references are stored as written (storage.ContentRef) and resolved here,
// against the pages and files of the revision being read. A link by path to a page that moved or
// was deleted is therefore broken in revisions where that path no longer exists.

// linkIndex resolves references against one revision's pages and files.
type linkIndex struct {
	pages map[string]*model.RevisionPage // by path and by id
	// byGit finds pages by the file Git Sync read them from, without ".md" ("guide/boats"):
	// references in GitBook's markdown name files, which need not follow the page tree.
	byGit  map[string]*model.RevisionPage
	files  map[string]*model.RevisionFile // by name and by id
	appURL string
	all    []*model.RevisionPage // in tree order
}

// linkMemo keeps, per content source, the index references resolve against and all of the
// revision's references, so that a GraphQL tree asking every page for its links or backlinks
// reads them once.
type linkMemo struct {
	mu    sync.Mutex
	index *linkIndex
	refs  map[string][]*storage.ContentRef
	files []*storage.FileVersion
	// includes are the source's reusable contents, read on first use; a published revision's
	// are shared by every view of it (published_cache.go).
	includes *includeSet
}

// filesOf returns the files of the source: one statement, once per source.
func (r *App) filesOf(ctx context.Context, src *ContentSource) ([]*storage.FileVersion, error) {
	src.links.mu.Lock()
	defer src.links.mu.Unlock()
	return r.memoFiles(ctx, src)
}

// memoFiles reads the files once; the caller holds the lock.
func (r *App) memoFiles(ctx context.Context, src *ContentSource) ([]*storage.FileVersion, error) {
	if src.links.files == nil {
		files, err := r.Store.FilesOf(ctx, src.View)
		if err != nil {
			return nil, err
		}
		if files == nil {
			files = []*storage.FileVersion{} // none is an answer too: not read again
		}
		src.links.files = files
	}
	return src.links.files, nil
}

// linkIndexOf returns what references resolve against: two statements, once per source.
func (r *App) linkIndexOf(ctx context.Context, src *ContentSource) (*linkIndex, error) {
	src.links.mu.Lock()
	defer src.links.mu.Unlock()
	if src.links.index == nil {
		ix, err := r.readLinkIndex(ctx, src)
		if err != nil {
			return nil, err
		}
		src.links.index = ix
	}
	return src.links.index, nil
}

// refsIn returns the references of every page of the source: one statement, once per source.
func (r *App) refsIn(ctx context.Context, src *ContentSource) (map[string][]*storage.ContentRef, error) {
	src.links.mu.Lock()
	defer src.links.mu.Unlock()
	if src.links.refs == nil {
		refs, err := r.Store.RefsIn(ctx, src.View)
		if err != nil {
			return nil, err
		}
		src.links.refs = refs
	}
	return src.links.refs, nil
}

func (r *App) readLinkIndex(ctx context.Context, src *ContentSource) (*linkIndex, error) {
	tree, err := r.PageTree(ctx, src)
	if err != nil {
		return nil, err
	}
	files, err := r.memoFiles(ctx, src)
	if err != nil {
		return nil, err
	}
	return r.linkIndexFrom(tree, files), nil
}

// linkIndexFrom indexes a revision's page tree and files; it only reads them.
func (r *App) linkIndexFrom(tree []*model.RevisionPage, files []*storage.FileVersion) *linkIndex {
	ix := &linkIndex{pages: map[string]*model.RevisionPage{}, byGit: map[string]*model.RevisionPage{}, files: map[string]*model.RevisionFile{}, appURL: r.Settings.AppURL}
	var walk func([]*model.RevisionPage)
	walk = func(pages []*model.RevisionPage) {
		for _, p := range pages {
			ix.all = append(ix.all, p)
			ix.pages[p.ID] = p
			if p.Path != "" {
				ix.pages[p.Path] = p
			}
			if g := gitPathOf(p); g != "" && p.Type != model.PageTypeLink {
				ix.byGit[cleanPagePath(g)] = p
			}
			walk(p.Pages)
		}
	}
	walk(tree)
	for _, f := range files {
		file := r.toFile(f)
		ix.files[f.FileID], ix.files[f.Name] = file, file
	}
	return ix
}

// resolve classifies a reference written in page from: its status and what it points at.
func (ix *linkIndex) resolve(from *model.RevisionPage, target string) (model.LinkStatus, *model.ContentLocation) {
	t := strings.TrimSpace(target)
	if u, err := url.Parse(t); err == nil && u.Scheme != "" {
		if ix.appURL != "" && strings.HasPrefix(t, ix.appURL+"/") {
			return model.LinkInApp, &model.ContentLocation{Kind: "url", URL: t}
		}
		return model.LinkOK, &model.ContentLocation{Kind: "url", URL: t}
	}
	rel, anchor, _ := strings.Cut(t, "#")
	rel, _, _ = strings.Cut(rel, "?")
	if unescaped, err := url.PathUnescape(rel); err == nil {
		rel = unescaped
	}
	if rel == "" && anchor != "" {
		return model.LinkOK, pageLocation(from, anchor)
	}
	for _, candidate := range pathCandidates(from, rel) {
		if p := ix.pages[candidate]; p != nil && p.Type != model.PageTypeLink {
			return model.LinkOK, pageLocation(p, anchor)
		}
	}
	for _, candidate := range gitCandidates(from, rel) {
		if p := ix.byGit[candidate]; p != nil {
			return model.LinkOK, pageLocation(p, anchor)
		}
	}
	if p := ix.pages[rel]; p != nil { // a page id
		return model.LinkOK, pageLocation(p, anchor)
	}
	if f := ix.files[rel]; f != nil {
		return model.LinkOK, &model.ContentLocation{Kind: "file", File: f}
	}
	if f := ix.files[path.Base(rel)]; f != nil && rel != "" {
		return model.LinkOK, &model.ContentLocation{Kind: "file", File: f}
	}
	return model.LinkBroken, &model.ContentLocation{Kind: "url", URL: t}
}

// cleanPagePath is a file path as a page path: ".md" and "README" fall away.
func cleanPagePath(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, ".md"), "/")
	if path.Base(p) == "README" {
		p = path.Dir(p)
	}
	return strings.Trim(path.Clean("/"+p), "/")
}

// gitPathOf is the path of the file a page was read from by Git Sync, or "".
func gitPathOf(p *model.RevisionPage) string {
	if p == nil || len(p.Git) == 0 {
		return ""
	}
	var g struct{ Path string }
	if json.Unmarshal(p.Git, &g) != nil {
		return ""
	}
	return g.Path
}

// gitCandidates are the files a relative reference may name: from the root when it starts
// with "/" (how a document holds references inside reusable content), else relative to the
// file of the page it is written in.
func gitCandidates(from *model.RevisionPage, rel string) []string {
	if rel == "" || strings.HasSuffix(rel, "/") {
		return nil
	}
	if strings.HasPrefix(rel, "/") {
		return []string{cleanPagePath(rel)}
	}
	if g := gitPathOf(from); g != "" {
		return []string{cleanPagePath(path.Join(path.Dir(g), rel))}
	}
	return nil
}

// pathCandidates are the page paths a relative reference may mean, as GitBook's git layout
// writes them: relative to the page's folder (a page with children is a folder's README) or to
// its parent's, or from the root when it starts with "/"; ".md" and "README" fall away.
func pathCandidates(from *model.RevisionPage, rel string) []string {
	clean := cleanPagePath
	if strings.HasPrefix(rel, "/") {
		return []string{clean(rel)}
	}
	parent := path.Dir(from.Path)
	if parent == "." {
		parent = ""
	}
	return []string{clean(path.Join(parent, rel)), clean(path.Join(from.Path, rel))}
}

func pageLocation(p *model.RevisionPage, anchor string) *model.ContentLocation {
	loc := &model.ContentLocation{Kind: "page", Page: shallow(p)}
	if anchor != "" {
		loc.InternalLocation = &model.InternalLocation{Type: "anchor", Anchor: anchor}
	}
	return loc
}

// PageLinks lists the references a page makes, resolved in its revision, optionally only those
// of one status, with stats over all of them. In a change request, stats count the broken links
// it introduced. A fixed number of statements.
func (r *App) PageLinks(ctx context.Context, src *ContentSource, pageID string, status *model.LinkStatus, first *int, after *string) (*model.Connection[*model.LinkItem], model.LinkStats, error) {
	var stats model.LinkStats
	page, err := windowOf(first, after)
	if err != nil {
		return nil, stats, err
	}
	if status != nil && *status != model.LinkOK && *status != model.LinkBroken && *status != model.LinkInApp {
		return nil, stats, apperr.Invalidf("status", `must be "ok", "broken" or "in-app"`)
	}
	items, from, err := r.linksOf(ctx, src, pageID, false)
	if err != nil {
		return nil, stats, err
	}
	if err := r.locate(ctx, src, items); err != nil {
		return nil, stats, err
	}
	stats.Total = len(items)
	var kept []*model.LinkItem
	for _, it := range items {
		if it.Status == model.LinkBroken {
			stats.Broken.Total++
		}
		if status == nil || it.Status == *status {
			kept = append(kept, it)
		}
	}
	if src.View.ChangeRequestID != "" {
		introduced, err := r.brokenIntroduced(ctx, src, from, items)
		if err != nil {
			return nil, stats, err
		}
		stats.Broken.ChangeRequest = &introduced
	}
	list, err := pageByOrder("links", kept, page)
	if err != nil {
		return nil, stats, err
	}
	return connectionOf(list, func(it *model.LinkItem) *model.LinkItem { return it }), stats, nil
}

// linksOf resolves the references of one page of a revision, reading that page's references, or
// (allRefs, for a tree of pages) those of the whole revision once. Errors: NotFound.
func (r *App) linksOf(ctx context.Context, src *ContentSource, pageID string, allRefs bool) ([]*model.LinkItem, *model.RevisionPage, error) {
	ix, err := r.linkIndexOf(ctx, src)
	if err != nil {
		return nil, nil, err
	}
	from := ix.pages[pageID]
	if from == nil || from.ID != pageID {
		return nil, nil, apperr.NotFoundf("page not found")
	}
	if from.DocumentID == nil {
		return nil, from, nil
	}
	var refs map[string][]*storage.ContentRef
	if allRefs {
		refs, err = r.refsIn(ctx, src)
	} else {
		refs, err = r.Store.RefsOf(ctx, []string{*from.DocumentID})
	}
	if err != nil {
		return nil, nil, err
	}
	items := make([]*model.LinkItem, 0, len(refs[*from.DocumentID]))
	for _, ref := range refs[*from.DocumentID] {
		status, target := ix.resolve(from, ref.Target)
		items = append(items, &model.LinkItem{
			Status: status, Relation: "reference", TargetReference: target, Target: ref.Target, Node: ref.Node,
			LocationReferences: []*model.ContentLocation{{Kind: "page", Page: shallow(from), InternalLocation: &model.InternalLocation{Type: "node", Node: ref.Node}}},
		})
	}
	return items, from, nil
}

// brokenIntroduced counts the page's broken links that were not broken (or not there) in the
// space content the change request is based on.
func (r *App) brokenIntroduced(ctx context.Context, src *ContentSource, from *model.RevisionPage, items []*model.LinkItem) (int, error) {
	base := &ContentSource{Space: src.Space, row: src.row, View: storage.View{SpaceID: src.View.SpaceID, BaseSeq: src.View.BaseSeq}}
	before := map[string]bool{} // targets broken before
	baseItems, _, err := r.linksOf(ctx, base, from.ID, false)
	if err != nil && apperr.KindOf(err) != apperr.NotFound {
		return 0, err
	}
	for _, it := range baseItems {
		if it.Status == model.LinkBroken {
			before[it.Target] = true
		}
	}
	n := 0
	for _, it := range items {
		if it.Status == model.LinkBroken && !before[it.Target] {
			n++
		}
	}
	return n, nil
}

// locate completes the locations of link items with their organization and space, and gives
// every page they name its markdown (the contract's pages carry content): a fixed number of
// statements.
func (r *App) locate(ctx context.Context, src *ContentSource, items []*model.LinkItem) error {
	var locs []*model.ContentLocation
	for _, it := range items {
		locs = append(locs, it.LocationReferences...)
		if it.TargetReference != nil {
			locs = append(locs, it.TargetReference)
		}
	}
	return r.completeLocations(ctx, src, locs)
}

func (r *App) completeLocations(ctx context.Context, src *ContentSource, locs []*model.ContentLocation) error {
	org, err := r.OrganizationByID(ctx, src.Space.Organization)
	if err != nil {
		return err
	}
	var pages []*model.RevisionPage
	seen := map[*model.RevisionPage]bool{}
	for _, loc := range locs {
		if loc.Kind != "page" && loc.Kind != "file" {
			continue
		}
		loc.Organization, loc.Space = org, src.Space
		if loc.Page != nil && !seen[loc.Page] {
			seen[loc.Page] = true
			pages = append(pages, loc.Page)
		}
	}
	return r.WithMarkdown(ctx, pages)
}

// shallow is a page without its children: locations name a page, not its subtree.
func shallow(p *model.RevisionPage) *model.RevisionPage {
	c := *p
	c.Pages = nil
	return &c
}

// PageBacklinks lists where a revision's pages refer to one of its pages: one location per
// referencing place. Errors: NotFound.
func (r *App) PageBacklinks(ctx context.Context, src *ContentSource, pageID string, first *int, after *string) (*model.Connection[*model.ContentLocation], error) {
	return r.pagedBacklinks(ctx, src, first, after, func() ([]*model.ContentLocation, error) { return r.AllPageBacklinks(ctx, src, pageID) })
}

// FileBacklinks lists where a revision's pages refer to one of its files. Errors: NotFound.
func (r *App) FileBacklinks(ctx context.Context, src *ContentSource, fileID string, first *int, after *string) (*model.Connection[*model.ContentLocation], error) {
	return r.pagedBacklinks(ctx, src, first, after, func() ([]*model.ContentLocation, error) { return r.AllFileBacklinks(ctx, src, fileID) })
}

// pagedBacklinks pages through backlinks and completes the locations of the page: a fixed number
// of statements, whatever the size of the space.
func (r *App) pagedBacklinks(ctx context.Context, src *ContentSource, first *int, after *string, find func() ([]*model.ContentLocation, error)) (*model.Connection[*model.ContentLocation], error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	found, err := find()
	if err != nil {
		return nil, err
	}
	list, err := pageByOrder("backlinks", found, page)
	if err != nil {
		return nil, err
	}
	if err := r.completeLocations(ctx, src, list.Items); err != nil {
		return nil, err
	}
	return connectionOf(list, func(l *model.ContentLocation) *model.ContentLocation { return l }), nil
}

func (r *App) AllPageBacklinks(ctx context.Context, src *ContentSource, pageID string) ([]*model.ContentLocation, error) {
	return r.backlinks(ctx, src, func(ix *linkIndex) error {
		if p := ix.pages[pageID]; p == nil || p.ID != pageID {
			return apperr.NotFoundf("page not found")
		}
		return nil
	}, func(loc *model.ContentLocation) bool { return loc.Kind == "page" && loc.Page.ID == pageID })
}

func (r *App) AllFileBacklinks(ctx context.Context, src *ContentSource, fileID string) ([]*model.ContentLocation, error) {
	return r.backlinks(ctx, src, func(ix *linkIndex) error {
		if f := ix.files[fileID]; f == nil || f.ID != fileID {
			return apperr.NotFoundf("file not found")
		}
		return nil
	}, func(loc *model.ContentLocation) bool { return loc.Kind == "file" && loc.File.ID == fileID })
}

// backlinks resolves every reference of a revision and keeps the places whose target matches.
func (r *App) backlinks(ctx context.Context, src *ContentSource, exists func(*linkIndex) error, matches func(*model.ContentLocation) bool) ([]*model.ContentLocation, error) {
	ix, err := r.linkIndexOf(ctx, src)
	if err != nil {
		return nil, err
	}
	if err := exists(ix); err != nil {
		return nil, err
	}
	refs, err := r.refsIn(ctx, src)
	if err != nil {
		return nil, err
	}
	var found []*model.ContentLocation
	for _, from := range ix.all {
		if from.DocumentID == nil {
			continue
		}
		for _, ref := range refs[*from.DocumentID] {
			_, target := ix.resolve(from, ref.Target)
			if target.Kind == "page" && target.Page.ID == from.ID {
				continue // a page's links to its own anchors are not backlinks
			}
			if matches(target) {
				found = append(found, &model.ContentLocation{Kind: "page", Page: shallow(from), InternalLocation: &model.InternalLocation{Type: "node", Node: ref.Node}})
			}
		}
	}
	return found, nil
}

// pageByOrder pages through items already in their final order.
func pageByOrder[T any](name string, items []T, page storage.Window) (storage.List[T], error) {
	type positioned struct {
		item T
		key  string
	}
	keyed := make([]positioned, len(items))
	for i, it := range items {
		keyed[i] = positioned{it, fmt.Sprintf("%08d", i)}
	}
	list, err := storage.PageInMemory(name, keyed, func(p positioned) (time.Time, string) { return time.Time{}, p.key }, false, page)
	out := storage.List[T]{Cursors: list.Cursors, Total: list.Total, HasMore: list.HasMore}
	for _, p := range list.Items {
		out.Items = append(out.Items, p.item)
	}
	return out, err
}

// pageLinks is a GraphQL page's links, optionally of one status. The pages of one tree share
// their source, so asking every page costs the same statements as asking one.
func (r *App) RevisionPageLinks(ctx context.Context, p *model.RevisionPage, status *model.LinkStatus) ([]*model.LinkItem, error) {
	src, ok := SourceByKey(ctx, p.Content)
	if !ok || p.Type != model.PageTypeDocument {
		return []*model.LinkItem{}, nil
	}
	items, _, err := r.linksOf(ctx, src, p.ID, true)
	if err != nil || status == nil {
		return items, err
	}
	kept := []*model.LinkItem{}
	for _, it := range items {
		if it.Status == *status {
			kept = append(kept, it)
		}
	}
	return kept, nil
}

// backlinkPages is the referring pages of backlink locations, for GraphQL.
func BacklinkPages(found []*model.ContentLocation, err error) ([]*model.RevisionPage, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*model.RevisionPage, len(found))
	for i, loc := range found {
		out[i] = loc.Page
	}
	return out, nil
}
