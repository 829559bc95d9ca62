package domain

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/domain/expr"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Published sites as their visitors read them: no account, only the site's visibility, the
// visitor's share key or token, and their claims decide what is there (docs/reader.md). The
// reader (package reader) renders these objects as HTML; GraphQL clients read them as they are.

// PublishedSite is a published site as one visitor sees it.
type PublishedSite struct {
	ID         string
	Title      string
	Visibility model.SiteVisibility
	Indexable  bool
	URL        string
	Claims     model.JSON
	// Insights: the site collects insights (its managers did not turn them off); the reader
	// sends its beacon only then.
	Insights   bool
	Sections   []*model.PublishedSection
	SiteSpaces []*PublishedSiteSpace

	orgID  string
	claims map[string]any
	vars   map[string]string // the site's variables: expressions read them as space.vars
	// roots maps the site-relative prefixes that lead to a site space: each site space's own,
	// and a section's (or the site's) root when its default site space is hidden.
	roots map[string]*PublishedSiteSpace

	styleOnce sync.Once
	style     *customizations
	styleErr  error
}

// PublishedSiteSpace is a site space of a published site, showing its space's current revision.
type PublishedSiteSpace struct {
	ID       string
	Title    string
	Emoji    string
	Path     string
	Section  *string
	Default  bool
	URL      string
	Revision string

	site   *PublishedSite
	src    *ContentSource
	prefix string // the site-relative path of URL: "", "v2/", "guides/v2/"

	mu   sync.Mutex
	tree *publishedTreeView
}

// PublishedLocation is what a path of a published site shows: a page path in a site space.
type PublishedLocation struct {
	SiteSpace *PublishedSiteSpace
	PagePath  string
}

// PublishedPage is a page of a published site space, with its place in navigation.
type PublishedPage struct {
	ID            string
	Type          model.PageType
	Title         string
	Emoji         *string
	Icon          *string
	Description   *string
	Path          string
	URL           string
	NoIndex       bool
	NoRobotsIndex bool
	UpdatedAt     *time.Time
	Layout        model.PageLayout
	Cover         model.JSON
	Children      []*model.PublishedPageRef
	Ancestors     []*model.PublishedPageRef
	Previous      *model.PublishedPageRef
	Next          *model.PublishedPageRef

	page  *model.RevisionPage
	space *PublishedSiteSpace

	mu       sync.Mutex
	markdown *string
}

// maxVisitorToken bounds the visitor tokens read (a JWT of a few claims is well under 1 KB).
const maxVisitorToken = 8 << 10

// OpenPublishedSite reads the site published under name (its basename or id) for a visitor.
// Errors: NotFound (no such site, nothing published, or no active share key on a share-link
// site), Unauthenticated (a visitor-auth site without a valid visitor token).
func (r *App) OpenPublishedSite(ctx context.Context, name string, in *model.SiteVisitorInput) (*PublishedSite, error) {
	if in == nil {
		in = &model.SiteVisitorInput{}
	}
	row, err := r.Store.FindPublishedSite(ctx, name)
	if err != nil {
		return nil, notFound(err, "site")
	}
	if row.SiteSpaces == 0 || row.Unpublished {
		return nil, apperr.NotFoundf("site not found")
	}
	site := r.toSite(row)
	settings, err := r.Store.SiteReaderSettingsOf(ctx, row.ID)
	if err != nil {
		return nil, err
	}
	claims, err := r.visitorClaims(ctx, site, settings, in)
	if err != nil {
		return nil, err
	}
	ps := &PublishedSite{
		ID: site.ID, Title: site.Title, Visibility: site.Visibility, Indexable: site.Visibility == "public",
		URL: r.publicSiteURL(site), orgID: site.OrganizationID, claims: claims,
		vars: stringVars(jsonOf(settings.Variables)), roots: map[string]*PublishedSiteSpace{},
		Insights: !settings.InsightsOff,
	}
	if ps.Claims, err = json.Marshal(claims); err != nil {
		return nil, err
	}
	return ps, r.publishedStructure(ctx, ps, site)
}

