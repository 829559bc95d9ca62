package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// SiteEvent is one thing a visitor did on a site (the contract's SiteInsightsEvent, as kept):
// visitor and session are salted hashes.
type SiteEvent struct {
	bun.BaseModel `bun:"table:site_events,alias:sev"`

	ID             string `bun:"id,pk"`
	OrganizationID string
	SiteID         string
	EventType      string
	OccurredAt     time.Time
	OccurredUnix   int64
	OccurredMonth  int    // year*12 + month-1
	URL            string `bun:"url"`
	DisplayContext string
	SiteSection    *string
	SiteSpace      *string
	SiteShareKey   *string
	Space          *string
	Page           *string
	VisitorHash    string
	SessionHash    string
	ReferrerDomain *string
	SearchQuery    *string
	FeedbackRating *string
}

// siteEventSalt is the salt of one day's visitor hashes.
type siteEventSalt struct {
	bun.BaseModel `bun:"table:site_event_salts"`

	Day  int64 `bun:"day,pk"`
	Salt string
}

// SiteEventSalt returns the salt of day (days since 1970-01-01 UTC), creating it with fresh when
// the day has none, and forgets the salts of days before the day before: yesterday's hashes can
// no longer be computed again. Three statements.
func (s *Store) SiteEventSalt(ctx context.Context, day int64, fresh string) (string, error) {
	var out string
	err := s.inTx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := insertNew(tx.NewInsert().Model(&siteEventSalt{Day: day, Salt: fresh}), "day").Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*siteEventSalt)(nil)).Where("day < ?", day-1).Exec(ctx); err != nil {
			return err
		}
		return tx.NewSelect().Model((*siteEventSalt)(nil)).Column("salt").Where("day = ?", day).Scan(ctx, &out)
	})
	if err != nil {
		return "", fmt.Errorf("site event salt: %w", translate(err))
	}
	return out, nil
}

// AddSiteEvents stores events: one statement.
func (s *Store) AddSiteEvents(ctx context.Context, events []*SiteEvent) error {
	if len(events) == 0 {
		return nil
	}
	for _, e := range events {
		if e.ID == "" {
			e.ID = NewID()
		}
	}
	if _, err := s.db.NewInsert().Model(&events).Exec(ctx); err != nil {
		return fmt.Errorf("add site events: %w", translate(err))
	}
	return nil
}

