package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// SiteRedirect sends a path of a site that no longer leads anywhere to content of the site.
type SiteRedirect struct {
	bun.BaseModel `bun:"table:site_redirects,alias:sr"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	Source         string // a site-relative path starting with /
	Destination    string // JSON: the contract's SiteRedirectDestination
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// FindSiteRedirects lists a site's redirects by source; search keeps those whose source holds
// it. Errors: ErrInvalidCursor.
func (s *Store) FindSiteRedirects(ctx context.Context, siteID, search string, page Window) (List[*SiteRedirect], error) {
	key := sortKey{name: "siteRedirects", column: "sr.source", idCol: "sr.id"}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		q = q.Where("sr.site_id = ?", siteID)
		if search != "" {
			q = q.Where(`sr.source LIKE ? ESCAPE '\'`, containsPattern(search))
		}
		return q
	}
	return paginate(ctx, s.rdb, key, page, filter, func(r *SiteRedirect) (time.Time, string, string) { return time.Time{}, r.Source, r.ID })
}

// FindSiteRedirect reads one redirect of a site. Errors: ErrNotFound.
func (s *Store) FindSiteRedirect(ctx context.Context, siteID, id string) (*SiteRedirect, error) {
	out := new(SiteRedirect)
	if err := s.rdb.NewSelect().Model(out).Where("sr.site_id = ? AND sr.id = ?", siteID, id).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// FindSiteRedirectBySource reads the redirect of a site from source. Errors: ErrNotFound.
func (s *Store) FindSiteRedirectBySource(ctx context.Context, siteID, source string) (*SiteRedirect, error) {
	out := new(SiteRedirect)
	if err := s.rdb.NewSelect().Model(out).Where("sr.site_id = ? AND sr.source = ?", siteID, source).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// CreateSiteRedirect stores a redirect. Errors: ErrConflict (a redirect from that source).
func (s *Store) CreateSiteRedirect(ctx context.Context, r *SiteRedirect) error {
	if r.ID == "" {
		r.ID = NewID()
	}
	if _, err := s.write(ctx, func(db bun.IDB) execer { return db.NewInsert().Model(r) }); err != nil {
		return fmt.Errorf("create site redirect: %w", translate(err))
	}
	return nil
}

// UpdateSiteRedirect writes a redirect's source and destination. Errors: ErrNotFound,
// ErrConflict.
func (s *Store) UpdateSiteRedirect(ctx context.Context, r *SiteRedirect) error {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(r).Column("source", "destination", "updated_at").
			Where("site_id = ? AND id = ?", r.SiteID, r.ID)
	})
	if err != nil {
		return fmt.Errorf("update site redirect: %w", translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteSiteRedirect removes a redirect; it reports whether there was one.
func (s *Store) DeleteSiteRedirect(ctx context.Context, siteID, id string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*SiteRedirect)(nil)).Where("site_id = ? AND id = ?", siteID, id)
	})
	if err != nil {
		return false, fmt.Errorf("delete site redirect: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// SiteRedirectPages lists the same page of several sites' redirects by source, by site id;
// search keeps those whose source holds it. One statement for the page (two with totals),
// whatever the number of sites. Errors: ErrInvalidCursor.
func (s *Store) SiteRedirectPages(ctx context.Context, siteIDs []string, search string, page Window) (map[string]List[*SiteRedirect], error) {
	key := sortKey{name: "siteRedirects", column: "sr.source", idCol: "sr.id"}
	filter := func(q *bun.SelectQuery) *bun.SelectQuery {
		if search != "" {
			q = q.Where(`sr.source LIKE ? ESCAPE '\'`, containsPattern(search))
		}
		return q
	}
	return paginateEach(ctx, s.rdb, key, page, "sr.site_id", siteIDs,
		func(q *bun.SelectQuery) *bun.SelectQuery { return filter(q).ColumnExpr("sr.*") },
		func(r *SiteRedirect) (time.Time, string, string) { return time.Time{}, r.Source, r.ID },
		func(r *SiteRedirect) string { return r.SiteID })
}
