package domain

import (
	"context"
	"time"

	"github.com/bindery/bindery/domain/jobs"
)

// searchOptimizeArgs is the periodic job that merges SQLite's full-text index when writes have
// left it in many segments (storage.Store.OptimizeSearchIndex; nothing on PostgreSQL).
type searchOptimizeArgs struct{}

func (searchOptimizeArgs) Kind() string { return "search_optimize" }

// SearchOptimizeInterval is how often the full-text index is merged: searches slow down with
// each segment writes add (bench/results/2026-11-27-search.md).
const SearchOptimizeInterval = time.Hour

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, func(ctx context.Context, _ *jobs.Job[searchOptimizeArgs]) error {
			return r.Store.Search().Optimize(ctx)
		})
		jobs.Every(reg, SearchOptimizeInterval, searchOptimizeArgs{})
	})
}
