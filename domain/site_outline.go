package domain

import (
	"cmp"
	"context"
	"slices"

	"github.com/bindery/bindery/storage"
)

// siteTree is a site's outline as a tree: sections and section groups, each in a group or at the
// root. Sections and groups of one parent share one position space. Its order and the moves that
// keep it whole are decided here; storage reads and writes the rows (storage.EditSiteOutline).
type siteTree struct{ *storage.SiteOutline }

// place is where an item of the outline sits: its parent group (nil: the root) and position.
func (t siteTree) place(it storage.OutlineItem) (parent *string, position int) {
	if it.Group {
		g := t.Group(it.ID)
		return g.ParentID, g.Position
	}
	s := t.Section(it.ID)
	return s.GroupID, s.Position
}

// has reports whether the outline holds it.
func (t siteTree) has(it storage.OutlineItem) bool {
	if it.Group {
		return t.Group(it.ID) != nil
	}
	return t.Section(it.ID) != nil
}

// parentOf returns the group an item of the outline is in; nil at the root.
func (t siteTree) parentOf(it storage.OutlineItem) *string {
	parent, _ := t.place(it)
	return parent
}

// Children lists a parent's items (nil: the root's) in order: by position, then sections before
// groups, then id, so that the order is total.
func (t siteTree) Children(parent *string) []storage.OutlineItem {
	type keyed struct {
		it  storage.OutlineItem
		pos int
	}
	var all []keyed
	for _, s := range t.Sections {
		if sameParent(s.GroupID, parent) {
			all = append(all, keyed{storage.OutlineItem{ID: s.ID}, s.Position})
		}
	}
	for _, g := range t.Groups {
		if sameParent(g.ParentID, parent) {
			all = append(all, keyed{storage.OutlineItem{Group: true, ID: g.ID}, g.Position})
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
	out := make([]storage.OutlineItem, len(all))
	for i, k := range all {
		out[i] = k.it
	}
	return out
}

// Walk lists every item depth first, in reading order: a group comes right before its children.
func (t siteTree) Walk() []storage.OutlineItem {
	var out []storage.OutlineItem
	var walk func(parent *string)
	walk = func(parent *string) {
		for _, it := range t.Children(parent) {
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
func (t siteTree) nextPosition(parent *string) int {
	next := 0
	for _, it := range t.Children(parent) {
		_, pos := t.place(it)
		next = max(next, pos+1)
	}
	return next
}

// inside reports whether group is ancestor or one of its groups, at any depth.
func (t siteTree) inside(group, ancestor string) bool {
	for id := &group; id != nil; {
		if *id == ancestor {
			return true
		}
		g := t.Group(*id)
		if g == nil {
			return false
		}
		id = g.ParentID
	}
	return false
}

// relocate moves an item to index at of parent's other items (-1: the end), renumbering the
// parents it leaves and joins.
func (t siteTree) relocate(ctx context.Context, tx *storage.OutlineTx, it storage.OutlineItem, parent *string, at int) error {
	from := t.parentOf(it)
	dest := slices.DeleteFunc(t.Children(parent), func(x storage.OutlineItem) bool { return x == it })
	if at < 0 || at > len(dest) {
		at = len(dest)
	}
	dest = slices.Insert(dest, at, it)
	if !sameParent(from, parent) {
		left := slices.DeleteFunc(t.Children(from), func(x storage.OutlineItem) bool { return x == it })
		if err := t.renumber(ctx, tx, from, left); err != nil {
			return err
		}
	}
	return t.renumber(ctx, tx, parent, dest)
}

// renumber makes items the children of parent in that order, writing only what changed.
func (t siteTree) renumber(ctx context.Context, tx *storage.OutlineTx, parent *string, items []storage.OutlineItem) error {
	for i, it := range items {
		if was, pos := t.place(it); pos == i && sameParent(was, parent) {
			continue
		}
		if err := tx.Place(ctx, it, parent, i); err != nil {
			return err
		}
	}
	return nil
}
