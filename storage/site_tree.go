package storage

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
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
	rows, err := s.rdb.QueryContext(ctx, s.siteTreeSQL(), bun.List(siteIDs), bun.List(siteIDs), bun.List(siteIDs))
	if err != nil {
		return nil, fmt.Errorf("site trees: %w", translate(err))
	}
	defer rows.Close()
	items, err := scanSiteItems(rows)
	if err != nil {
		return nil, fmt.Errorf("site trees: %w", translate(err))
	}
	// SQLite takes no ORDER BY inside a UNION's branches: order here, as the separate reads did.
	slices.SortFunc(items, func(a, b *siteItem) int { return cmp.Or(cmp.Compare(a.position, b.position), cmp.Compare(a.id, b.id)) })
	for _, r := range items {
		t := out[r.siteID]
		switch r.kind {
		case "site-space":
			t.SiteSpaces = append(t.SiteSpaces, &SiteSpace{ID: r.id, OrganizationID: r.orgID, SiteID: r.siteID, SpaceID: deref(r.spaceID),
				SectionID: r.parentID, Path: deref(r.path), Condition: r.condition, IsDefault: r.isDefault, Position: r.position, CreatedAt: r.createdAt})
			if r.space != nil {
				t.Spaces[r.space.ID] = r.space
			}
		case "section":
			t.Outline.Sections = append(t.Outline.Sections, &SiteSection{ID: r.id, OrganizationID: r.orgID, SiteID: r.siteID, GroupID: r.parentID,
				Title: deref(r.title), Path: deref(r.path), Description: r.description, Icon: r.icon, Condition: r.condition, IsDefault: r.isDefault,
				Position: r.position, CreatedAt: r.createdAt})
		case "group":
			t.Outline.Groups = append(t.Outline.Groups, &SiteSectionGroup{ID: r.id, OrganizationID: r.orgID, SiteID: r.siteID, ParentID: r.parentID,
				Title: deref(r.title), Icon: r.icon, Position: r.position, CreatedAt: r.createdAt})
		}
	}
	return out, rows.Err()
}

// siteItem is one row of SiteTreesOf: a site space (with its live space, if any), a section or a
// section group, in one shape so that all three leave in one statement.
type siteItem struct {
	kind, id, orgID, siteID string  // kind: "site-space", "section", "group"
	parentID                *string // a site space's section, a section's group, a group's parent
	spaceID                 *string
	title, path             *string
	description, icon       *string
	condition               *string
	isDefault               bool
	position                int
	createdAt               time.Time
	space                   *Space
}

// A site read scans a thousand rows, so they are scanned by hand: Bun's scan looked every column
// up by name and reflected on the model, a fifth of a nested site read's CPU on PostgreSQL.
// treeSpaceColumns are the spaces table's columns in the model's order;
// TestSiteTreeColumnsAreTheModels fails when the model gains one they lack.
var treeSpaceColumns = []string{"id", "organization_id", "collection_id", "title", "emoji", "icon_url", "edit_mode", "language",
	"default_level", "merge_rules", "revision_id", "revision_seq", "is_template", "git_sync", "created_at", "updated_at", "deleted_at"}

// siteTreeSQL is SiteTreesOf's statement, built once: three branches with the same columns, the
// site's items then the space's (NULL outside a site space, and for a space in the trash).
func (s *Store) siteTreeSQL() string {
	s.treeSQL.once.Do(func() {
		col := func(alias, c string) string {
			if s.dialect == SQLite && strings.HasSuffix(c, "_at") {
				return "CAST(" + alias + "." + c + " AS TEXT)" // parsed by timeScan: see timeColumns
			}
			return alias + "." + c
		}
		var spaces, nulls []string
		for _, c := range treeSpaceColumns {
			spaces, nulls = append(spaces, col("s", c)), append(nulls, "NULL")
		}
		s.treeSQL.text = fmt.Sprintf(`SELECT 'site-space', ss.id, ss.organization_id, ss.site_id, ss.section_id, ss.space_id, NULL, ss.path, NULL, NULL, ss."condition", ss.is_default, ss.position, %s, %s
FROM site_spaces AS ss LEFT JOIN spaces AS s ON s.id = ss.space_id AND s.deleted_at IS NULL WHERE ss.site_id IN (?)
UNION ALL SELECT 'section', sc.id, sc.organization_id, sc.site_id, sc.group_id, NULL, sc.title, sc.path, sc.description, sc.icon, sc."condition", sc.is_default, sc.position, %s, %s
FROM site_sections AS sc WHERE sc.site_id IN (?)
UNION ALL SELECT 'group', sg.id, sg.organization_id, sg.site_id, sg.parent_id, NULL, sg.title, NULL, NULL, sg.icon, NULL, FALSE, sg.position, %s, %s
FROM site_section_groups AS sg WHERE sg.site_id IN (?)`,
			col("ss", "created_at"), strings.Join(spaces, ", "), col("sc", "created_at"), strings.Join(nulls, ", "), col("sg", "created_at"), strings.Join(nulls, ", "))
	})
	return s.treeSQL.text
}

// siteTreeSQLCache holds siteTreeSQL's text.
type siteTreeSQLCache struct {
	once sync.Once
	text string
}

// scanSiteItems scans siteTreeSQL's rows, in its columns' order.
func scanSiteItems(rows *sql.Rows) ([]*siteItem, error) {
	var items []*siteItem
	for rows.Next() {
		it, sp := &siteItem{}, &Space{}
		if err := rows.Scan(textScan{&it.kind}, textScan{&it.id}, textScan{&it.orgID}, textScan{&it.siteID}, optTextScan{&it.parentID},
			optTextScan{&it.spaceID}, optTextScan{&it.title}, optTextScan{&it.path}, optTextScan{&it.description}, optTextScan{&it.icon},
			optTextScan{&it.condition}, boolScan{&it.isDefault}, intScan{&it.position}, timeScan{&it.createdAt},
			textScan{&sp.ID}, textScan{&sp.OrganizationID}, optTextScan{&sp.CollectionID}, textScan{&sp.Title}, textScan{&sp.Emoji},
			optTextScan{&sp.IconURL}, textScan{&sp.EditMode}, optTextScan{&sp.Language}, optTextScan{&sp.DefaultLevel}, textScan{&sp.MergeRules},
			textScan{&sp.RevisionID}, int64Scan{&sp.RevisionSeq}, boolScan{&sp.IsTemplate}, optTextScan{&sp.GitSync},
			timeScan{&sp.CreatedAt}, timeScan{&sp.UpdatedAt}, nullTimeScan{&sp.DeletedAt}); err != nil {
			return nil, err
		}
		if sp.ID != "" {
			it.space = sp
		}
		items = append(items, it)
	}
	return items, nil
}
