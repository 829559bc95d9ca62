package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// rateCount is one limit key's number of requests in one window.
type rateCount struct {
	bun.BaseModel `bun:"table:rate_limit_counters,alias:r"`

	Key         string `bun:"counter_key,pk"`
	WindowStart int64  `bun:"window_start,pk"` // Unix seconds
	Hits        int64  `bun:"hits,notnull"`
	ExpiresAt   int64  `bun:"expires_at,notnull"` // Unix seconds: when no window can read it any more
}

// RateCounter keeps rate-limit counts in the database, so that every server using it shares
// them. Its methods are those of httprate's LimitCounter (which has no context): each statement
// gets its own deadline.
type RateCounter struct {
	s      *Store
	window time.Duration
}

// RateCounter returns a counter over this database for one limit (its window is set by Config).
func (s *Store) RateCounter() *RateCounter { return &RateCounter{s: s, window: time.Minute} }

// rateCounterTimeout bounds one statement: a limiter waiting on a slow database holds the request.
const rateCounterTimeout = 2 * time.Second

// Config records the window length, which decides how long a count is kept.
func (c *RateCounter) Config(_ int, window time.Duration) { c.window = window }

// Increment adds one request to key's count in the window starting at window.
func (c *RateCounter) Increment(key string, window time.Time) error {
	return c.IncrementBy(key, window, 1)
}

// IncrementBy adds n requests to key's count in the window starting at window: one atomic
// upsert, so concurrent servers never lose a request.
func (c *RateCounter) IncrementBy(key string, window time.Time, n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), rateCounterTimeout)
	defer cancel()
	row := &rateCount{Key: key, WindowStart: window.Unix(), Hits: int64(n), ExpiresAt: window.Add(2 * c.window).Unix()}
	_, err := c.s.db.NewInsert().Model(row).
		On("CONFLICT (counter_key, window_start) DO UPDATE").Set("hits = r.hits + EXCLUDED.hits").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("count request: %w", translate(err))
	}
	return nil
}

// Get returns key's counts in the current and the previous window.
func (c *RateCounter) Get(key string, current, previous time.Time) (int, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), rateCounterTimeout)
	defer cancel()
	var rows []rateCount
	err := c.s.rdb.NewSelect().Model(&rows).Column("window_start", "hits").
		Where("counter_key = ?", key).Where("window_start IN (?, ?)", current.Unix(), previous.Unix()).
		Scan(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read request counts: %w", translate(err))
	}
	var cur, prev int
	for _, r := range rows {
		switch r.WindowStart {
		case current.Unix():
			cur = int(r.Hits)
		case previous.Unix():
			prev = int(r.Hits)
		}
	}
	return cur, prev, nil
}

// PurgeRateCounts deletes counts that no window reads any more, and returns how many.
func (s *Store) PurgeRateCounts(ctx context.Context, now time.Time) (int, error) {
	res, err := s.db.NewDelete().Model((*rateCount)(nil)).Where("expires_at < ?", now.Unix()).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("purge rate counts: %w", translate(err))
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}
