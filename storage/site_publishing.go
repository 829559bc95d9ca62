package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// SetSiteUnpublished publishes (false) or unpublishes (true) a site. Errors: ErrNotFound.
func (s *Store) SetSiteUnpublished(ctx context.Context, orgID, siteID string, unpublished bool, now time.Time) error {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model((*Site)(nil)).Set("unpublished = ?", unpublished).Set("updated_at = ?", now).
			Where("organization_id = ? AND id = ?", orgID, siteID)
	})
	if err != nil {
		return fmt.Errorf("set site %s unpublished: %w", siteID, translate(err))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// SiteAdaptiveSchema is the JSON schema of a site's visitor claims.
type SiteAdaptiveSchema struct {
	bun.BaseModel `bun:"table:site_adaptive_schemas,alias:sas"`

	SiteID         string `bun:"site_id,pk"`
	OrganizationID string
	JSONSchema     string
	UpdatedAt      time.Time
}

// FindSiteAdaptiveSchema reads a site's adaptive schema. Errors: ErrNotFound (none set).
func (s *Store) FindSiteAdaptiveSchema(ctx context.Context, siteID string) (*SiteAdaptiveSchema, error) {
	out := new(SiteAdaptiveSchema)
	if err := s.rdb.NewSelect().Model(out).Where("sas.site_id = ?", siteID).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// SaveSiteAdaptiveSchema writes a site's adaptive schema, creating it on first use.
func (s *Store) SaveSiteAdaptiveSchema(ctx context.Context, in *SiteAdaptiveSchema) error {
	if _, err := s.write(ctx, func(db bun.IDB) execer {
		return upsert(db.NewInsert().Model(in), "site_id", "json_schema", "updated_at")
	}); err != nil {
		return fmt.Errorf("save site adaptive schema: %w", translate(err))
	}
	return nil
}

// SiteCustomization is a site's look and feel, a JSON document (the contract's
// SiteCustomizationSettings).
type SiteCustomization struct {
	bun.BaseModel `bun:"table:site_customizations,alias:sc"`

	SiteID         string `bun:"site_id,pk"`
	OrganizationID string
	Settings       string
	UpdatedAt      time.Time
}

// SiteSpaceCustomization is a site space's overrides of its site's customization.
type SiteSpaceCustomization struct {
	bun.BaseModel `bun:"table:site_space_customizations,alias:ssc"`

	SiteSpaceID    string `bun:"site_space_id,pk"`
	SiteID         string
	OrganizationID string
	Settings       string
	UpdatedAt      time.Time
}

// SiteCustomizationSet is a site's customization (nil: none set) and its site spaces' overrides,
// by site space id.
type SiteCustomizationSet struct {
	Site       *SiteCustomization
	SiteSpaces map[string]*SiteSpaceCustomization
}

// SiteCustomizationsOf reads several sites' customizations and overrides, by site id (every
// site given has a set): two statements whatever the number of sites.
func (s *Store) SiteCustomizationsOf(ctx context.Context, siteIDs []string) (map[string]*SiteCustomizationSet, error) {
	out := make(map[string]*SiteCustomizationSet, len(siteIDs))
	for _, id := range siteIDs {
		out[id] = &SiteCustomizationSet{SiteSpaces: map[string]*SiteSpaceCustomization{}}
	}
	if len(siteIDs) == 0 {
		return out, nil
	}
	var sites []*SiteCustomization
	if err := s.rdb.NewSelect().Model(&sites).Where("sc.site_id IN (?)", bun.List(siteIDs)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read site customizations: %w", translate(err))
	}
	for _, c := range sites {
		out[c.SiteID].Site = c
	}
	var rows []*SiteSpaceCustomization
	if err := s.rdb.NewSelect().Model(&rows).Where("ssc.site_id IN (?)", bun.List(siteIDs)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read site space customizations: %w", translate(err))
	}
	for _, r := range rows {
		out[r.SiteID].SiteSpaces[r.SiteSpaceID] = r
	}
	return out, nil
}

// SaveSiteCustomization writes a site's customization, creating it on first use.
func (s *Store) SaveSiteCustomization(ctx context.Context, in *SiteCustomization) error {
	if _, err := s.write(ctx, func(db bun.IDB) execer { return upsert(db.NewInsert().Model(in), "site_id", "settings", "updated_at") }); err != nil {
		return fmt.Errorf("save site customization: %w", translate(err))
	}
	return nil
}

// SaveSiteSpaceCustomization writes a site space's overrides, creating them on first use.
func (s *Store) SaveSiteSpaceCustomization(ctx context.Context, in *SiteSpaceCustomization) error {
	if _, err := s.write(ctx, func(db bun.IDB) execer {
		return upsert(db.NewInsert().Model(in), "site_space_id", "settings", "updated_at")
	}); err != nil {
		return fmt.Errorf("save site space customization: %w", translate(err))
	}
	return nil
}

// DeleteSiteSpaceCustomization removes a site space's overrides; it reports whether there were any.
func (s *Store) DeleteSiteSpaceCustomization(ctx context.Context, siteID, siteSpaceID string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*SiteSpaceCustomization)(nil)).Where("site_id = ? AND site_space_id = ?", siteID, siteSpaceID)
	})
	if err != nil {
		return false, fmt.Errorf("delete site space customization: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// SiteAdaptiveSchemasOf reads several sites' adaptive schemas, by site id (sites without one are
// absent): one statement.
func (s *Store) SiteAdaptiveSchemasOf(ctx context.Context, siteIDs []string) (map[string]*SiteAdaptiveSchema, error) {
	out := make(map[string]*SiteAdaptiveSchema, len(siteIDs))
	if len(siteIDs) == 0 {
		return out, nil
	}
	var rows []*SiteAdaptiveSchema
	if err := s.rdb.NewSelect().Model(&rows).Where("sas.site_id IN (?)", bun.List(siteIDs)).Scan(ctx); err != nil {
		return nil, fmt.Errorf("read site adaptive schemas: %w", translate(err))
	}
	for _, r := range rows {
		out[r.SiteID] = r
	}
	return out, nil
}
