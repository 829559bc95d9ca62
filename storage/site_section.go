package storage

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// SiteSection groups site spaces under a path of a site.
type SiteSection struct {
	bun.BaseModel `bun:"table:site_sections,alias:sc"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	GroupID        *string // nil: at the site's root
	Title          string
	Path           string
	Description    *string
	Icon           *string
	Condition      *string
	IsDefault      bool
	Position       int // shared with the groups of the same parent
	CreatedAt      time.Time
}

// SiteSectionGroup groups sections and other groups of a site.
type SiteSectionGroup struct {
	bun.BaseModel `bun:"table:site_section_groups,alias:sg"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	ParentID       *string // nil: at the site's root
	Title          string
	Icon           *string
	Position       int // shared with the sections of the same parent
	CreatedAt      time.Time
}

// SiteSectionField is a field of a SiteSection or SiteSectionGroup that UpdateSiteSection and
// UpdateSiteSectionGroup write (a group has a title and an icon only).
type SiteSectionField uint32

// The site section fields.
const (
	SiteSectionTitle SiteSectionField = 1 << iota
	SiteSectionPath
	SiteSectionCondition
	SiteSectionIcon
	SiteSectionDescription
)

var siteSectionColumns = map[SiteSectionField][]string{
	SiteSectionTitle: {"title"}, SiteSectionPath: {"path"}, SiteSectionCondition: {"condition"},
	SiteSectionIcon: {"icon"}, SiteSectionDescription: {"description"},
}

// SiteOutline is a site's sections and section groups: each section's group and each group's
// parent (nil: the site's root), and their positions. The tree they make, its order and its rules
// are the graph's (domain/site_outline.go); storage reads and writes the rows.
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

// UpdateSiteSection writes the fields set of sec and, when defaultSiteSpace is set, makes that
// site space of the section its only default: all or nothing. Errors: ErrNotFound (section, or the
// site space in it), ErrConflict (path taken).
func (s *Store) UpdateSiteSection(ctx context.Context, sec *SiteSection, set SiteSectionField, defaultSiteSpace *string) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if set != 0 {
			res, err := tx.NewUpdate().Model(sec).Column(columnsOf(set, siteSectionColumns)...).WherePK().Where("site_id = ?", sec.SiteID).Exec(ctx)
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

// UpdateSiteSectionGroup writes the fields set of g: its title and icon (other fields are
// refused). Errors: ErrNotFound.
func (s *Store) UpdateSiteSectionGroup(ctx context.Context, g *SiteSectionGroup, set SiteSectionField) error {
	if set&^(SiteSectionTitle|SiteSectionIcon) != 0 {
		return fmt.Errorf("update site section group %s: a group has a title and an icon only", g.ID)
	}
	if set == 0 {
		return nil
	}
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(g).Column(columnsOf(set, siteSectionColumns)...).WherePK().Where("site_id = ?", g.SiteID)
	})
	if err != nil {
		return fmt.Errorf("update site section group %s: %w", g.ID, translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// OutlineTx is a site's outline being changed: read under the site's lock, with the writes that
// change it, each keeping Outline in step.
type OutlineTx struct {
	tx      bun.Tx
	siteID  string
	Outline *SiteOutline
}

// EditSiteOutline runs fn, which changes a site's outline, in one transaction under the site's
// lock: two changes racing apply one after the other, never mixed. Errors: fn's own.
func (s *Store) EditSiteOutline(ctx context.Context, siteID string, fn func(ctx context.Context, o *OutlineTx) error) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		return fn(ctx, &OutlineTx{tx: tx, siteID: siteID, Outline: o})
	})
}

// InsertSection stores a new section of the site (with a new id when it has none).
// Errors: ErrConflict (its path is taken).
func (o *OutlineTx) InsertSection(ctx context.Context, sec *SiteSection) error {
	sec.ID, sec.SiteID = cmp.Or(sec.ID, NewID()), o.siteID
	if _, err := o.tx.NewInsert().Model(sec).Exec(ctx); err != nil {
		return fmt.Errorf("create site section: %w", translate(err))
	}
	o.Outline.Sections = append(o.Outline.Sections, sec)
	return nil
}

