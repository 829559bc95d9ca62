package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// Site publishes spaces to readers.
type Site struct {
	bun.BaseModel `bun:"table:sites,alias:si"`

	ID              string `bun:"id,pk"`
	OrganizationID  string
	Title           string
	TitleKey        string // the folded title that title filters match
	Type            string
	Visibility      string
	Basename        *string
	AgentsContext   string
	AdaptiveContent bool
	// Unpublished is set when the site's managers unpublished it: the reader answers it as absent.
	Unpublished bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// SiteSpaces is counted by the queries that read sites.
	SiteSpaces int `bun:",scanonly"`
	// Hostname is the site's own host name once its DNS points here, read with it.
	Hostname *string `bun:",scanonly"`
}

// SiteSpace publishes one space on a site, at a path.
type SiteSpace struct {
	bun.BaseModel `bun:"table:site_spaces,alias:ss"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	SpaceID        string
	// SectionID is the section the site space belongs to; nil at the root of a site without
	// sections.
	SectionID *string
	Path      string
	Condition *string
	// IsDefault marks the default site space of its section (or of the site without sections).
	IsDefault bool
	// Position orders the site spaces of one section (or of the root).
	Position  int
	CreatedAt time.Time
}

// ShareLink publishes a site to whoever holds its key.
type ShareLink struct {
	bun.BaseModel `bun:"table:site_share_links,alias:sl"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	Name           string
	ShareKey       string
	Active         bool
	CreatedAt      time.Time
}

// SiteField is a field of a Site that UpdateSite writes.
type SiteField uint32

// The site fields. SiteTitle also writes the title's folded form, which site lists sort by.
const (
	SiteTitle SiteField = 1 << iota
	SiteVisibility
	SiteBasename
	SiteAdaptiveContent
	SiteAgentsContext
)

var siteColumns = map[SiteField][]string{
	SiteTitle: {"title", "title_key"}, SiteVisibility: {"visibility"}, SiteBasename: {"basename"},
	SiteAdaptiveContent: {"adaptive_content"}, SiteAgentsContext: {"agents_context"},
}

// SiteSpaceField is a field of a SiteSpace that UpdateSiteSpace writes.
type SiteSpaceField uint32

// The site space fields.
const (
	SiteSpacePath SiteSpaceField = 1 << iota
	SiteSpaceCondition
	SiteSpaceSpace
)

var siteSpaceColumns = map[SiteSpaceField][]string{
	SiteSpacePath: {"path"}, SiteSpaceCondition: {"condition"}, SiteSpaceSpace: {"space_id"},
}

// ShareLinkField is a field of a ShareLink that UpdateShareLink writes.
type ShareLinkField uint32

// The share link fields.
const (
	ShareLinkActive ShareLinkField = 1 << iota
	ShareLinkName
)

var shareLinkColumns = map[ShareLinkField][]string{ShareLinkActive: {"active"}, ShareLinkName: {"name"}}

// withSiteCounts selects a site's columns with its number of site spaces and its active host
// name: one statement a page.
func withSiteCounts(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr("si.*").ColumnExpr("(SELECT COUNT(*) FROM site_spaces AS c WHERE c.site_id = si.id) AS site_spaces").
		ColumnExpr("(SELECT h.hostname FROM site_hostnames AS h WHERE h.site_id = si.id AND h.active) AS hostname")
}

// CreateSite inserts a site.
func (s *Store) CreateSite(ctx context.Context, site *Site) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if site.ID == "" {
			site.ID = NewID()
		}
		site.TitleKey = fold(site.Title)
		if _, err := db.NewInsert().Model(site).Exec(ctx); err != nil {
			return fmt.Errorf("create site: %w", translate(err))
		}
		return nil
	})
}

// SiteFilter narrows a site list.
type SiteFilter struct {
	Title     string   // case-insensitive substring
	SpaceID   string   // sites that publish this space
	Published *bool    // sites that publish at least one space and are not unpublished (true), or not (false)
	Types     []string // sites of these types
}