// visitorClaims checks that the visitor may read the site and returns their claims: a
// visitor-auth site's token's (required), another site's valid token's (optional), and unsigned
// claims where the site allows them (a signed claim wins over an unsigned one).
func (r *App) visitorClaims(ctx context.Context, site *model.Site, settings *storage.SiteReaderSettings, in *model.SiteVisitorInput) (map[string]any, error) {
	var unsigned map[string]any
	if settings.UnsignedClaims && in.Claims != nil {
		_ = json.Unmarshal(in.Claims, &unsigned) // claims that are not an object are none
	}
	var signed map[string]any
	token := strings.TrimSpace(deref(in.Token))
	if token != "" && settings.SigningKey != nil && len(token) <= maxVisitorToken {
		signed, _ = verifyVisitorToken([]byte(*settings.SigningKey), token, r.Now())
	}
	switch site.Visibility {
	case "share-link":
		key := deref(in.ShareKey)
		if key == "" {
			return nil, apperr.NotFoundf("site not found")
		}
		link, err := r.Store.FindShareLinkByKey(ctx, site.ID, key)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && !link.Active) {
			return nil, apperr.NotFoundf("site not found")
		}
		if err != nil {
			return nil, err
		}
	case "visitor-auth":
		if signed == nil {
			return nil, &apperr.Error{Kind: apperr.Unauthenticated, Msg: "this site needs a valid visitor token"}
		}
	}
	return mergeClaims(unsigned, signed), nil
}

// mergeClaims is what conditions see of a visitor: the unsigned claims, both at the top of
// visitor.claims (Bindery's address) and under visitor.claims.unsigned (GitBook's, so imported
// conditions hold), then the signed claims, which win over both.
func mergeClaims(unsigned, signed map[string]any) map[string]any {
	claims := map[string]any{}
	for k, v := range unsigned {
		claims[k] = v
	}
	if unsigned == nil {
		unsigned = map[string]any{} // visitor.claims.unsigned.x is then missing, not an error
	}
	claims["unsigned"] = unsigned
	for k, v := range signed {
		claims[k] = v
	}
	return claims
}

// publishedStructure fills in the sections and site spaces the visitor sees: those whose
// condition holds for their claims (the conditions visibleStructure applies), without groups
// left empty, sections left without a site space, or spaces in the trash. Reading the site's
// structure costs the same statements as visibleStructure.
func (r *App) publishedStructure(ctx context.Context, ps *PublishedSite, site *model.Site) error {
	loaders := loader.For(ctx, r.Store)
	rows, _, err := loaders.SiteSpaces.Load(ctx, site.ID)
	if err != nil {
		return err
	}
	outline, ok, err := loaders.SiteOutlines.Load(ctx, site.ID)
	if err != nil {
		return err
	}
	if !ok {
		outline = &storage.SiteOutline{}
	}
	byID, err := loaders.Spaces.LoadMany(ctx, spaceIDsOf(rows))
	if err != nil {
		return err
	}
	v := &siteView{outline: siteTree{outline}, spaces: map[string][]*model.SiteSpace{}, pub: publication{base: ps.URL}}
	spaceRows := map[string]*storage.Space{}
	for _, ss := range rows {
		s, ok := byID[ss.SpaceID]
		if !ok {
			continue // in the trash
		}
		spaceRows[ss.ID] = s
		rel := v.sectionPrefix(ss.SectionID)
		if !ss.IsDefault {
			rel += ss.Path + "/"
		}
		v.spaces[deref(ss.SectionID)] = append(v.spaces[deref(ss.SectionID)], &model.SiteSpace{ID: ss.ID, Path: ss.Path, Section: ss.SectionID,
			Title: s.Title, Default: ss.IsDefault, Condition: ss.Condition, URLs: model.PublishedURLs{Published: v.pub.url(rel)}})
	}
	st := v.visibleTo(ps.claims)
	// The sections the visitor sees, in reading order, and so the site spaces shown.
	var walk func(items []model.SiteSectionItem, depth int, parent *string)
	shownSections := map[string]bool{}
	walk = func(items []model.SiteSectionItem, depth int, parent *string) {
		for _, it := range items {
			switch x := it.(type) {
			case *model.SiteSection:
				if len(v.spaces[x.ID]) == 0 {
					continue // nothing this visitor may read in it
				}
				shownSections[x.ID] = true
				ps.Sections = append(ps.Sections, &model.PublishedSection{ID: x.ID, Kind: "section", Title: x.Title, Description: x.Description,
					Icon: x.Icon, URL: x.URLs.Published, Depth: depth, Parent: parent, Default: x.Default})
			case *model.SiteSectionGroup:
				at := len(ps.Sections)
				ps.Sections = append(ps.Sections, &model.PublishedSection{ID: x.ID, Kind: "group", Title: x.Title, Icon: x.Icon, Depth: depth, Parent: parent})
				walk(x.Children, depth+1, &x.ID)
				if len(ps.Sections) == at+1 {
					ps.Sections = ps.Sections[:at] // a group whose sections are all hidden
				}
			}
		}
	}
	walk(st.Sections, 0, nil)
	if ps.Sections == nil {
		ps.Sections = []*model.PublishedSection{}
	}
	ps.SiteSpaces = []*PublishedSiteSpace{}
	for _, ss := range v.siteSpaces() {
		if ss.Section != nil && !shownSections[*ss.Section] {
			continue
		}
		s := spaceRows[ss.ID]
		sp := &PublishedSiteSpace{ID: ss.ID, Title: ss.Title, Emoji: s.Emoji, Path: ss.Path, Section: ss.Section, Default: ss.Default,
			URL: deref(ss.URLs.Published), Revision: s.RevisionID, site: ps,
			src: keepSource(ctx, &ContentSource{Space: r.toSpace(s, nil), row: s, View: storage.View{SpaceID: s.ID, BaseSeq: s.RevisionSeq}, RevisionID: s.RevisionID, published: true})}
		sp.prefix = strings.TrimPrefix(sp.URL, ps.URL)
		ps.SiteSpaces = append(ps.SiteSpaces, sp)
		if ps.roots[sp.prefix] == nil {
			ps.roots[sp.prefix] = sp
		}
	}
	// A section whose default site space is hidden shows its first visible one at its root, and
	// the site's root shows the first visible site space when the default one is hidden.
	for _, sp := range ps.SiteSpaces {
		root := v.sectionPrefix(sp.Section)
		if ps.roots[root] == nil {
			ps.roots[root] = sp
		}
	}
	if len(ps.SiteSpaces) > 0 && ps.roots[""] == nil {
		ps.roots[""] = ps.SiteSpaces[0]
	}
	return nil
}

