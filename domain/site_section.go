package domain

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/text"
	"github.com/bindery/bindery/storage"
)

// SiteSections pages through a site's sections in reading order. With a shareKey, published URLs
// go through that share link. Errors: Invalid.
func (r *App) SiteSections(ctx context.Context, site *model.Site, first *int, after *string, shareKey *string) (*model.SiteSectionConnection, error) {
	if _, err := windowOf(first, after); err != nil {
		return nil, err
	}
	v, err := r.siteView(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	return pageInOrder("siteSections", v.sections(), func(s *model.SiteSection) string { return s.ID }, first, after)
}

// SiteSectionGroups pages through a site's section groups in reading order. Errors: Invalid.
func (r *App) SiteSectionGroups(ctx context.Context, site *model.Site, first *int, after *string) (*model.SiteSectionGroupConnection, error) {
	if _, err := windowOf(first, after); err != nil {
		return nil, err
	}
	v, err := r.siteView(ctx, site, nil)
	if err != nil {
		return nil, err
	}
	return pageInOrder("siteSectionGroups", v.groups(), func(g *model.SiteSectionGroup) string { return g.ID }, first, after)
}

// findSection returns a section as the caller sees it, read afresh after a change.
// Errors: NotFound.
func (r *App) findSection(ctx context.Context, site *storage.Site, id string) (*model.SiteSection, error) {
	v, err := r.freshSiteView(ctx, r.toSite(site))
	if err != nil {
		return nil, err
	}
	if sec := v.outline.Section(id); sec != nil {
		return v.section(sec), nil
	}
	return nil, apperr.NotFoundf("site section not found")
}

// findSectionGroup returns a section group with its children, read afresh after a change.
// Errors: NotFound.
func (r *App) findSectionGroup(ctx context.Context, site *storage.Site, id string) (*model.SiteSectionGroup, error) {
	v, err := r.freshSiteView(ctx, r.toSite(site))
	if err != nil {
		return nil, err
	}
	if g := v.outline.Group(id); g != nil {
		return v.group(g), nil
	}
	return nil, apperr.NotFoundf("site section group not found")
}

// editableOutline loads a site the caller manages with its sections and groups.
// Errors: NotFound, Forbidden.
func (r *App) editableOutline(ctx context.Context, orgID, siteID string) (*storage.Site, *storage.SiteOutline, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, nil, err
	}
	outline, err := r.Store.SiteOutlineOf(ctx, site.ID)
	return site, outline, err
}

// sectionTitle is the first candidate that makes a valid section title (2 to 128 characters,
// longer ones cut), else "Untitled section".
func sectionTitle(candidates ...string) string {
	for _, c := range candidates {
		if utf8.RuneCountInString(c) >= 2 {
			if r := []rune(c); len(r) > 128 {
				return string(r[:128])
			}
			return c
		}
	}
	return "Untitled section"
}

// freePath is base, or base-2, base-3… when taken.
func freePath(base string, taken map[string]bool) string {
	return text.Unique(base, func(p string) bool { return taken[p] })
}

func sectionPaths(o *storage.SiteOutline) map[string]bool {
	taken := map[string]bool{}
	for _, s := range o.Sections {
		taken[s.Path] = true
	}
	return taken
}

// CreateSiteSection adds a section at the end of the site's root, publishing a space as its first
// site space. The first section of a site becomes its default; when the site still publishes site
// spaces at its root, they first move, in order, into a default section of their own, named
// after the space readers landed on. Errors: Invalid, NotFound, Forbidden.
func (r *App) CreateSiteSection(ctx context.Context, orgID, siteID string, in model.CreateSiteSectionInput) (*model.SiteSection, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, outline, err := r.editableOutline(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	space, err := r.publishableSpace(ctx, orgID, in.SpaceID, "spaceId")
	if err != nil {
		return nil, err
	}
	first := &storage.SiteSpace{OrganizationID: site.OrganizationID, SpaceID: space.ID, Path: slug(space.Title), CreatedAt: r.Now()}
	taken := sectionPaths(outline)
	title := sectionTitle(deref(in.Title), space.Title)
	sec := &storage.SiteSection{ID: storage.NewID(), OrganizationID: site.OrganizationID, SiteID: site.ID, Title: title, Path: freePath(slug(title), taken),
		Icon: in.Icon, CreatedAt: r.Now()}
	taken[sec.Path] = true
	var wrap *storage.SiteSection
	if len(outline.Sections) == 0 {
		if wrap, err = r.rootSection(ctx, site, taken); err != nil {
			return nil, err
		}
	}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteSectionCreated, site, "site-section", sec.ID, sec.Title), map[string]any{"spaceId": space.ID})
	err = r.Store.EditSiteOutline(ctx, site.ID, func(ctx context.Context, tx *storage.OutlineTx) error {
		return addSection(ctx, tx, sec, first, wrap)
	})
	if errors.Is(err, storage.ErrConflict) {
		return nil, apperr.Conflictf("the site's sections changed meanwhile: try again")
	} else if err != nil {
		return nil, err
	}
	return r.findSection(ctx, site, sec.ID)
}

