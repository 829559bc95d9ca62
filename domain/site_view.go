package domain

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// publication is where one read of a site shows its items published: base is empty when nowhere
// (an unknown or inactive share key).
type publication struct{ base, share string }

// url is the published URL of rel (a path under the site ending in "/", or ""), if any.
func (p publication) url(rel string) *string {
	if p.base == "" {
		return nil
	}
	u := p.base + rel + p.share
	return &u
}

// publication resolves where a site's items are published for a read: through the share link
// with shareKey when given, and then nowhere when the key is unknown or inactive.
func (r *App) publication(ctx context.Context, site *model.Site, shareKey *string) (publication, error) {
	p := publication{base: r.publicSiteURL(site)}
	if shareKey == nil {
		return p, nil
	}
	link, err := r.Store.FindShareLinkByKey(ctx, site.ID, *shareKey)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && !link.Active):
		return publication{}, nil
	case err != nil:
		return publication{}, err
	}
	p.share = "?share=" + link.ShareKey
	return p, nil
}

// siteView is a site as the caller sees it in one read: its sections and groups, and the site
// spaces whose space the caller can read (not in the trash), by section.
type siteView struct {
	outline siteTree
	spaces  map[string][]*model.SiteSpace // by section id ("": the root), in order
	pub     publication
}