// publishedAt finds what a site-relative path shows: the site space with the longest prefix of
// it, and the rest as a page path. Nil when no site space is visible.
func (r *App) PublishedAt(ps *PublishedSite, path string) *PublishedLocation {
	path = strings.Trim(path, "/")
	var best *PublishedSiteSpace
	bestLen, rest := -1, ""
	for prefix, sp := range ps.roots {
		p := strings.TrimSuffix(prefix, "/")
		if p != "" && path != p && !strings.HasPrefix(path, p+"/") {
			continue
		}
		if len(p) > bestLen {
			best, bestLen, rest = sp, len(p), strings.TrimPrefix(strings.TrimPrefix(path, p), "/")
		}
	}
	if best == nil {
		return nil
	}
	return &PublishedLocation{SiteSpace: best, PagePath: rest}
}

// publishedTreeView is a published revision's page tree with what navigation needs.
type publishedTreeView struct {
	byID   map[string]*model.RevisionPage
	byPath map[string]*model.RevisionPage // documents and groups
	parent map[string]*model.RevisionPage
	depth  map[string]int
	listed []*model.RevisionPage // depth first, without hidden pages and their children
	isList map[string]bool
}

// treeOf reads a site space's page tree, link index and files: from the cache of published
// revisions, or in two statements (then cached). The content source then resolves references
// and files from them without reading.
func (r *App) treeOf(ctx context.Context, sp *PublishedSiteSpace) (*publishedTreeView, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.tree != nil {
		return sp.tree, nil
	}
	key := sp.src.View.SpaceID + "@" + sp.src.RevisionID
	rev, ok := r.published.get(key)
	if !ok {
		var err error
		if rev, err = r.readPublishedRevision(ctx, sp.src, key); err != nil {
			return nil, err
		}
		r.published.put(rev)
	}
	sp.src.links.mu.Lock()
	sp.src.links.index, sp.src.links.files, sp.src.links.includes = rev.index, rev.files, rev.includes
	sp.src.links.mu.Unlock()
	sp.tree = rev.tree
	return sp.tree, nil
}