// addSection adds sec at the end of the site's root, with first as its first (and default) site
// space. While the site has no section, a site space at its root would be left outside every
// section: wrap, when given, then becomes the site's default section and takes the root site
// spaces, in their order, ahead of sec. The first section of a site is its default.
// Errors: storage.ErrConflict (a path is taken).
func addSection(ctx context.Context, tx *storage.OutlineTx, sec *storage.SiteSection, first *storage.SiteSpace, wrap *storage.SiteSection) error {
	t := siteTree{tx.Outline}
	if len(t.Sections) == 0 && wrap != nil {
		n, err := tx.RootSiteSpaces(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			wrap.Position, wrap.IsDefault = t.nextPosition(nil), true
			if err := tx.InsertSection(ctx, wrap); err != nil {
				return err
			}
			if err := tx.MoveRootSiteSpaces(ctx, wrap.ID); err != nil {
				return err
			}
		}
	}
	sec.Position, sec.IsDefault = t.nextPosition(nil), len(t.Sections) == 0
	if err := tx.InsertSection(ctx, sec); err != nil {
		return err
	}
	first.SectionID, first.Position, first.IsDefault = &sec.ID, 0, true
	return tx.InsertSiteSpace(ctx, first)
}

// rootSection prepares the section that takes a site's root site spaces when it gets its first
// section, named after its default space (or the site); nil when the root is empty.
func (r *App) rootSection(ctx context.Context, site *storage.Site, taken map[string]bool) (*storage.SiteSection, error) {
	rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	title := site.Title
	if i := slices.IndexFunc(rows, func(ss *storage.SiteSpace) bool { return ss.IsDefault }); i >= 0 {
		spaces, err := r.Store.SpacesByIDs(ctx, []string{rows[i].SpaceID})
		if err != nil {
			return nil, err
		}
		if len(spaces) > 0 {
			title = sectionTitle(spaces[0].Title, site.Title)
		}
	}
	title = sectionTitle(title)
	return &storage.SiteSection{OrganizationID: site.OrganizationID, SiteID: site.ID, Title: title, Path: freePath(slug(title), taken), CreatedAt: r.Now()}, nil
}

// UpdateSiteSection changes a section. Errors: Invalid (a path another section uses, a condition
// that is not a boolean expression, a default site space not in the section), NotFound, Forbidden.
func (r *App) UpdateSiteSection(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSectionInput) (*model.SiteSection, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, outline, err := r.editableOutline(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	sec := outline.Section(id)
	if sec == nil {
		return nil, apperr.NotFoundf("site section not found")
	}
	set, err := applySectionUpdate(sec, in)
	if err != nil {
		return nil, err
	}
	if v := in.Condition.Value(); v != nil {
		if err := r.checkConditionAgainstSchema(ctx, site.ID, "condition", *v); err != nil {
			return nil, err
		}
	}
	if p := in.Path.Value(); p != nil && slices.ContainsFunc(outline.Sections, func(o *storage.SiteSection) bool { return o.ID != id && o.Path == *p }) {
		return nil, apperr.Invalidf("path", "%q is already used by another section of this site", *p)
	}
	def := in.DefaultSiteSpace.Value()
	if def != nil {
		rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(inSection(rows, &id), func(ss *storage.SiteSpace) bool { return ss.ID == *def }) {
			return nil, apperr.Invalidf("defaultSiteSpace", "site space %q not found in this section", *def)
		}
	}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteSectionUpdated, site, "site-section", sec.ID, sec.Title), nil)
	err = r.Store.UpdateSiteSection(ctx, sec, set, def)
	switch {
	case errors.Is(err, storage.ErrConflict):
		return nil, apperr.Invalidf("path", "%q is already used by another section of this site", sec.Path)
	case errors.Is(err, storage.ErrNotFound):
		return nil, apperr.NotFoundf("site section not found")
	case err != nil:
		return nil, err
	}
	return r.findSection(ctx, site, id)
}

