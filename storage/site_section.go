package storage

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/uptrace/bun"
)

// SiteOutline is a site's sections and section groups. Sections and groups of one parent (a group,
// or the root) share one position space; Children gives a parent's items in order.
type SiteOutline struct {
	Sections []*SiteSection
	Groups   []*SiteSectionGroup
}

// OutlineItem names a section or a section group of a site's outline.
type OutlineItem struct {
	Group bool
	ID    string
}

// Section returns the outline's section id, or nil.
func (o *SiteOutline) Section(id string) *SiteSection {
	if i := slices.IndexFunc(o.Sections, func(s *SiteSection) bool { return s.ID == id }); i >= 0 {
		return o.Sections[i]
	}
	return nil
}

// Group returns the outline's group id, or nil.
func (o *SiteOutline) Group(id string) *SiteSectionGroup {
	if i := slices.IndexFunc(o.Groups, func(g *SiteSectionGroup) bool { return g.ID == id }); i >= 0 {
		return o.Groups[i]
	}
	return nil
}

// Has reports whether the outline holds it.
func (o *SiteOutline) Has(it OutlineItem) bool {
	if it.Group {
		return o.Group(it.ID) != nil
	}
	return o.Section(it.ID) != nil
}

// place is where an item of the outline sits: its parent group (nil: the root) and position.
func (o *SiteOutline) place(it OutlineItem) (parent *string, position int) {
	if it.Group {
		g := o.Group(it.ID)
		return g.ParentID, g.Position
	}
	s := o.Section(it.ID)
	return s.GroupID, s.Position
}

// ParentOf returns the group an item of the outline is in; nil at the root.
func (o *SiteOutline) ParentOf(it OutlineItem) *string {
	parent, _ := o.place(it)
	return parent
}

// Children lists a parent's items (nil: the root's) in order: by position, then sections before
// groups, then id, so that the order is total.
func (o *SiteOutline) Children(parent *string) []OutlineItem {
	type keyed struct {
		it  OutlineItem
		pos int
	}
	var all []keyed
	for _, s := range o.Sections {
		if sameParent(s.GroupID, parent) {
			all = append(all, keyed{OutlineItem{ID: s.ID}, s.Position})
		}
	}
	for _, g := range o.Groups {
		if sameParent(g.ParentID, parent) {
			all = append(all, keyed{OutlineItem{Group: true, ID: g.ID}, g.Position})
		}
	}
	slices.SortFunc(all, func(a, b keyed) int {
		if c := cmp.Compare(a.pos, b.pos); c != 0 {
			return c
		}
		if a.it.Group != b.it.Group {
			if a.it.Group {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.it.ID, b.it.ID)
	})
	out := make([]OutlineItem, len(all))
	for i, k := range all {
		out[i] = k.it
	}
	return out
}

// Walk lists every item depth first, in reading order: a group comes right before its children.
func (o *SiteOutline) Walk() []OutlineItem {
	var out []OutlineItem
	var walk func(parent *string)
	walk = func(parent *string) {
		for _, it := range o.Children(parent) {
			out = append(out, it)
			if it.Group {
				walk(&it.ID)
			}
		}
	}
	walk(nil)
	return out
}

func sameParent(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// nextPosition is a position after every item of parent.
func (o *SiteOutline) nextPosition(parent *string) int {
	next := 0
	for _, it := range o.Children(parent) {
		_, pos := o.place(it)
		next = max(next, pos+1)
	}
	return next
}

func siteOutline(ctx context.Context, db bun.IDB, siteIDs []string) (map[string]*SiteOutline, error) {
	out := make(map[string]*SiteOutline, len(siteIDs))
	for _, id := range siteIDs {
		out[id] = &SiteOutline{}
	}
	if len(siteIDs) == 0 {
		return out, nil
	}
	var sections []*SiteSection
	if err := db.NewSelect().Model(&sections).Where("sc.site_id IN (?)", bun.List(siteIDs)).OrderExpr("sc.position ASC, sc.id ASC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("site sections: %w", translate(err))
	}
	var groups []*SiteSectionGroup
	if err := db.NewSelect().Model(&groups).Where("sg.site_id IN (?)", bun.List(siteIDs)).OrderExpr("sg.position ASC, sg.id ASC").Scan(ctx); err != nil {
		return nil, fmt.Errorf("site section groups: %w", translate(err))
	}
	for _, s := range sections {
		out[s.SiteID].Sections = append(out[s.SiteID].Sections, s)
	}
	for _, g := range groups {
		out[g.SiteID].Groups = append(out[g.SiteID].Groups, g)
	}
	return out, nil
}

// SiteOutlineOf returns one site's outline, read afresh.
func (s *Store) SiteOutlineOf(ctx context.Context, siteID string) (*SiteOutline, error) {
	all, err := siteOutline(ctx, s.rdb, []string{siteID})
	if err != nil {
		return nil, err
	}
	return all[siteID], nil
}

// lockedOutline locks the site (see lockSite) and reads its outline in the transaction.
func (s *Store) lockedOutline(ctx context.Context, tx bun.Tx, siteID string) (*SiteOutline, error) {
	if err := s.lockSite(ctx, tx, siteID); err != nil {
		return nil, err
	}
	all, err := siteOutline(ctx, tx, []string{siteID})
	if err != nil {
		return nil, err
	}
	return all[siteID], nil
}

// CreateSiteSection adds a section at the end of the site's root, with first as its first (and
// default) site space. While the site has no section, a site space at its root would be left
// outside every section: wrap, when given, then becomes the site's default section and takes the
// root site spaces, in their order, ahead of the new section. The first section of a site is its
// default. Errors: ErrConflict (a path is taken).
func (s *Store) CreateSiteSection(ctx context.Context, sec *SiteSection, first *SiteSpace, wrap *SiteSection) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, sec.SiteID)
		if err != nil {
			return err
		}
		if len(o.Sections) == 0 && wrap != nil {
			if err := s.wrapRootSiteSpaces(ctx, tx, o, wrap); err != nil {
				return err
			}
		}
		sec.ID = cmp.Or(sec.ID, NewID())
		sec.Position, sec.IsDefault = o.nextPosition(nil), len(o.Sections) == 0
		if _, err := tx.NewInsert().Model(sec).Exec(ctx); err != nil {
			return fmt.Errorf("create site section: %w", translate(err))
		}
		first.ID = cmp.Or(first.ID, NewID())
		first.SiteID, first.SectionID, first.Position, first.IsDefault = sec.SiteID, &sec.ID, 0, true
		if _, err := tx.NewInsert().Model(first).Exec(ctx); err != nil {
			return fmt.Errorf("create site section: %w", translate(err))
		}
		return nil
	})
}