// readPublishedRevision reads and indexes a revision for page views: its pages and its files.
func (r *App) readPublishedRevision(ctx context.Context, src *ContentSource, key string) (*publishedRevision, error) {
	rows, err := r.Store.PagesOf(ctx, src.View)
	if err != nil {
		return nil, err
	}
	files, err := r.Store.FilesOf(ctx, src.View)
	if err != nil {
		return nil, err
	}
	roots := r.buildTree(src, rows)
	t := &publishedTreeView{byID: map[string]*model.RevisionPage{}, byPath: map[string]*model.RevisionPage{},
		parent: map[string]*model.RevisionPage{}, depth: map[string]int{}, isList: map[string]bool{}}
	var walk func(pages []*model.RevisionPage, parent *model.RevisionPage, depth int, listed bool)
	walk = func(pages []*model.RevisionPage, parent *model.RevisionPage, depth int, listed bool) {
		for _, p := range pages {
			t.byID[p.ID], t.depth[p.ID] = p, depth
			if parent != nil {
				t.parent[p.ID] = parent
			}
			if p.Type != model.PageTypeLink {
				t.byPath[p.Path] = p
			}
			show := listed && !p.Hidden
			if show {
				t.listed = append(t.listed, p)
				t.isList[p.ID] = true
			}
			walk(p.Pages, p, depth+1, show)
		}
	}
	walk(roots, nil, 0, true)
	return &publishedRevision{key: key, tree: t, index: r.linkIndexFrom(roots, files), files: files, rows: len(rows), includes: &includeSet{}}, nil
}

// pageURL is where a page of the site space is published.
func (sp *PublishedSiteSpace) pageURL(path string) string { return sp.URL + path }

// ref is a page as navigation lists it.
func (sp *PublishedSiteSpace) ref(t *publishedTreeView, p *model.RevisionPage) *model.PublishedPageRef {
	out := &model.PublishedPageRef{ID: p.ID, Type: p.Type, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Description: p.Description,
		Path: p.Path, URL: sp.pageURL(p.Path), Depth: t.depth[p.ID], NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, UpdatedAt: p.UpdatedAt}
	for _, c := range p.Pages {
		if t.isList[c.ID] {
			out.HasChildren = true
			break
		}
	}
	if p.Type == model.PageTypeLink {
		out.URL = sp.linkPageURL(t, p)
	}
	return out
}

// linkPageURL is where a link page leads: its URL, or the published URL of the page of the same
// site space it names ("" when it names one elsewhere).
func (sp *PublishedSiteSpace) linkPageURL(t *publishedTreeView, p *model.RevisionPage) string {
	var ref struct{ Kind, URL, Page, Space string }
	_ = json.Unmarshal(p.Target, &ref)
	switch {
	case ref.Kind == "url":
		return ref.URL
	case ref.Kind == "page" && (ref.Space == "" || ref.Space == sp.src.View.SpaceID):
		if target := t.byID[ref.Page]; target != nil {
			return sp.pageURL(target.Path)
		}
	}
	return ""
}

// publishedPages lists a site space's pages as navigation does.
func (r *App) PublishedPages(ctx context.Context, sp *PublishedSiteSpace) ([]*model.PublishedPageRef, error) {
	t, err := r.treeOf(ctx, sp)
	if err != nil {
		return nil, err
	}
	out := make([]*model.PublishedPageRef, len(t.listed))
	for i, p := range t.listed {
		out[i] = sp.ref(t, p)
	}
	return out, nil
}

// pageAt finds the page at a path of a site space: "" is its first listed document page.
func (t *publishedTreeView) pageAt(path string) *model.RevisionPage {
	if path == "" {
		for _, p := range t.listed {
			if p.Type == model.PageTypeDocument {
				return p
			}
		}
		return nil
	}
	return t.byPath[path]
}

// publishedSidebar lists the top-level pages and the children of the page at path and of each
// of its ancestors, in tree order: navigation that stays small in a space of 10,000 pages.
func (r *App) PublishedSidebar(ctx context.Context, loc *PublishedLocation) ([]*model.PublishedPageRef, error) {
	sp := loc.SiteSpace
	t, err := r.treeOf(ctx, sp)
	if err != nil {
		return nil, err
	}
	open := map[string]bool{}
	for p := t.pageAt(loc.PagePath); p != nil; p = t.parent[p.ID] {
		open[p.ID] = true
	}
	for _, p := range t.listed {
		if p.Type == model.PageTypeGroup {
			open[p.ID] = true // a group is a heading over its pages, never folded
		}
	}
	out := []*model.PublishedPageRef{}
	for _, p := range t.listed {
		parent := t.parent[p.ID]
		if parent == nil || open[parent.ID] {
			out = append(out, sp.ref(t, p))
		}
	}
	return out, nil
}