// InsertSiteSpace stores a new site space of the site (with a new id when it has none).
// Errors: ErrConflict (its path is taken).
func (o *OutlineTx) InsertSiteSpace(ctx context.Context, ss *SiteSpace) error {
	ss.ID, ss.SiteID = cmp.Or(ss.ID, NewID()), o.siteID
	if _, err := o.tx.NewInsert().Model(ss).Exec(ctx); err != nil {
		return fmt.Errorf("create site space: %w", translate(err))
	}
	return nil
}

// RootSiteSpaces counts the site's site spaces outside every section.
func (o *OutlineTx) RootSiteSpaces(ctx context.Context) (int64, error) {
	n, err := o.tx.NewSelect().Model((*SiteSpace)(nil)).Where("ss.site_id = ? AND ss.section_id IS NULL", o.siteID).Count(ctx)
	return n, translate(err)
}

// MoveRootSiteSpaces moves the site's site spaces outside every section into one, in their order.
func (o *OutlineTx) MoveRootSiteSpaces(ctx context.Context, sectionID string) error {
	if _, err := o.tx.NewUpdate().Model((*SiteSpace)(nil)).Set("section_id = ?", sectionID).Where("site_id = ? AND section_id IS NULL", o.siteID).Exec(ctx); err != nil {
		return fmt.Errorf("move root site spaces: %w", translate(err))
	}
	return nil
}

// DeleteSection removes a section with its site spaces.
func (o *OutlineTx) DeleteSection(ctx context.Context, id string) error {
	if _, err := o.tx.NewDelete().Model((*SiteSpace)(nil)).Where("site_id = ? AND section_id = ?", o.siteID, id).Exec(ctx); err != nil {
		return fmt.Errorf("delete site section: %w", translate(err))
	}
	if _, err := o.tx.NewDelete().Model((*SiteSection)(nil)).Where("site_id = ? AND id = ?", o.siteID, id).Exec(ctx); err != nil {
		return fmt.Errorf("delete site section: %w", translate(err))
	}
	o.Outline.Sections = slices.DeleteFunc(o.Outline.Sections, func(s *SiteSection) bool { return s.ID == id })
	return nil
}

// SetDefaultSection makes a section the site's only default. Errors: ErrNotFound.
func (o *OutlineTx) SetDefaultSection(ctx context.Context, id string) error {
	return setDefaultSiteSection(ctx, o.tx, o.siteID, id)
}

// InsertGroup stores a new section group of the site (with a new id when it has none).
func (o *OutlineTx) InsertGroup(ctx context.Context, g *SiteSectionGroup) error {
	g.ID, g.SiteID = cmp.Or(g.ID, NewID()), o.siteID
	if _, err := o.tx.NewInsert().Model(g).Exec(ctx); err != nil {
		return fmt.Errorf("create site section group: %w", translate(err))
	}
	o.Outline.Groups = append(o.Outline.Groups, g)
	return nil
}

// DeleteGroup removes a section group (what it holds must have moved out first).
func (o *OutlineTx) DeleteGroup(ctx context.Context, id string) error {
	if _, err := o.tx.NewDelete().Model((*SiteSectionGroup)(nil)).Where("site_id = ? AND id = ?", o.siteID, id).Exec(ctx); err != nil {
		return fmt.Errorf("delete site section group: %w", translate(err))
	}
	o.Outline.Groups = slices.DeleteFunc(o.Outline.Groups, func(g *SiteSectionGroup) bool { return g.ID == id })
	return nil
}

// Place puts a section or group of the outline at position in parent (nil: the root).
// Errors: ErrNotFound (not in the outline).
func (o *OutlineTx) Place(ctx context.Context, it OutlineItem, parent *string, position int) error {
	var q *bun.UpdateQuery
	if it.Group {
		g := o.Outline.Group(it.ID)
		if g == nil {
			return ErrNotFound
		}
		g.ParentID, g.Position = parent, position
		q = o.tx.NewUpdate().Model(g).Column("parent_id", "position").WherePK()
	} else {
		sec := o.Outline.Section(it.ID)
		if sec == nil {
			return ErrNotFound
		}
		sec.GroupID, sec.Position = parent, position
		q = o.tx.NewUpdate().Model(sec).Column("group_id", "position").WherePK()
	}
	if _, err := q.Exec(ctx); err != nil {
		return fmt.Errorf("place in site outline: %w", translate(err))
	}
	return nil
}
