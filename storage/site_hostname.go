package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// SiteHostname is a site's own host name.
type SiteHostname struct {
	bun.BaseModel `bun:"table:site_hostnames,alias:sh"`

	Hostname       string `bun:"hostname,pk"`
	OrganizationID string
	SiteID         string
	Status         string // the contract's CustomHostnameStatus
	Active         bool   // its DNS points here: the reader serves the site at it
	CreatedAt      time.Time
	CheckedAt      time.Time
}

// FindSiteHostname reads a host name. Not scoped by organization: a request's Host names none;
// callers check who may see it. Errors: ErrNotFound.
func (s *Store) FindSiteHostname(ctx context.Context, hostname string) (*SiteHostname, error) {
	out := new(SiteHostname)
	if err := s.rdb.NewSelect().Model(out).Where("sh.hostname = ?", hostname).Scan(ctx); err != nil {
		return nil, translate(err)
	}
	return out, nil
}

// SetSiteHostname gives a site its host name, replacing the one it had. Errors: ErrConflict
// (another site has it).
func (s *Store) SetSiteHostname(ctx context.Context, h *SiteHostname) error {
	return s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewDelete().Model((*SiteHostname)(nil)).Where("site_id = ?", h.SiteID).Exec(ctx); err != nil {
			return fmt.Errorf("replace site hostname: %w", translate(err))
		}
		if _, err := tx.NewInsert().Model(h).Exec(ctx); err != nil {
			return fmt.Errorf("set site hostname: %w", translate(err))
		}
		return nil
	})
}

// UpdateSiteHostnameStatus records a DNS check.
func (s *Store) UpdateSiteHostnameStatus(ctx context.Context, h *SiteHostname) error {
	if _, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewUpdate().Model(h).Column("status", "active", "checked_at").WherePK()
	}); err != nil {
		return fmt.Errorf("update site hostname: %w", translate(err))
	}
	return nil
}

// DeleteSiteHostname removes a host name; it reports whether there was one.
func (s *Store) DeleteSiteHostname(ctx context.Context, hostname string) (bool, error) {
	res, err := s.write(ctx, func(db bun.IDB) execer {
		return db.NewDelete().Model((*SiteHostname)(nil)).Where("hostname = ?", hostname)
	})
	if err != nil {
		return false, fmt.Errorf("delete site hostname: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