// publishedPage reads the page a location shows, with its place in navigation; nil when none.
func (r *App) PublishedPageAt(ctx context.Context, loc *PublishedLocation) (*PublishedPage, error) {
	sp := loc.SiteSpace
	t, err := r.treeOf(ctx, sp)
	if err != nil {
		return nil, err
	}
	p := t.pageAt(loc.PagePath)
	if p == nil {
		return nil, nil
	}
	out := &PublishedPage{ID: p.ID, Type: p.Type, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Description: p.Description, Path: p.Path,
		URL: sp.pageURL(p.Path), NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, UpdatedAt: p.UpdatedAt, Layout: p.Layout, Cover: p.Cover,
		Children: []*model.PublishedPageRef{}, Ancestors: []*model.PublishedPageRef{}, page: p, space: sp}
	for _, c := range p.Pages {
		if t.isList[c.ID] {
			out.Children = append(out.Children, sp.ref(t, c))
		}
	}
	for a := t.parent[p.ID]; a != nil; a = t.parent[a.ID] {
		out.Ancestors = append([]*model.PublishedPageRef{sp.ref(t, a)}, out.Ancestors...)
	}
	// Previous and next: the document pages around it in reading order (a hidden page has its
	// place among the listed pages, so it finds none).
	at := -1
	var docs []*model.RevisionPage
	for _, q := range t.listed {
		if q.Type == model.PageTypeDocument {
			if q.ID == p.ID {
				at = len(docs)
			}
			docs = append(docs, q)
		}
	}
	if at > 0 {
		out.Previous = sp.ref(t, docs[at-1])
	}
	if at >= 0 && at+1 < len(docs) {
		out.Next = sp.ref(t, docs[at+1])
	}
	return out, nil
}

// publishedMarkdown is a document page's markdown as this visitor reads it: without the
// conditional blocks whose condition their claims do not meet (so neither the page nor its .md
// shows them). One statement, once per page.
func (r *App) publishedMarkdown(ctx context.Context, pp *PublishedPage) (*string, error) {
	if pp.Type != model.PageTypeDocument {
		return nil, nil
	}
	pp.mu.Lock()
	defer pp.mu.Unlock()
	if pp.markdown == nil {
		md, err := r.markdownOf(ctx, pp.page)
		if err != nil {
			return nil, err
		}
		md = document.KeepConditional(md, func(condition string) bool { return conditionHolds(&condition, pp.space.site.claims) })
		pp.markdown = &md
	}
	return pp.markdown, nil
}

// visible is markdown as the page's visitor reads it: without the conditional blocks whose
// condition their claims do not meet.
func (pp *PublishedPage) visible(md string) string {
	return document.KeepConditional(md, func(condition string) bool { return conditionHolds(&condition, pp.space.site.claims) })
}

// publishedDocument is a document page's document tree, expressions evaluated as in
// publishedMarkdown.
func (r *App) PublishedDocument(ctx context.Context, pp *PublishedPage) (model.JSON, error) {
	md, err := r.publishedMarkdown(ctx, pp)
	if err != nil || md == nil {
		return nil, err
	}
	doc, err := r.documentFor(ctx, pp.space.src, *md, pp.visible)
	if err != nil {
		return nil, err
	}
	doc = evaluateDocument(doc, pp.space.site.vars, stringVars(pp.page.Variables), r.Now)
	if doc, err = r.withOpenAPI(ctx, pp.space.src, pp.space.site.orgID, doc); err != nil {
		return nil, err
	}
	b, err := json.Marshal(doc)
	return model.JSON(b), err
}

// publishedEvaluatedMarkdown is publishedMarkdown with its expressions evaluated.
func (r *App) PublishedEvaluatedMarkdown(ctx context.Context, pp *PublishedPage) (*string, error) {
	md, err := r.publishedMarkdown(ctx, pp)
	if err != nil || md == nil {
		return md, err
	}
	out := evaluateMarkdown(*md, pp.space.site.vars, stringVars(pp.page.Variables), r.Now)
	return &out, nil
}

