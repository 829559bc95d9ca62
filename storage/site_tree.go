package storage

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// SiteTree is what a read of a site shows below it: its outline, its site spaces in order, and
// the live spaces they publish (a space in the trash is absent).
type SiteTree struct {
	Outline    *SiteOutline
	SiteSpaces []*SiteSpace
	Spaces     map[string]*Space
}

// siteItem is one row of SiteTreesOf: a site space (with its space), a section or a section
// group, in one shape so that all three leave in one statement.
type siteItem struct {
	Kind           string // "site-space", "section", "group"
	ID             string
	OrganizationID string
	SiteID         string
	ParentID       *string // a site space's section, a section's group, a group's parent
	SpaceID        *string
	Title          *string
	Path           *string
	Description    *string
	Icon           *string
	Condition      *string
	IsDefault      bool
	Position       int
	CreatedAt      time.Time
	Space          Space `bun:"embed:space__"` // a site space's space; zero when in the trash
}

// SiteTreesOf returns the trees of several sites, one for every id: one statement, a UNION ALL of
// their site spaces (joined with their live spaces), sections and section groups. Reading them
// apart cost four statements, and every read of a site's structure needs all four.
func (s *Store) SiteTreesOf(ctx context.Context, siteIDs []string) (map[string]*SiteTree, error) {
	out := make(map[string]*SiteTree, len(siteIDs))
	for _, id := range siteIDs {
		out[id] = &SiteTree{Outline: &SiteOutline{}, Spaces: map[string]*Space{}}
	}
	if len(siteIDs) == 0 {
		return out, nil
	}
	ids := bun.List(siteIDs)
	spaceCols, nullCols := s.spaceColumns()
	siteSpaces := s.rdb.NewSelect().TableExpr("site_spaces AS ss").
		Join("LEFT JOIN spaces AS s ON s.id = ss.space_id AND s.deleted_at IS NULL").
		ColumnExpr("'site-space' AS kind, ss.id, ss.organization_id, ss.site_id, ss.section_id AS parent_id, ss.space_id").
		ColumnExpr(`NULL AS title, ss.path, NULL AS description, NULL AS icon, ss."condition", ss.is_default, ss.position, ss.created_at`).
		ColumnExpr(spaceCols).Where("ss.site_id IN (?)", ids)
	sections := s.rdb.NewSelect().TableExpr("site_sections AS sc").
		ColumnExpr("'section', sc.id, sc.organization_id, sc.site_id, sc.group_id, NULL").
		ColumnExpr(`sc.title, sc.path, sc.description, sc.icon, sc."condition", sc.is_default, sc.position, sc.created_at`).
		ColumnExpr(nullCols).Where("sc.site_id IN (?)", ids)
	groups := s.rdb.NewSelect().TableExpr("site_section_groups AS sg").
		ColumnExpr("'group', sg.id, sg.organization_id, sg.site_id, sg.parent_id, NULL").
		ColumnExpr("sg.title, NULL, NULL, sg.icon, NULL, ? AS is_default, sg.position, sg.created_at", false).
		ColumnExpr(nullCols).Where("sg.site_id IN (?)", ids)
	var rows []*siteItem
	if err := siteSpaces.UnionAll(sections).UnionAll(groups).Scan(ctx, &rows); err != nil {
		return nil, fmt.Errorf("site trees: %w", translate(err))
	}
	// SQLite takes no ORDER BY inside a UNION's branches: order here, as the separate reads did.
	slices.SortFunc(rows, func(a, b *siteItem) int { return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID)) })
	for _, r := range rows {
		t := out[r.SiteID]
		switch r.Kind {
		case "site-space":
			t.SiteSpaces = append(t.SiteSpaces, &SiteSpace{ID: r.ID, OrganizationID: r.OrganizationID, SiteID: r.SiteID, SpaceID: deref(r.SpaceID),
				SectionID: r.ParentID, Path: deref(r.Path), Condition: r.Condition, IsDefault: r.IsDefault, Position: r.Position, CreatedAt: r.CreatedAt})
			if r.Space.ID != "" {
				sp := r.Space
				t.Spaces[sp.ID] = &sp
			}
		case "section":
			t.Outline.Sections = append(t.Outline.Sections, &SiteSection{ID: r.ID, OrganizationID: r.OrganizationID, SiteID: r.SiteID, GroupID: r.ParentID,
				Title: deref(r.Title), Path: deref(r.Path), Description: r.Description, Icon: r.Icon, Condition: r.Condition, IsDefault: r.IsDefault,
				Position: r.Position, CreatedAt: r.CreatedAt})
		case "group":
			t.Outline.Groups = append(t.Outline.Groups, &SiteSectionGroup{ID: r.ID, OrganizationID: r.OrganizationID, SiteID: r.SiteID, ParentID: r.ParentID,
				Title: deref(r.Title), Icon: r.Icon, Position: r.Position, CreatedAt: r.CreatedAt})
		}
	}
	return out, nil
}

// spaceColumns lists the spaces table's columns as siteItem's embedded Space reads them: from
// the joined space, and as NULLs for the branches without one. Built once from the model, so a
// new column of spaces needs no change here.
func (s *Store) spaceColumns() (cols, nulls string) {
	c := &s.treeCols
	c.once.Do(func() {
		for i, f := range s.rdb.Dialect().Tables().Get(reflect.TypeFor[Space]()).Fields {
			if i > 0 {
				c.cols += ", "
				c.nulls += ", "
			}
			c.cols += fmt.Sprintf("s.%s AS space__%s", f.SQLName, f.Name)
			c.nulls += fmt.Sprintf("NULL AS space__%s", f.Name)
		}
	})
	return c.cols, c.nulls
}

// spaceColumnCache holds spaceColumns' result.
type spaceColumnCache struct {
	once        sync.Once
	cols, nulls string
}