// FindSites lists an organization's sites, newest first. Errors: ErrInvalidCursor.
func (s *Store) FindSites(ctx context.Context, orgID string, f SiteFilter, page Window) (List[*Site], error) {
	key := sortKey{name: "sites", column: "si.created_at", idCol: "si.id", desc: true, isTime: true}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		q = withSiteCounts(q).Where("si.organization_id = ?", orgID)
		if f.Title != "" {
			q = q.Where(`si.title_key LIKE ? ESCAPE '\'`, containsPattern(f.Title))
		}
		if f.SpaceID != "" {
			q = q.Where("EXISTS (SELECT 1 FROM site_spaces AS fs WHERE fs.site_id = si.id AND fs.space_id = ?)", f.SpaceID)
		}
		if f.Published != nil {
			published := "(NOT si.unpublished AND EXISTS (SELECT 1 FROM site_spaces AS ps WHERE ps.site_id = si.id))"
			if !*f.Published {
				published = "NOT " + published
			}
			q = q.Where(published)
		}
		if len(f.Types) > 0 {
			q = q.Where("si.type IN (?)", bun.List(f.Types))
		}
		return q
	}
	return paginate(ctx, s.rdb, key, page, filter, func(si *Site) (time.Time, string, string) { return si.CreatedAt, "", si.ID })
}

// FindSite returns one of an organization's sites. Errors: ErrNotFound.
func (s *Store) FindSite(ctx context.Context, orgID, id string) (*Site, error) {
	site := new(Site)
	if err := withSiteCounts(s.rdb.NewSelect().Model(site)).Where("si.organization_id = ? AND si.id = ?", orgID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return site, nil
}

// SiteDefaults names a site's new default site space (in its section) and default section.
type SiteDefaults struct {
	SiteSpace, Section *string
}

// UpdateSite writes the fields set of site, its update time and the defaults that are set: all
// or nothing. Errors: ErrNotFound (site, or a default not on this site), ErrConflict (basename
// taken).
func (s *Store) UpdateSite(ctx context.Context, site *Site, set SiteField, defaults SiteDefaults) error {
	if set&SiteTitle != 0 {
		site.TitleKey = fold(site.Title)
	}
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model(site).Column(append(columnsOf(set, siteColumns), "updated_at")...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update site %s: %w", site.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		if defaults.SiteSpace != nil {
			if err := setDefaultSiteSpace(ctx, tx, site.ID, *defaults.SiteSpace, nil); err != nil {
				return err
			}
		}
		if defaults.Section != nil {
			return setDefaultSiteSection(ctx, tx, site.ID, *defaults.Section)
		}
		return nil
	})
}

// DeleteSite removes a site with its site spaces and share links, and stops the organization
// pointing at it as its default content. It reports whether it existed.
func (s *Store) DeleteSite(ctx context.Context, orgID, id string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewDelete().Model((*Site)(nil)).Where("organization_id = ? AND id = ?", orgID, id).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete site: %w", translate(err))
		}
		n, _ := res.RowsAffected()
		if removed = n > 0; !removed {
			noEvent(ctx)
			return nil
		}
		_, err = tx.NewUpdate().Model((*Organization)(nil)).Set("default_content_site = NULL").
			Where("id = ? AND default_content_site = ?", orgID, id).Exec(ctx)
		return translate(err)
	})
	return removed, err
}

// lockSite serialises structure changes of one site: on PostgreSQL by locking its row; SQLite
// transactions already hold the write lock from BEGIN IMMEDIATE.
func (s *Store) lockSite(ctx context.Context, tx bun.Tx, siteID string) error {
	return s.lockRows(ctx, tx.NewSelect().Model((*Site)(nil)).Column("si.id").Where("si.id = ?", siteID))
}

// SiteSpacesOf returns a site's site spaces in order: one statement.
func (s *Store) SiteSpacesOf(ctx context.Context, siteID string) ([]*SiteSpace, error) {
	return siteSpacesOf(ctx, s.rdb, siteID)
}

func siteSpacesOf(ctx context.Context, db bun.IDB, siteID string) ([]*SiteSpace, error) {
	var out []*SiteSpace
	err := db.NewSelect().Model(&out).Where("ss.site_id = ?", siteID).OrderExpr("ss.position ASC, ss.id ASC").Scan(ctx)
	return out, translate(err)
}