// DeleteSiteEventsBefore removes the events that occurred before t (the operator's retention).
func (s *Store) DeleteSiteEventsBefore(ctx context.Context, t time.Time) (int64, error) {
	res, err := s.db.NewDelete().Model((*SiteEvent)(nil)).Where("occurred_unix < ?", t.Unix()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("delete site events: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// SiteEventColumn is a column of an events aggregation: a dimension to group by or a measure.
type SiteEventColumn struct {
	// Name is the contract's column name.
	Name string
	// Interval buckets the datetime column: hour, day, week or month.
	Interval string
}

// SiteEventFilter keeps events whose column's value is (In) or is not among Values; for datetime,
// Op compares with the one value (greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual)
// and Values hold Unix seconds.
type SiteEventFilter struct {
	Column string
	Op     string
	Values []any
}

// SiteEventQuery is an aggregation of a site's events in [From, To).
type SiteEventQuery struct {
	SiteID   string
	From, To time.Time
	Select   []SiteEventColumn
	GroupBy  []SiteEventColumn
	Where    []SiteEventFilter
	OrderBy  *SiteEventColumn
	Desc     bool
	Limit    int
}

// siteEventDimensions are the stored columns of the contract's dimension columns.
var siteEventDimensions = map[string]string{
	"url": "sev.url", "eventType": "sev.event_type", "siteSection": "sev.site_section", "siteSpace": "sev.site_space",
	"siteShareKey": "sev.site_share_key", "displayContext": "sev.display_context", "page": "sev.page",
	"eventSearchQuery": "sev.search_query", "eventPageFeedbackRating": "sev.feedback_rating", "referrerDomain": "sev.referrer_domain",
}

// IsSiteEventDimension reports whether the contract's column is one events are grouped by here.
func IsSiteEventDimension(name string) bool {
	_, ok := siteEventDimensions[name]
	return ok || name == "datetime"
}

// siteEventMeasures are the aggregates of the contract's measure columns.
var siteEventMeasures = map[string]string{
	"eventsCount":   "COUNT(*)",
	"sessionsCount": "COUNT(DISTINCT sev.session_hash)",
	"visitorsCount": "COUNT(DISTINCT sev.visitor_hash)",
}

// IsSiteEventMeasure reports whether the contract's column is a measure computed here.
func IsSiteEventMeasure(name string) bool {
	_, ok := siteEventMeasures[name]
	return ok || name == "pageFeedbackRating"
}

// expr is the SQL of a column: a stored column, a bucket of time (Unix seconds of its start, or
// for months year*12+month-1), or an aggregate.
func (c SiteEventColumn) expr() string {
	if c.Name == "datetime" {
		switch c.Interval {
		case "hour":
			return "(sev.occurred_unix - sev.occurred_unix % 3600)"
		case "week": // weeks start on Monday: 1970-01-05 (345600) was one
			return "(sev.occurred_unix - (sev.occurred_unix - 345600) % 604800)"
		case "month":
			return "sev.occurred_month"
		default:
			return "(sev.occurred_unix - sev.occurred_unix % 86400)"
		}
	}
	if d, ok := siteEventDimensions[c.Name]; ok {
		return d
	}
	return siteEventMeasures[c.Name]
}

// AggregateSiteEvents runs an aggregation of a site's events: one statement, whatever the number
// of events; each row holds the selected columns' values in order (feedback ratings as three
// counts: ok, good, bad). Columns are checked by the caller (IsSiteEventDimension,
// IsSiteEventMeasure).
func (s *Store) AggregateSiteEvents(ctx context.Context, q SiteEventQuery) ([][]any, error) {
	sel := s.rdb.NewSelect().TableExpr("site_events AS sev").
		Where("sev.site_id = ?", q.SiteID).
		Where("sev.occurred_unix >= ? AND sev.occurred_unix < ?", q.From.Unix(), q.To.Unix())
	width := 0
	for i, c := range q.Select {
		if c.Name == "pageFeedbackRating" {
			for _, r := range []string{"ok", "good", "bad"} {
				sel = sel.ColumnExpr(fmt.Sprintf("SUM(CASE WHEN sev.feedback_rating = '%s' THEN 1 ELSE 0 END) AS c%d_%s", r, i, r))
				width++
			}
			continue
		}
		if c.Name == "page" { // a page is named with its space
			sel = sel.ColumnExpr(fmt.Sprintf("sev.page AS c%d_page, sev.space AS c%d_space", i, i))
			width += 2
			continue
		}
		sel = sel.ColumnExpr(fmt.Sprintf("%s AS c%d", c.expr(), i))
		width++
	}
	for _, f := range q.Where {
		col := SiteEventColumn{Name: f.Column}.expr()
		if f.Column == "datetime" {
			col = "sev.occurred_unix"
		}
		switch f.Op {
		case "notIn":
			sel = sel.Where("("+col+" IS NULL OR "+col+" NOT IN (?))", bun.List(f.Values))
		case "greaterThan":
			sel = sel.Where(col+" > ?", f.Values[0])
		case "greaterThanOrEqual":
			sel = sel.Where(col+" >= ?", f.Values[0])
		case "lessThan":
			sel = sel.Where(col+" < ?", f.Values[0])
		case "lessThanOrEqual":
			sel = sel.Where(col+" <= ?", f.Values[0])
		default:
			sel = sel.Where(col+" IN (?)", bun.List(f.Values))
		}
	}
	for _, g := range q.GroupBy {
		sel = sel.GroupExpr(g.expr())
		if g.Name == "page" {
			sel = sel.GroupExpr("sev.space")
		}
	}
	if q.OrderBy != nil {
		dir := " ASC"
		if q.Desc {
			dir = " DESC"
		}
		sel = sel.OrderExpr(q.OrderBy.expr() + dir)
	}
	sel = sel.Limit(int64(q.Limit))
	rows, err := sel.Rows(ctx)
	if err != nil {
		return nil, fmt.Errorf("aggregate site events: %w", translate(err))
	}
	defer rows.Close()
	var out [][]any
	for rows.Next() {
		vals := make([]any, width)
		ptrs := make([]any, width)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("aggregate site events: %w", err)
		}
		out = append(out, vals)
	}
	return out, translate(rows.Err())
}