// applySectionUpdate writes a section update's fields into sec and names them.
// Errors: Invalid (a condition that is not a boolean expression).
func applySectionUpdate(sec *storage.SiteSection, in model.UpdateSiteSectionInput) (storage.SiteSectionField, error) {
	var set storage.SiteSectionField
	if v := in.Title.Value(); v != nil {
		sec.Title, set = *v, set|storage.SiteSectionTitle
	}
	if v := in.Path.Value(); v != nil {
		sec.Path, set = *v, set|storage.SiteSectionPath
	}
	if v, ok := in.Condition.ValueOK(); ok {
		if v != nil {
			if err := compileCondition("condition", *v); err != nil {
				return 0, err
			}
		}
		sec.Condition, set = v, set|storage.SiteSectionCondition
	}
	if v, ok := in.Icon.ValueOK(); ok {
		sec.Icon, set = v, set|storage.SiteSectionIcon
	}
	if v, ok := in.Description.ValueOK(); ok {
		sec.Description, set = v, set|storage.SiteSectionDescription
	}
	return set, nil
}

// DeleteSiteSection deletes a section with its site spaces; a missing one reports false.
// Errors: NotFound (site), Forbidden.
func (r *App) DeleteSiteSection(ctx context.Context, orgID, siteID, id string) (bool, error) {
	return r.removeFromOutline(ctx, orgID, siteID, "site-section", id, func(ctx context.Context, tx *storage.OutlineTx, t siteTree) (bool, error) {
		sec := t.Section(id)
		if sec == nil {
			return false, nil
		}
		if err := tx.DeleteSection(ctx, id); err != nil || !sec.IsDefault {
			return true, err
		}
		for _, it := range t.Walk() { // the first remaining section in reading order takes over
			if !it.Group {
				return true, tx.SetDefaultSection(ctx, it.ID)
			}
		}
		return true, nil
	})
}

// removeFromOutline edits a site's outline with remove, which reports whether the outline held
// what it removes, the section or group (kind) id. Errors: NotFound (site), Forbidden.
func (r *App) removeFromOutline(ctx context.Context, orgID, siteID, kind, id string, remove func(ctx context.Context, tx *storage.OutlineTx, t siteTree) (bool, error)) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	removed := false
	ctx = r.emit(ctx, siteObjectEvent(EventSiteSectionDeleted, site, kind, id, ""), nil)
	err = r.Store.EditSiteOutline(ctx, site.ID, func(ctx context.Context, tx *storage.OutlineTx) error {
		var err error
		if removed, err = remove(ctx, tx, siteTree{tx.Outline}); err == nil && !removed {
			storage.NoChange(ctx)
		}
		return err
	})
	return removed, err
}

// CreateSiteSectionGroup adds a group at the end of its parent (or the site's root) and moves the
// given sections into it. Errors: Invalid (an unknown parent or section), NotFound, Forbidden.
func (r *App) CreateSiteSectionGroup(ctx context.Context, orgID, siteID string, in model.CreateSiteSectionGroupInput) (*model.SiteSectionGroup, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, outline, err := r.editableOutline(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if in.Parent != nil && outline.Group(*in.Parent) == nil {
		return nil, apperr.Invalidf("parent", "section group %q not found on this site", *in.Parent)
	}
	for i, id := range in.Sections {
		if outline.Section(id) == nil {
			return nil, apperr.Invalidf(fmt.Sprintf("sections[%d]", i), "section %q not found on this site", id)
		}
	}
	g := &storage.SiteSectionGroup{ID: storage.NewID(), OrganizationID: site.OrganizationID, SiteID: site.ID, ParentID: in.Parent, Title: in.Title, Icon: in.Icon, CreatedAt: r.Now()}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteSectionCreated, site, "site-section-group", g.ID, g.Title), nil)
	err = r.Store.EditSiteOutline(ctx, site.ID, func(ctx context.Context, tx *storage.OutlineTx) error {
		t := siteTree{tx.Outline}
		if g.ParentID != nil && t.Group(*g.ParentID) == nil {
			return storage.ErrNotFound
		}
		g.Position = t.nextPosition(g.ParentID)
		if err := tx.InsertGroup(ctx, g); err != nil {
			return err
		}
		for _, id := range in.Sections {
			if t.Section(id) == nil {
				return storage.ErrNotFound
			}
			if err := t.relocate(ctx, tx, storage.OutlineItem{ID: id}, &g.ID, -1); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apperr.Invalidf("sections", "the site's sections changed meanwhile: a section or the parent is gone")
	} else if err != nil {
		return nil, err
	}
	return r.findSectionGroup(ctx, site, g.ID)
}

// UpdateSiteSectionGroup renames a group or changes its icon. Errors: Invalid, NotFound,
// Forbidden.
func (r *App) UpdateSiteSectionGroup(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSectionGroupInput) (*model.SiteSectionGroup, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, outline, err := r.editableOutline(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	g := outline.Group(id)
	if g == nil {
		return nil, apperr.NotFoundf("site section group not found")
	}
	var set storage.SiteSectionField
	if v := in.Title.Value(); v != nil {
		g.Title, set = *v, set|storage.SiteSectionTitle
	}
	if v, ok := in.Icon.ValueOK(); ok {
		g.Icon, set = v, set|storage.SiteSectionIcon
	}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteSectionUpdated, site, "site-section-group", g.ID, g.Title), nil)
	if err := r.Store.UpdateSiteSectionGroup(ctx, g, set); err != nil {
		return nil, notFound(err, "site section group")
	}
	return r.findSectionGroup(ctx, site, id)
}

