package domain

import (
	"context"
	"errors"
	"slices"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// SiteSpaceListArgs: with a ShareKey, published URLs go through that share link, and an unknown
// or inactive key gives none; Default narrows to the default site spaces (true) or the others
// (false).
type SiteSpaceListArgs struct {
	ShareKey *string
	Default  *bool
}

// SiteSpaces pages through a site's site spaces in reading order. Errors: Invalid.
func (r *App) SiteSpaces(ctx context.Context, site *model.Site, args SiteSpaceListArgs, first *int, after *string) (*model.SiteSpaceConnection, error) {
	shareKey, isDefault := args.ShareKey, args.Default
	if _, err := windowOf(first, after); err != nil {
		return nil, err
	}
	v, err := r.siteView(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	all := v.siteSpaces()
	if isDefault != nil {
		all = slices.DeleteFunc(all, func(ss *model.SiteSpace) bool { return ss.Default != *isDefault })
	}
	return pageInOrder("siteSpaces", all, func(ss *model.SiteSpace) string { return ss.ID }, first, after)
}

// SiteStructure is what readers navigate (see siteView.structure).
func (r *App) SiteStructure(ctx context.Context, site *model.Site, shareKey *string) (*model.SiteStructure, error) {
	v, err := r.siteView(ctx, site, shareKey)
	if err != nil {
		return nil, err
	}
	return v.structure(), nil
}

// VisibleSiteStructure is the structure a visitor with claims would see: the sections and site
// spaces whose condition holds for them, without the groups this leaves empty.
func (r *App) VisibleSiteStructure(ctx context.Context, site *model.Site, claims model.Document) (*model.SiteStructure, error) {
	var values map[string]any
	if err := jsonUnmarshal(claims, &values); err != nil {
		return nil, apperr.Invalidf("claims", "must be a JSON object")
	}
	v, err := r.siteView(ctx, site, nil)
	if err != nil {
		return nil, err
	}
	return v.visibleTo(values), nil
}

// visibleTo keeps the site spaces and sections whose condition holds for claims, and returns
// the structure that leaves (published sites show visitors the same).
func (v *siteView) visibleTo(claims map[string]any) *model.SiteStructure {
	for k, list := range v.spaces {
		v.spaces[k] = slices.DeleteFunc(list, func(ss *model.SiteSpace) bool { return !conditionHolds(ss.Condition, claims) })
	}
	st := v.structure()
	st.Sections = visibleItems(st.Sections, claims)
	return st
}

// visibleItems keeps the sections whose condition holds for claims, and the groups that still
// hold something.
func visibleItems(items []model.SiteSectionItem, claims map[string]any) []model.SiteSectionItem {
	out := []model.SiteSectionItem{}
	for _, it := range items {
		switch x := it.(type) {
		case *model.SiteSection:
			if conditionHolds(x.Condition, claims) {
				out = append(out, x)
			}
		case *model.SiteSectionGroup:
			if x.Children = visibleItems(x.Children, claims); len(x.Children) > 0 {
				x.Sections = sectionsOf(x.Children)
				out = append(out, x)
			}
		}
	}
	return out
}

// findSiteSpace returns a site space as the caller sees it, read afresh after a change.
// Errors: NotFound.
func (r *App) findSiteSpace(ctx context.Context, site *storage.Site, id string) (*model.SiteSpace, error) {
	v, err := r.freshSiteView(ctx, r.toSite(site))
	if err != nil {
		return nil, err
	}
	all := v.siteSpaces()
	if i := slices.IndexFunc(all, func(ss *model.SiteSpace) bool { return ss.ID == id }); i >= 0 {
		return all[i], nil
	}
	return nil, apperr.NotFoundf("site space not found")
}

// editableSite loads a site the caller manages. Errors: NotFound, Forbidden.
func (r *App) editableSite(ctx context.Context, orgID, siteID string) (*storage.Site, error) {
	if _, err := r.siteEditor(ctx, orgID); err != nil {
		return nil, err
	}
	site, err := r.Store.FindSite(ctx, orgID, siteID)
	return site, notFound(err, "site")
}

// AddSiteSpace publishes a space on a site, after the other site spaces of its section: the one
// named, else the default section, else the root of a site without sections.
// Errors: Invalid, NotFound, Forbidden.
func (r *App) AddSiteSpace(ctx context.Context, orgID, siteID string, in model.AddSiteSpaceInput) (*model.SiteSpace, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	outline, err := r.Store.SiteOutlineOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	section := in.SectionID
	if section != nil && outline.Section(*section) == nil {
		return nil, apperr.Invalidf("sectionId", "section %q not found on this site", *section)
	}
	if section == nil {
		section = defaultSection(outline)
	}
	existing, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	ss, err := r.newSiteSpace(ctx, orgID, in.SpaceID, "spaceId", nil, inSection(existing, section))
	if err != nil {
		return nil, err
	}
	ss.SectionID = section
	ev := siteEvent(EventSiteSpaceAdded, orgID, site.ID, site.Title)
	ev.SpaceID = ss.SpaceID
	if err := r.Store.AddSiteSpaces(r.emit(ctx, ev, nil), site.ID, []*storage.SiteSpace{ss}); err != nil {
		return nil, err
	}
	return r.findSiteSpace(ctx, site, ss.ID)
}

// defaultSection is the id of a site's default section; nil without sections.
func defaultSection(o *storage.SiteOutline) *string {
	for _, s := range o.Sections {
		if s.IsDefault {
			return &s.ID
		}
	}
	return nil
}

// inSection keeps the site spaces of one section (nil: the root).
func inSection(rows []*storage.SiteSpace, section *string) []*storage.SiteSpace {
	return slices.DeleteFunc(slices.Clone(rows), func(ss *storage.SiteSpace) bool { return deref(ss.SectionID) != deref(section) })
}

// UpdateSiteSpace changes a site space's path, condition or space. Errors: Invalid (a path
// another site space uses, a condition that is not a boolean expression), NotFound, Forbidden.
func (r *App) UpdateSiteSpace(ctx context.Context, orgID, siteID, id string, in model.UpdateSiteSpaceInput) (*model.SiteSpace, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(rows, func(ss *storage.SiteSpace) bool { return ss.ID == id })
	if i < 0 {
		return nil, apperr.NotFoundf("site space not found")
	}
	row, set := rows[i], storage.SiteSpaceField(0)
	if in.Path != nil {
		row.Path, set = *in.Path, set|storage.SiteSpacePath
	}
	if v, ok := in.Condition.ValueOK(); ok {
		if v != nil {
			if err := compileCondition("condition", *v); err != nil {
				return nil, err
			}
			if err := r.checkConditionAgainstSchema(ctx, site.ID, "condition", *v); err != nil {
				return nil, err
			}
		}
		row.Condition, set = v, set|storage.SiteSpaceCondition
	}
	if in.SpaceID != nil {
		if _, err := r.newSiteSpace(ctx, orgID, *in.SpaceID, "spaceId", nil, nil); err != nil {
			return nil, err
		}
		row.SpaceID, set = *in.SpaceID, set|storage.SiteSpaceSpace
	}
	if set != 0 {
		ev := siteEvent(EventSiteSpaceUpdated, orgID, site.ID, site.Title)
		ev.SpaceID = row.SpaceID
		if err := r.Store.UpdateSiteSpace(r.emit(ctx, ev, map[string]any{"siteSpace": row.ID}), row, set); errors.Is(err, storage.ErrConflict) {
			return nil, apperr.Invalidf("path", "%q is already used by another site space of this section", row.Path)
		} else if err != nil {
			return nil, err
		}
	}
	return r.findSiteSpace(ctx, site, id)
}

// DeleteSiteSpace stops publishing a site space; a missing one reports false.
// Errors: NotFound (site), Forbidden.
func (r *App) DeleteSiteSpace(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	return r.Store.DeleteSiteSpace(r.emit(ctx, siteEvent(EventSiteSpaceRemoved, orgID, site.ID, site.Title), map[string]any{"siteSpace": id}), site.ID, id)
}

// SortSiteStructure moves a site space before or after another of its section, or a section or
// group before or after another section or group (into that one's group), and answers the moved
// item. Errors: Invalid, NotFound, Forbidden.
func (r *App) SortSiteStructure(ctx context.Context, orgID, siteID string, in model.SortSiteStructureInput) (model.SiteStructureItem, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	site, err := r.editableSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	anchor, after := in.Anchor(), in.Position.After != nil
	ctx = r.emit(ctx, siteObjectEvent(EventSiteStructureUpdated, site, in.Item.Type, in.Item.ID, ""), map[string]any{"anchor": anchor.ID, "after": after})
	if in.Item.Type == "site-space" {
		return r.moveSiteSpace(ctx, site, in.Item.ID, anchor.ID, after)
	}
	item, to := outlineItem(in.Item), outlineItem(anchor)
	if err := r.Store.EditSiteOutline(ctx, site.ID, func(ctx context.Context, tx *storage.OutlineTx) error {
		return moveOutlineItem(ctx, tx, item, to, after)
	}); err != nil {
		return nil, err
	}
	if item.Group {
		return r.findSectionGroup(ctx, site, item.ID)
	}
	return r.findSection(ctx, site, item.ID)
}

// moveOutlineItem puts a section or group right before (or, with after, right after) another
// one, into the anchor's parent, and renumbers. Errors: NotFound (item or anchor), Invalid (a
// group into itself or one of its own groups).
func moveOutlineItem(ctx context.Context, tx *storage.OutlineTx, item, anchor storage.OutlineItem, after bool) error {
	t := siteTree{tx.Outline}
	if !t.has(item) || !t.has(anchor) {
		return apperr.NotFoundf("section or section group not found on this site")
	}
	if item == anchor {
		storage.NoChange(ctx)
		return nil // before or after itself: it stays where it is
	}
	parent := t.parentOf(anchor)
	if item.Group && parent != nil && t.inside(*parent, item.ID) {
		return apperr.Invalidf("position", "a section group cannot move into itself or one of its own groups")
	}
	rest := slices.DeleteFunc(t.Children(parent), func(it storage.OutlineItem) bool { return it == item })
	at := slices.Index(rest, anchor)
	if after {
		at++
	}
	return t.relocate(ctx, tx, item, parent, at)
}

func outlineItem(p *model.StructurePointer) storage.OutlineItem {
	return storage.OutlineItem{Group: p.Type == "site-section-group", ID: p.ID}
}

// moveSiteSpace moves a site space before or after another of its section (an empty anchor: to
// the start or the end). Errors: Invalid (an anchor in another section), NotFound.
func (r *App) moveSiteSpace(ctx context.Context, site *storage.Site, id, anchor string, after bool) (*model.SiteSpace, error) {
	rows, err := r.Store.SiteSpacesOf(ctx, site.ID)
	if err != nil {
		return nil, err
	}
	find := func(id string) *storage.SiteSpace {
		if i := slices.IndexFunc(rows, func(ss *storage.SiteSpace) bool { return ss.ID == id }); i >= 0 {
			return rows[i]
		}
		return nil
	}
	item, to := find(id), find(anchor)
	if item == nil || (anchor != "" && to == nil) {
		return nil, apperr.NotFoundf("site space not found on this site")
	}
	if to != nil && deref(to.SectionID) != deref(item.SectionID) {
		return nil, apperr.Invalidf("position", "site space %q is in another section: site spaces move within their section", anchor)
	}
	if err := r.Store.MoveSiteSpace(ctx, site.ID, id, anchor, after); errors.Is(err, storage.ErrNotFound) {
		return nil, apperr.NotFoundf("site space not found on this site")
	} else if err != nil {
		return nil, err
	}
	return r.findSiteSpace(ctx, site, id)
}

// CheckVisitorCondition reports whether a condition is a valid boolean expression.
func (r *App) CheckVisitorCondition(condition string) *model.ConditionCheck {
	if err := compileCondition("condition", condition); err != nil {
		msg := apperr.Message(err)
		return &model.ConditionCheck{Valid: false, Error: &msg}
	}
	return &model.ConditionCheck{Valid: true}
}
