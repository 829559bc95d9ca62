package storage

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

type queryCountKey struct{}

// WithQueryCounter returns a context under which every SQL statement run by a Store increments
// *n. Tests use it to assert that a request's statement count does not grow with its items.
func WithQueryCounter(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, queryCountKey{}, n)
}

// queryCounter is the Bun hook behind WithQueryCounter.
type queryCounter struct{}

func (queryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	countStatement(ctx)
	return ctx
}

// countStatement counts one statement run outside Bun's query builder (a prepared statement).
func countStatement(ctx context.Context) {
	if n, ok := ctx.Value(queryCountKey{}).(*atomic.Int64); ok {
		n.Add(1)
	}
}

func (queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}
