package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// SiteReaderSettings is what the reader needs about a site beyond its contract fields.
type SiteReaderSettings struct {
	bun.BaseModel `bun:"table:site_reader_settings,alias:srs"`

	SiteID         string `bun:"site_id,pk"`
	OrganizationID string
	SigningKey     *string // HS256 key of visitor tokens; nil: none set yet
	UnsignedClaims bool
	Variables      *string // JSON object
	// FallbackURL is where a visitor without a valid token is sent; nil: nowhere (401).
	FallbackURL *string
	// InsightsOff: the site collects no insights (no page views, feedback or tracked events).
	InsightsOff bool
	UpdatedAt   time.Time
}

// FindPublishedSite finds the site published at /sites/<name>/: the site with that id, or else
// the oldest site with that basename (basenames are unique within an organization only, so the
// first site to take one keeps it). This is the one lookup not scoped by organization: a
// published URL names no organization. Errors: ErrNotFound.
func (s *Store) FindPublishedSite(ctx context.Context, name string) (*Site, error) {
	site := new(Site)
	err := withSiteCounts(s.db.NewSelect().Model(site)).Where("si.id = ? OR si.basename = ?", name, name).
		OrderExpr("CASE WHEN si.id = ? THEN 0 ELSE 1 END, si.created_at ASC, si.id ASC", name).Limit(1).Scan(ctx)
	if err != nil {
		return nil, translate(err)
	}
	return site, nil
}

// SiteReaderSettingsOf reads a site's reader settings; a site without any gets the zero value.
func (s *Store) SiteReaderSettingsOf(ctx context.Context, siteID string) (*SiteReaderSettings, error) {
	out := new(SiteReaderSettings)
	err := s.db.NewSelect().Model(out).Where("srs.site_id = ?", siteID).Scan(ctx)
	switch err = translate(err); {
	case err == ErrNotFound:
		return &SiteReaderSettings{SiteID: siteID}, nil
	case err != nil:
		return nil, fmt.Errorf("read site reader settings: %w", err)
	}
	return out, nil
}

// SaveSiteReaderSettings writes a site's reader settings, creating them on first use.
func (s *Store) SaveSiteReaderSettings(ctx context.Context, in *SiteReaderSettings) error {
	_, err := s.write(ctx, func(db bun.IDB) execer {
		return upsert(db.NewInsert().Model(in), "site_id", "signing_key", "unsigned_claims", "variables", "fallback_url", "insights_off", "updated_at")
	})
	if err != nil {
		return fmt.Errorf("save site reader settings: %w", translate(err))
	}
	return nil
}

// SiteReaderSettingsMany reads several sites' reader settings, by site id; a site without any
// gets the zero value. One statement.
func (s *Store) SiteReaderSettingsMany(ctx context.Context, siteIDs []string) (map[string]*SiteReaderSettings, error) {
	out := make(map[string]*SiteReaderSettings, len(siteIDs))
	for _, id := range siteIDs {
		out[id] = &SiteReaderSettings{SiteID: id}
	}
	if len(siteIDs) == 0 {
		return out, nil
	}
	var rows []*SiteReaderSettings
	if err := s.db.NewSelect().Model(&rows).Where("srs.site_id IN (?)", bun.List(siteIDs)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read site reader settings: %w", translate(err))
	}
	for _, r := range rows {
		out[r.SiteID] = r
	}
	return out, nil
}

// EnsureSigningKeys gives the sites of settings that have no signing key the key proposed in
// each (SigningKey set by the caller), in one statement, and reads back what is stored: a key
// another request stored first wins, so every caller sees the same key. settings holds each
// site's OrganizationID. Two statements whatever the number of sites.
func (s *Store) EnsureSigningKeys(ctx context.Context, settings []*SiteReaderSettings) (map[string]*SiteReaderSettings, error) {
	if len(settings) == 0 {
		return map[string]*SiteReaderSettings{}, nil
	}
	ids := make([]string, len(settings))
	for i, r := range settings {
		ids[i] = r.SiteID
	}
	_, err := s.db.NewInsert().Model(&settings).
		On("CONFLICT (site_id) DO UPDATE").Set("signing_key = EXCLUDED.signing_key, updated_at = EXCLUDED.updated_at").
		Where("srs.signing_key IS NULL").Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("save signing keys: %w", translate(err))
	}
	return s.SiteReaderSettingsMany(ctx, ids)
}
