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
		return upsert(db.NewInsert().Model(in), "site_id", "signing_key", "unsigned_claims", "variables", "fallback_url", "updated_at")
	})
	if err != nil {
		return fmt.Errorf("save site reader settings: %w", translate(err))
	}
	return nil
}