// wrapRootSiteSpaces moves the site spaces at a site's root into wrap, a new default section.
func (s *Store) wrapRootSiteSpaces(ctx context.Context, tx bun.Tx, o *SiteOutline, wrap *SiteSection) error {
	n, err := tx.NewSelect().Model((*SiteSpace)(nil)).Where("ss.site_id = ? AND ss.section_id IS NULL", wrap.SiteID).Count(ctx)
	if err != nil || n == 0 {
		return translate(err)
	}
	wrap.ID = cmp.Or(wrap.ID, NewID())
	wrap.Position, wrap.IsDefault = o.nextPosition(nil), true
	if _, err := tx.NewInsert().Model(wrap).Exec(ctx); err != nil {
		return fmt.Errorf("wrap root site spaces: %w", translate(err))
	}
	if _, err := tx.NewUpdate().Model((*SiteSpace)(nil)).Set("section_id = ?", wrap.ID).Where("site_id = ? AND section_id IS NULL", wrap.SiteID).Exec(ctx); err != nil {
		return fmt.Errorf("wrap root site spaces: %w", translate(err))
	}
	o.Sections = append(o.Sections, wrap)
	return nil
}

// UpdateSiteSection writes the named columns and, when defaultSiteSpace is set, makes that site
// space of the section its only default: all or nothing. Errors: ErrNotFound (section, or the site
// space in it), ErrConflict (path taken).
func (s *Store) UpdateSiteSection(ctx context.Context, sec *SiteSection, columns []string, defaultSiteSpace *string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if len(columns) > 0 {
			res, err := tx.NewUpdate().Model(sec).Column(columns...).WherePK().Where("site_id = ?", sec.SiteID).Exec(ctx)
			if err != nil {
				return fmt.Errorf("update site section %s: %w", sec.ID, translate(err))
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return ErrNotFound
			}
		}
		if defaultSiteSpace == nil {
			return nil
		}
		return setDefaultSiteSpace(ctx, tx, sec.SiteID, *defaultSiteSpace, &sec.ID)
	})
}