// DeleteSiteSectionGroup deletes a group, moving what it holds up to its parent; a missing one
// reports false. Errors: NotFound (site), Forbidden.
func (r *App) DeleteSiteSectionGroup(ctx context.Context, orgID, siteID, id string) (bool, error) {
	return r.removeFromOutline(ctx, orgID, siteID, "site-section-group", id, func(ctx context.Context, tx *storage.OutlineTx, t siteTree) (bool, error) {
		g := t.Group(id)
		if g == nil {
			return false, nil
		}
		siblings := t.Children(g.ParentID)
		at := slices.Index(siblings, storage.OutlineItem{Group: true, ID: id})
		order := slices.Concat(siblings[:at], t.Children(&id), siblings[at+1:])
		if err := t.renumber(ctx, tx, g.ParentID, order); err != nil {
			return true, err
		}
		return true, tx.DeleteGroup(ctx, id)
	})
}

// AddSectionToGroup moves a section to the end of a group and answers the group.
// Errors: Invalid (an unknown section), NotFound (site or group), Forbidden.
func (r *App) AddSectionToGroup(ctx context.Context, orgID, siteID, groupID string, in model.AddSectionToGroupInput) (*model.SiteSectionGroup, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, outline, err := r.editableOutline(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if outline.Group(groupID) == nil {
		return nil, apperr.NotFoundf("site section group not found")
	}
	if outline.Section(in.SectionID) == nil {
		return nil, apperr.Invalidf("sectionId", "section %q not found on this site", in.SectionID)
	}
	ctx = r.emit(ctx, siteObjectEvent(EventSiteStructureUpdated, site, "site-section", in.SectionID, ""), map[string]any{"group": groupID})
	err = r.Store.EditSiteOutline(ctx, site.ID, func(ctx context.Context, tx *storage.OutlineTx) error {
		t := siteTree{tx.Outline}
		sec := t.Section(in.SectionID)
		if t.Group(groupID) == nil || sec == nil {
			return storage.ErrNotFound
		}
		if sameParent(sec.GroupID, &groupID) {
			storage.NoChange(ctx)
			return nil // already in it: it stays where it is
		}
		return t.relocate(ctx, tx, storage.OutlineItem{ID: in.SectionID}, &groupID, -1)
	})
	if err != nil {
		return nil, notFound(err, "site section group")
	}
	return r.findSectionGroup(ctx, site, groupID)
}

// RemoveSectionFromGroup moves a section out of its group, right after it; false when it was not
// in that group. Errors: NotFound (site), Forbidden.
func (r *App) RemoveSectionFromGroup(ctx context.Context, orgID, siteID, groupID, sectionID string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	removed := false
	ctx = r.emit(ctx, siteObjectEvent(EventSiteStructureUpdated, site, "site-section", sectionID, ""), map[string]any{"leftGroup": groupID})
	err = r.Store.EditSiteOutline(ctx, site.ID, func(ctx context.Context, tx *storage.OutlineTx) error {
		t := siteTree{tx.Outline}
		sec, g := t.Section(sectionID), t.Group(groupID)
		if sec == nil || g == nil || !sameParent(sec.GroupID, &groupID) {
			storage.NoChange(ctx)
			return nil
		}
		removed = true
		at := slices.Index(t.Children(g.ParentID), storage.OutlineItem{Group: true, ID: groupID})
		return t.relocate(ctx, tx, storage.OutlineItem{ID: sectionID}, g.ParentID, at+1)
	})
	return removed, err
}