// publishedLinks resolves the references of a page to published URLs: pages of the site space,
// pages of the other site spaces the visitor sees (links written as app URLs), files served by
// the site, and URLs as written; broken references get no URL. A fixed number of statements.
func (r *App) PublishedLinks(ctx context.Context, pp *PublishedPage) ([]*model.PublishedLink, error) {
	out := []*model.PublishedLink{}
	if pp.Type != model.PageTypeDocument {
		return out, nil
	}
	sp := pp.space
	if _, err := r.treeOf(ctx, sp); err != nil {
		return nil, err
	}
	items, from, err := r.linksOf(ctx, sp.src, pp.ID, false)
	if err != nil {
		return nil, err
	}
	included, err := r.includedLinks(ctx, pp, from)
	if err != nil {
		return nil, err
	}
	for _, it := range append(items, included...) {
		l := &model.PublishedLink{Node: it.Node, Target: it.Target}
		loc := it.TargetReference
		switch {
		case it.Status == model.LinkBroken || loc == nil:
		case loc.Kind == "page" && loc.Page != nil:
			u := sp.pageURL(loc.Page.Path)
			if loc.InternalLocation != nil && loc.InternalLocation.Anchor != "" {
				u += "#" + loc.InternalLocation.Anchor
			}
			l.URL, l.Title, l.Description = &u, &loc.Page.Title, loc.Page.Description
		case loc.Kind == "file" && loc.File != nil:
			u := sp.fileURL(loc.File.ID, loc.File.Name)
			l.URL, l.Title = &u, &loc.File.Name
		case it.Status == model.LinkInApp:
			l.URL = r.inAppURL(ctx, sp.site, loc.URL)
		default:
			u := loc.URL
			l.URL = &u
		}
		out = append(out, l)
	}
	return out, nil
}

// includedLinks resolves the references inside the reusable contents a published page
// includes, as its document holds them (relative ones from the root: document.Include). It reads
// the page's markdown and the source's reusable contents, both shared with its document.
func (r *App) includedLinks(ctx context.Context, pp *PublishedPage, from *model.RevisionPage) ([]*model.LinkItem, error) {
	md, err := r.publishedMarkdown(ctx, pp)
	if err != nil || md == nil || from == nil || !strings.Contains(*md, "{%") {
		return nil, err
	}
	includes, includeErr := r.includeResolver(ctx, pp.space.src, pp.visible)
	refs := document.IncludedReferences(*md, includes)
	if *includeErr != nil {
		return nil, *includeErr
	}
	if len(refs) == 0 {
		return nil, nil
	}
	ix, err := r.linkIndexOf(ctx, pp.space.src)
	if err != nil {
		return nil, err
	}
	out := make([]*model.LinkItem, 0, len(refs))
	for _, ref := range refs {
		status, target := ix.resolve(from, ref.Target)
		out = append(out, &model.LinkItem{Status: status, Relation: "reference", TargetReference: target, Target: ref.Target, Node: ref.Node})
	}
	return out, nil
}

// inAppURL maps a link to a space in the app (<app>/s/<space>/<path>) to where the site
// publishes that space for this visitor; nil when it does not.
func (r *App) inAppURL(ctx context.Context, ps *PublishedSite, u string) *string {
	rest, ok := strings.CutPrefix(u, r.Settings.AppURL+"/s/")
	if !ok {
		return nil
	}
	spaceID, path, _ := strings.Cut(rest, "/")
	path, anchor, _ := strings.Cut(path, "#")
	for _, sp := range ps.SiteSpaces {
		if sp.src.View.SpaceID != spaceID {
			continue
		}
		t, err := r.treeOf(ctx, sp)
		if err != nil || (path != "" && t.byPath[strings.Trim(path, "/")] == nil) {
			return nil
		}
		out := sp.pageURL(strings.Trim(path, "/"))
		if anchor != "" {
			out += "#" + anchor
		}
		return &out
	}
	return nil
}

// fileURL is where the site serves a file of the site space.
func (sp *PublishedSiteSpace) fileURL(fileID, name string) string {
	return sp.site.URL + "~files/" + sp.ID + "/" + fileID + "/" + url.PathEscape(name)
}

// publishedFiles lists the files of the page's site space with their published URLs: one
// statement, shared with resolving the page's references.
func (r *App) PublishedFiles(ctx context.Context, pp *PublishedPage) ([]*model.PublishedFile, error) {
	if _, err := r.treeOf(ctx, pp.space); err != nil {
		return nil, err
	}
	files, err := r.filesOf(ctx, pp.space.src)
	if err != nil {
		return nil, err
	}
	out := make([]*model.PublishedFile, len(files))
	for i, f := range files {
		out[i] = &model.PublishedFile{ID: f.FileID, Name: f.Name, ContentType: f.ContentType, URL: pp.space.fileURL(f.FileID, f.Name), Width: f.Width, Height: f.Height}
	}
	return out, nil
}