// siteView reads a site through the request's loaders: a fixed number of statements whatever the
// counts, shared by sibling sites.
func (r *App) siteView(ctx context.Context, site *model.Site, shareKey *string) (*siteView, error) {
	loaders := loader.For(ctx, r.Store)
	rows, _, err := loaders.SiteSpaces.Load(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	outline, ok, err := loaders.SiteOutlines.Load(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	if !ok {
		outline = &storage.SiteOutline{}
	}
	byID, err := loaders.Spaces.LoadMany(ctx, spaceIDsOf(rows))
	if err != nil {
		return nil, err
	}
	return r.buildSiteView(ctx, site, outline, rows, byID, shareKey)
}

// freshSiteView reads a site past the request's loaders: after a change.
func (r *App) freshSiteView(ctx context.Context, site *model.Site) (*siteView, error) {
	rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	outline, err := r.Store.SiteOutlineOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	spaces, err := r.Store.SpacesByIDs(ctx, spaceIDsOf(rows))
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*storage.Space, len(spaces))
	for _, s := range spaces {
		byID[s.ID] = s
	}
	return r.buildSiteView(ctx, site, outline, rows, byID, nil)
}

func spaceIDsOf(rows []*storage.SiteSpace) []string {
	ids := make([]string, len(rows))
	for i, ss := range rows {
		ids[i] = ss.SpaceID
	}
	return ids
}

func (r *App) buildSiteView(ctx context.Context, site *model.Site, outline *storage.SiteOutline, rows []*storage.SiteSpace, byID map[string]*storage.Space, shareKey *string) (*siteView, error) {
	acc, err := r.viewerAccess(ctx, site.OrganizationID)
	if err != nil {
		return nil, err
	}
	pub, err := r.publication(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	v := &siteView{outline: siteTree{outline}, spaces: map[string][]*model.SiteSpace{}, pub: pub}
	var shown []*model.Space
	for _, ss := range rows {
		s, ok := byID[ss.SpaceID]
		if !ok {
			continue // in the trash
		}
		role := acc.SpaceRole(spaceNode(s))
		if !canRead(role) {
			continue
		}
		rel := v.sectionPrefix(ss.SectionID)
		if !ss.IsDefault {
			rel += ss.Path + "/"
		}
		item := &model.SiteSpace{Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.SectionID, Space: r.toSpace(s, role), Title: s.Title,
			Default: ss.IsDefault, Condition: ss.Condition, URLs: model.PublishedURLs{Published: pub.url(rel)}}
		v.spaces[deref(ss.SectionID)] = append(v.spaces[deref(ss.SectionID)], item)
		shown = append(shown, item.Space)
	}
	return v, r.withCounts(ctx, shown...)
}

// sectionPrefix is a section's part of the URLs under it: none for the default section, or for
// the root of a site without sections.
func (v *siteView) sectionPrefix(id *string) string {
	if id == nil {
		return ""
	}
	if sec := v.outline.Section(*id); sec != nil && !sec.IsDefault {
		return sec.Path + "/"
	}
	return ""
}

// siteSpaces lists the site spaces in reading order: the root's, then each section's.
func (v *siteView) siteSpaces() []*model.SiteSpace {
	out := slices.Clone(v.spaces[""])
	for _, it := range v.outline.Walk() {
		if !it.Group {
			out = append(out, v.spaces[it.ID]...)
		}
	}
	return out
}

func (v *siteView) section(s *storage.SiteSection) *model.SiteSection {
	return &model.SiteSection{Object: "site-section", ID: s.ID, Title: s.Title, Description: s.Description, Default: s.IsDefault, Path: s.Path,
		Condition: s.Condition, SectionGroup: s.GroupID, Icon: s.Icon, SiteSpaces: orEmpty(v.spaces[s.ID]),
		URLs: model.PublishedURLs{Published: v.pub.url(v.sectionPrefix(&s.ID))}}
}

func (v *siteView) group(g *storage.SiteSectionGroup) *model.SiteSectionGroup {
	out := &model.SiteSectionGroup{Object: "site-section-group", ID: g.ID, Title: g.Title, SectionGroup: g.ParentID, Icon: g.Icon,
		Children: v.items(&g.ID)}
	out.Sections = sectionsOf(out.Children)
	return out
}

// sectionsOf returns the sections among items.
func sectionsOf(items []model.SiteSectionItem) []*model.SiteSection {
	out := []*model.SiteSection{}
	for _, it := range items {
		if s, ok := it.(*model.SiteSection); ok {
			out = append(out, s)
		}
	}
	return out
}

// items builds a parent's sections and groups in order (nil: the root's), groups with their
// children.
func (v *siteView) items(parent *string) []model.SiteSectionItem {
	out := []model.SiteSectionItem{}
	for _, it := range v.outline.Children(parent) {
		if it.Group {
			out = append(out, v.group(v.outline.Group(it.ID)))
		} else {
			out = append(out, v.section(v.outline.Section(it.ID)))
		}
	}
	return out
}

// sections lists the sections in reading order.
func (v *siteView) sections() []*model.SiteSection {
	out := []*model.SiteSection{}
	for _, it := range v.outline.Walk() {
		if !it.Group {
			out = append(out, v.section(v.outline.Section(it.ID)))
		}
	}
	return out
}

// groups lists the section groups in reading order.
func (v *siteView) groups() []*model.SiteSectionGroup {
	out := []*model.SiteSectionGroup{}
	for _, it := range v.outline.Walk() {
		if it.Group {
			out = append(out, v.group(v.outline.Group(it.ID)))
		}
	}
	return out
}

// structure is the contract's structure: sections and groups when the site has sections, its site
// spaces otherwise.
func (v *siteView) structure() *model.SiteStructure {
	if len(v.outline.Sections) > 0 {
		return &model.SiteStructure{Type: model.StructureSections, Structure: []*model.SiteSpace{}, Sections: v.items(nil)}
	}
	return &model.SiteStructure{Type: model.StructureSiteSpaces, Structure: orEmpty(v.spaces[""]), Sections: []model.SiteSectionItem{}}
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// pageInOrder pages through items in the order given, by their ids: lists whose order is a
// site's structure rather than a column.
func pageInOrder[T any](list string, items []T, id func(T) string, first *int, after *string) (*model.Connection[T], error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	type ordered struct {
		it  T
		pos int
	}
	all := make([]ordered, len(items))
	for i, it := range items {
		all[i] = ordered{it, i}
	}
	// The position stands in as the key's time, so that cursors follow the given order.
	got, err := storage.PageInMemory(list, all, func(o ordered) (time.Time, string) { return time.Unix(int64(o.pos), 0), id(o.it) }, false, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(got, func(o ordered) T { return o.it }), nil
}