// DeleteSiteSection removes a section with its site spaces. When it was the default, the first
// remaining section in reading order becomes the default. It reports whether it existed.
func (s *Store) DeleteSiteSection(ctx context.Context, siteID, id string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		sec := o.Section(id)
		if sec == nil {
			return nil
		}
		removed = true
		if _, err := tx.NewDelete().Model((*SiteSpace)(nil)).Where("site_id = ? AND section_id = ?", siteID, id).Exec(ctx); err != nil {
			return fmt.Errorf("delete site section: %w", translate(err))
		}
		if _, err := tx.NewDelete().Model((*SiteSection)(nil)).Where("site_id = ? AND id = ?", siteID, id).Exec(ctx); err != nil {
			return fmt.Errorf("delete site section: %w", translate(err))
		}
		o.Sections = slices.DeleteFunc(o.Sections, func(s *SiteSection) bool { return s.ID == id })
		if !sec.IsDefault {
			return nil
		}
		for _, it := range o.Walk() {
			if !it.Group {
				return setDefaultSiteSection(ctx, tx, siteID, it.ID)
			}
		}
		return nil
	})
	return removed, err
}

// setDefaultSiteSection makes id the site's only default section. Errors: ErrNotFound when id is
// not a section of the site.
func setDefaultSiteSection(ctx context.Context, tx bun.Tx, siteID, id string) error {
	exists, err := tx.NewSelect().Model((*SiteSection)(nil)).Where("sc.site_id = ? AND sc.id = ?", siteID, id).Exists(ctx)
	if err != nil {
		return translate(err)
	}
	if !exists {
		return ErrNotFound
	}
	_, err = tx.NewUpdate().Model((*SiteSection)(nil)).Set("is_default = (id = ?)", id).Where("site_id = ?", siteID).Exec(ctx)
	return translate(err)
}

// CreateSiteSectionGroup adds a group at the end of its parent (nil: the root) and moves the given
// sections into it, in that order. Errors: ErrNotFound (the parent or a section).
func (s *Store) CreateSiteSectionGroup(ctx context.Context, g *SiteSectionGroup, sections []string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, g.SiteID)
		if err != nil {
			return err
		}
		if g.ParentID != nil && o.Group(*g.ParentID) == nil {
			return ErrNotFound
		}
		g.ID = cmp.Or(g.ID, NewID())
		g.Position = o.nextPosition(g.ParentID)
		if _, err := tx.NewInsert().Model(g).Exec(ctx); err != nil {
			return fmt.Errorf("create site section group: %w", translate(err))
		}
		o.Groups = append(o.Groups, g)
		for _, id := range sections {
			if o.Section(id) == nil {
				return ErrNotFound
			}
			if err := relocate(ctx, tx, o, OutlineItem{ID: id}, &g.ID, -1); err != nil {
				return err
			}
		}
		return nil
	})
}

// UpdateSiteSectionGroup writes the named columns. Errors: ErrNotFound.
func (s *Store) UpdateSiteSectionGroup(ctx context.Context, g *SiteSectionGroup, columns []string) error {
	if len(columns) == 0 {
		return nil
	}
	res, err := s.db.NewUpdate().Model(g).Column(columns...).WherePK().Where("site_id = ?", g.SiteID).Exec(ctx)
	if err != nil {
		return fmt.Errorf("update site section group %s: %w", g.ID, translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteSiteSectionGroup removes a group; its sections and groups move up to its parent, where
// they take its place. It reports whether it existed.
func (s *Store) DeleteSiteSectionGroup(ctx context.Context, siteID, id string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		g := o.Group(id)
		if g == nil {
			return nil
		}
		removed = true
		siblings := o.Children(g.ParentID)
		at := slices.Index(siblings, OutlineItem{Group: true, ID: id})
		order := slices.Concat(siblings[:at], o.Children(&id), siblings[at+1:])
		if err := renumber(ctx, tx, o, g.ParentID, order); err != nil {
			return err
		}
		_, err = tx.NewDelete().Model((*SiteSectionGroup)(nil)).Where("site_id = ? AND id = ?", siteID, id).Exec(ctx)
		return translate(err)
	})
	return removed, err
}

// AddSectionToGroup moves a section to the end of a group; a section already in it stays where it
// is. Errors: ErrNotFound (the group or the section).
func (s *Store) AddSectionToGroup(ctx context.Context, siteID, groupID, sectionID string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		sec := o.Section(sectionID)
		if o.Group(groupID) == nil || sec == nil {
			return ErrNotFound
		}
		if sameParent(sec.GroupID, &groupID) {
			return nil
		}
		return relocate(ctx, tx, o, OutlineItem{ID: sectionID}, &groupID, -1)
	})
}

