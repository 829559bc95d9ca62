package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// AskRating is a reader's rating of an answer on a published site.
type AskRating struct {
	bun.BaseModel `bun:"table:ask_ratings,alias:ar"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	Question       string
	Helpful        bool
	Sources        string // JSON array of the cited pages' URLs
	CreatedAt      time.Time
}

// CreateAskRating stores a rating.
func (s *Store) CreateAskRating(ctx context.Context, r *AskRating) error {
	if r.ID == "" {
		r.ID = NewID()
	}
	if _, err := s.db.NewInsert().Model(r).Exec(ctx); err != nil {
		return fmt.Errorf("create ask rating: %w", translate(err))
	}
	return nil
}

// AskRatingCounts counts a site's ratings since a time: helpful and not.
func (s *Store) AskRatingCounts(ctx context.Context, orgID, siteID string, since time.Time) (helpful, unhelpful int, err error) {
	var rows []struct {
		Helpful bool
		N       int
	}
	err = s.rdb.NewSelect().Model((*AskRating)(nil)).Column("ar.helpful").ColumnExpr("COUNT(*) AS n").
		Where("ar.organization_id = ? AND ar.site_id = ? AND ar.created_at >= ?", orgID, siteID, since).
		Group("ar.helpful").Scan(ctx, &rows)
	for _, r := range rows {
		if r.Helpful {
			helpful = r.N
		} else {
			unhelpful = r.N
		}
	}
	return helpful, unhelpful, translate(err)
}