// AddSiteSpaces publishes spaces on a site, each after the last site space of its section (or of
// the root). A site space without a section goes to the default section when the site has
// sections, so that none is left outside them. The first site space of a section (or of a site
// without sections) becomes its default. Errors: ErrNotFound (a section not on the site),
// ErrConflict (a path is taken).
func (s *Store) AddSiteSpaces(ctx context.Context, siteID string, add []*SiteSpace) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		o, err := s.lockedOutline(ctx, tx, siteID)
		if err != nil {
			return err
		}
		existing, err := siteSpacesOf(ctx, tx, siteID)
		if err != nil {
			return err
		}
		next := map[string]int{} // per section ("": the root), the next position
		for _, ss := range existing {
			k := deref(ss.SectionID)
			next[k] = max(next[k], ss.Position+1)
		}
		for _, ss := range add {
			if err := placeInSection(o, ss); err != nil {
				return err
			}
			ss.ID = cmp.Or(ss.ID, NewID())
			k := deref(ss.SectionID)
			_, seen := next[k]
			ss.SiteID, ss.Position, ss.IsDefault = siteID, next[k], !seen
			next[k]++
		}
		if _, err := tx.NewInsert().Model(&add).Exec(ctx); err != nil {
			return fmt.Errorf("add site spaces: %w", translate(err))
		}
		return nil
	})
}

// placeInSection checks a new site space's section, or gives it the default one when the site has
// sections. Errors: ErrNotFound.
func placeInSection(o *SiteOutline, ss *SiteSpace) error {
	if ss.SectionID != nil {
		if o.Section(*ss.SectionID) == nil {
			return ErrNotFound
		}
		return nil
	}
	for _, sec := range o.Sections {
		if sec.IsDefault {
			ss.SectionID = &sec.ID
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// UpdateSiteSpace writes the fields set of ss. Errors: ErrNotFound, ErrConflict (path taken).
func (s *Store) UpdateSiteSpace(ctx context.Context, ss *SiteSpace, set SiteSpaceField) error {
	return s.exec(ctx, func(ctx context.Context, db bun.IDB) error {
		if set == 0 {
			return nil
		}
		res, err := db.NewUpdate().Model(ss).Column(columnsOf(set, siteSpaceColumns)...).WherePK().Exec(ctx)
		if err != nil {
			return fmt.Errorf("update site space %s: %w", ss.ID, translate(err))
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return nil
	})
}

// DeleteSiteSpace removes a site space; when it was the default, the first remaining one of its
// section (in order) becomes the default. It reports whether it existed.
func (s *Store) DeleteSiteSpace(ctx context.Context, siteID, id string) (bool, error) {
	var removed bool
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := s.lockSite(ctx, tx, siteID); err != nil {
			return err
		}
		gone := new(SiteSpace)
		err := tx.NewSelect().Model(gone).Where("ss.site_id = ? AND ss.id = ?", siteID, id).Scan(ctx)
		if err = translate(err); err != nil {
			if errors.Is(err, ErrNotFound) {
				noEvent(ctx)
				return nil
			}
			return err
		}
		removed = true
		if _, err := tx.NewDelete().Model((*SiteSpace)(nil)).Where("site_id = ? AND id = ?", siteID, id).Exec(ctx); err != nil {
			return translate(err)
		}
		return ensureDefault(ctx, tx, siteID, gone.SectionID)
	})
	return removed, err
}

// siblingSiteSpaces returns the site spaces of one section (nil: the root) in order.
func siblingSiteSpaces(ctx context.Context, db bun.IDB, siteID string, section *string) ([]*SiteSpace, error) {
	var out []*SiteSpace
	err := db.NewSelect().Model(&out).Where("ss.site_id = ? AND COALESCE(ss.section_id, '') = ?", siteID, deref(section)).
		OrderExpr("ss.position ASC, ss.id ASC").Scan(ctx)
	return out, translate(err)
}

// ensureDefault makes the first site space of a section (nil: the root) its default when none is.
func ensureDefault(ctx context.Context, tx bun.Tx, siteID string, section *string) error {
	rest, err := siblingSiteSpaces(ctx, tx, siteID, section)
	if err != nil || len(rest) == 0 || slices.ContainsFunc(rest, func(ss *SiteSpace) bool { return ss.IsDefault }) {
		return err
	}
	_, err = tx.NewUpdate().Model((*SiteSpace)(nil)).Set("is_default = ?", true).Where("id = ?", rest[0].ID).Exec(ctx)
	return translate(err)
}

// setDefaultSiteSpace makes id the only default site space of its section (or of the root).
// Errors: ErrNotFound when id is not a site space of the site, or, with inSection, not of that
// section.
func setDefaultSiteSpace(ctx context.Context, tx bun.Tx, siteID, id string, inSection *string) error {
	row := new(SiteSpace)
	if err := tx.NewSelect().Model(row).Where("ss.site_id = ? AND ss.id = ?", siteID, id).Scan(ctx); err != nil {
		return translate(err)
	}
	if inSection != nil && (row.SectionID == nil || *row.SectionID != *inSection) {
		return ErrNotFound
	}
	_, err := tx.NewUpdate().Model((*SiteSpace)(nil)).Set("is_default = (id = ?)", id).
		Where("site_id = ? AND COALESCE(section_id, '') = ?", siteID, deref(row.SectionID)).Exec(ctx)
	return translate(err)
}

// MoveSiteSpace puts a site space right before (or, with after, right after) another one of its
// section and renumbers the section's order in the same transaction, under the site's lock: two
// moves racing give one order or the other, never a mix. An empty anchor moves to the start
// (before) or the end (after). Errors: ErrNotFound (item, or anchor in the item's section).
func (s *Store) MoveSiteSpace(ctx context.Context, siteID, id, anchor string, after bool) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := s.lockSite(ctx, tx, siteID); err != nil {
			return err
		}
		item := new(SiteSpace)
		if err := tx.NewSelect().Model(item).Where("ss.site_id = ? AND ss.id = ?", siteID, id).Scan(ctx); err != nil {
			return translate(err)
		}
		all, err := siblingSiteSpaces(ctx, tx, siteID, item.SectionID)
		if err != nil {
			return err
		}
		from := slices.IndexFunc(all, func(ss *SiteSpace) bool { return ss.ID == id })
		if anchor == id {
			return nil // before or after itself: it stays where it is
		}
		all = slices.Delete(all, from, from+1)
		to := 0
		switch {
		case anchor == "" && after:
			to = len(all)
		case anchor != "":
			to = slices.IndexFunc(all, func(ss *SiteSpace) bool { return ss.ID == anchor })
			if to < 0 {
				return ErrNotFound
			}
			if after {
				to++
			}
		}
		all = slices.Insert(all, to, item)
		for i, ss := range all {
			if ss.Position == i {
				continue
			}
			if _, err := tx.NewUpdate().Model((*SiteSpace)(nil)).Set("position = ?", i).Where("id = ?", ss.ID).Exec(ctx); err != nil {
				return translate(err)
			}
		}
		return nil
	})
}