// RemoveSectionFromGroup moves a section of a group up to the group's parent, right after the
// group. It reports whether the section was in the group.
func (s *Store) RemoveSectionFromGroup(ctx context.Context, siteID, groupID, sectionID string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		sec, g := o.Section(sectionID), o.Group(groupID)
		if sec == nil || g == nil || !sameParent(sec.GroupID, &groupID) {
			return nil
		}
		removed = true
		at := slices.Index(o.Children(g.ParentID), OutlineItem{Group: true, ID: groupID})
		return relocate(ctx, tx, o, OutlineItem{ID: sectionID}, g.ParentID, at+1)
	})
	return removed, err
}

// MoveOutlineItem puts a section or group right before (or, with after, right after) another
// one, into the anchor's parent, and renumbers in the same transaction under the site's lock: two
// moves racing give one order or the other, never a mix. Errors: ErrNotFound (item or anchor),
// ErrCycle (a group into itself or one of its own groups).
func (s *Store) MoveOutlineItem(ctx context.Context, siteID string, item, anchor OutlineItem, after bool) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		if !o.Has(item) || !o.Has(anchor) {
			return ErrNotFound
		}
		if item == anchor {
			return nil // before or after itself: it stays where it is
		}
		parent := o.ParentOf(anchor)
		if item.Group && parent != nil && o.inside(*parent, item.ID) {
			return ErrCycle
		}
		rest := slices.DeleteFunc(o.Children(parent), func(it OutlineItem) bool { return it == item })
		at := slices.Index(rest, anchor)
		if after {
			at++
		}
		return relocate(ctx, tx, o, item, parent, at)
	})
}

// inside reports whether group is ancestor or one of its groups, at any depth.
func (o *SiteOutline) inside(group, ancestor string) bool {
	for id := &group; id != nil; {
		if *id == ancestor {
			return true
		}
		g := o.Group(*id)
		if g == nil {
			return false
		}
		id = g.ParentID
	}
	return false
}

// relocate moves an item to index at of parent's other items (-1: the end), renumbering the
// parents it leaves and joins.
func relocate(ctx context.Context, tx bun.Tx, o *SiteOutline, it OutlineItem, parent *string, at int) error {
	from := o.ParentOf(it)
	dest := slices.DeleteFunc(o.Children(parent), func(x OutlineItem) bool { return x == it })
	if at < 0 || at > len(dest) {
		at = len(dest)
	}
	dest = slices.Insert(dest, at, it)
	if !sameParent(from, parent) {
		left := slices.DeleteFunc(o.Children(from), func(x OutlineItem) bool { return x == it })
		if err := renumber(ctx, tx, o, from, left); err != nil {
			return err
		}
	}
	return renumber(ctx, tx, o, parent, dest)
}

// renumber makes items the children of parent in that order, writing only what changed.
func renumber(ctx context.Context, tx bun.Tx, o *SiteOutline, parent *string, items []OutlineItem) error {
	for i, it := range items {
		was, pos := o.place(it)
		if pos == i && sameParent(was, parent) {
			continue
		}
		var q *bun.UpdateQuery
		if it.Group {
			g := o.Group(it.ID)
			g.ParentID, g.Position = parent, i
			q = tx.NewUpdate().Model(g).Column("parent_id", "position").WherePK()
		} else {
			sec := o.Section(it.ID)
			sec.GroupID, sec.Position = parent, i
			q = tx.NewUpdate().Model(sec).Column("group_id", "position").WherePK()
		}
		if _, err := q.Exec(ctx); err != nil {
			return fmt.Errorf("renumber site outline: %w", translate(err))
		}
	}
	return nil
}