// OpenPublishedFile opens a file of a site space of a published site for a visitor who may read it.
// Errors: NotFound, Unauthenticated (as OpenPublishedSite).
func (r *App) OpenPublishedFile(ctx context.Context, name string, in *model.SiteVisitorInput, siteSpaceID, fileID string) (*Download, error) {
	f, err := r.publishedFile(ctx, name, in, siteSpaceID, fileID)
	if err != nil {
		return nil, err
	}
	return r.openFile(ctx, f)
}

// FindPublishedFile is OpenPublishedFile without opening the bytes (Content is nil): who may read
// it is decided, and which version it is, for a link to it elsewhere. Errors: NotFound.
func (r *App) FindPublishedFile(ctx context.Context, name string, in *model.SiteVisitorInput, siteSpaceID, fileID string) (*Download, error) {
	f, err := r.publishedFile(ctx, name, in, siteSpaceID, fileID)
	if err != nil {
		return nil, err
	}
	return &Download{VersionID: f.ID, Name: f.Name, ContentType: f.ContentType, ModTime: f.CreatedAt}, nil
}

// publishedFile is the current version of a file of a site space the visitor sees.
func (r *App) publishedFile(ctx context.Context, name string, in *model.SiteVisitorInput, siteSpaceID, fileID string) (*storage.FileVersion, error) {
	ps, err := r.OpenPublishedSite(ctx, name, in)
	if err != nil {
		return nil, err
	}
	for _, sp := range ps.SiteSpaces {
		if sp.ID == siteSpaceID {
			f, err := r.Store.FileOf(ctx, sp.src.View, fileID)
			return f, notFound(err, "file")
		}
	}
	return nil, apperr.NotFoundf("file not found")
}

// maxPublishedSearch bounds the results of one published search.
const maxPublishedSearch = 50

// publishedSearch searches the current content of the site spaces the visitor sees.
// Errors: Invalid.
func (r *App) PublishedSearch(ctx context.Context, ps *PublishedSite, query string, first *int) ([]*model.PublishedSearchResult, error) {
	limit := 10
	if first != nil {
		if *first < 1 || *first > maxPublishedSearch {
			return nil, apperr.Invalidf("first", "must be between 1 and %d", maxPublishedSearch)
		}
		limit = *first
	}
	bySpace := map[string]*PublishedSiteSpace{}
	var ids []string
	for _, sp := range ps.SiteSpaces {
		if bySpace[sp.src.View.SpaceID] == nil {
			bySpace[sp.src.View.SpaceID] = sp
			ids = append(ids, sp.src.View.SpaceID)
		}
	}
	out := []*model.PublishedSearchResult{}
	page, err := windowOf(&limit, nil)
	if err != nil {
		return nil, err
	}
	results, hits, err := r.searchPages(ctx, ps.orgID, ids, query, page)
	if err != nil {
		return nil, err
	}
	for i, res := range results {
		sp := bySpace[hits.Items[i].SpaceID]
		item := &model.PublishedSearchResult{Title: res.Title, URL: sp.pageURL(res.Path), SiteSpace: sp.Title, Ancestors: []string{}, Sections: []*model.PublishedSearchSection{}}
		for _, a := range res.Ancestors {
			item.Ancestors = append(item.Ancestors, a.Title)
		}
		for _, s := range res.Sections {
			item.Sections = append(item.Sections, &model.PublishedSearchSection{Title: s.Title, URL: sp.pageURL(s.Path), Snippet: s.Body})
		}
		out = append(out, item)
	}
	return out, nil
}

// evaluateDocument evaluates a published document's expressions: the site's variables are
// space.vars, the page's page.vars; one that fails stays, with its error in data.error.
func evaluateDocument(doc document.Document, siteVars, pageVars map[string]string, now func() time.Time) document.Document {
	return document.Evaluate(doc, expr.Evaluator(expr.Env{SpaceVars: siteVars, PageVars: pageVars}, expr.All, now))
}

// evaluateMarkdown is evaluateDocument for markdown.
func evaluateMarkdown(md string, siteVars, pageVars map[string]string, now func() time.Time) string {
	out, _ := document.EvaluateMarkdown(md, expr.Evaluator(expr.Env{SpaceVars: siteVars, PageVars: pageVars}, expr.All, now))
	return out
}
