package domain

import (
	"context"
	"time"

	"github.com/bindery/bindery/domain/jobs"
)

// Expired tokens are deleted a day after they expire: installation tokens and the look-up tokens
// of published URLs live an hour, and one is made per call.

// pruneTokensArgs is the periodic job that deletes expired API tokens.
type pruneTokensArgs struct{}

func (pruneTokensArgs) Kind() string { return "prune_tokens" }

// expiredTokenGrace is how long an expired token is kept (its expiry still shows to its owner).
const expiredTokenGrace = 24 * time.Hour

func init() {
	addJobKinds(func(r *App, reg *jobs.Registry) {
		jobs.Add(reg, func(ctx context.Context, _ *jobs.Job[pruneTokensArgs]) error {
			_, err := r.PruneExpiredTokens(ctx)
			return err
		})
		jobs.Every(reg, time.Hour, pruneTokensArgs{})
	})
}

// PruneExpiredTokens deletes the API tokens that expired more than a day ago and returns how many.
func (r *App) PruneExpiredTokens(ctx context.Context) (int64, error) {
	return r.Store.PruneExpiredTokens(ctx, r.Now().Add(-expiredTokenGrace))
}