// CreateShareLink stores a new share link with a fresh secret key.
func (s *Store) CreateShareLink(ctx context.Context, l *ShareLink) error {
	if l.ID == "" {
		l.ID = NewID()
	}
	l.ShareKey = randomString(32)
	if _, err := s.write(ctx, func(db bun.IDB) execer { return db.NewInsert().Model(l) }); err != nil {
		return fmt.Errorf("create share link: %w", translate(err))
	}
	return nil
}

// ShareLinksOf returns the share links of several sites, each site's newest first: one
// statement.
func (s *Store) ShareLinksOf(ctx context.Context, siteIDs []string) (map[string][]*ShareLink, error) {
	out := map[string][]*ShareLink{}
	if len(siteIDs) == 0 {
		return out, nil
	}
	var rows []*ShareLink
	err := s.rdb.NewSelect().Model(&rows).Where("sl.site_id IN (?)", bun.List(siteIDs)).OrderExpr("sl.created_at DESC, sl.id DESC").Scan(ctx)
	for _, l := range rows {
		out[l.SiteID] = append(out[l.SiteID], l)
	}
	return out, translate(err)
}

// FindShareLink returns one of a site's share links. Errors: ErrNotFound.
func (s *Store) FindShareLink(ctx context.Context, siteID, id string) (*ShareLink, error) {
	l := new(ShareLink)
	if err := s.rdb.NewSelect().Model(l).Where("sl.site_id = ? AND sl.id = ?", siteID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return l, nil
}

// FindShareLinkByKey returns a site's share link with that key. Errors: ErrNotFound.
func (s *Store) FindShareLinkByKey(ctx context.Context, siteID, key string) (*ShareLink, error) {
	l := new(ShareLink)
	if err := s.rdb.NewSelect().Model(l).Where("sl.site_id = ? AND sl.share_key = ?", siteID, key).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return l, nil
}

// UpdateShareLink writes the fields set of l. Errors: ErrNotFound.
func (s *Store) UpdateShareLink(ctx context.Context, l *ShareLink, set ShareLinkField) error {
	if set == 0 {
		return nil
	}
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(l).Column(columnsOf(set, shareLinkColumns)...).WherePK()
	})
	if err != nil {
		return fmt.Errorf("update share link: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteShareLink removes a share link; it reports whether it existed.
func (s *Store) DeleteShareLink(ctx context.Context, siteID, id string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*ShareLink)(nil)).Where("site_id = ? AND id = ?", siteID, id)
	})
	if err != nil {
		return false, fmt.Errorf("delete share link: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
