package graph

import (
	"context"

	"github.com/bindery/bindery/graph/authz"
	"github.com/bindery/bindery/graph/loader"
	"github.com/bindery/bindery/graph/model"
)

// viewer returns the caller. Errors: Unauthenticated.
func (r *Resolver) viewer(ctx context.Context) (*model.User, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	return r.user(ctx, actor.UserID)
}

// user returns a user the caller shares an organization with (or the caller). Errors:
// Unauthenticated, NotFound.
func (r *Resolver) user(ctx context.Context, id string) (*model.User, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, err
	}
	u, err := loader.For(ctx, r.Store).User.Find(ctx, id)
	if err != nil {
		return nil, notFound(err, "user")
	}
	return r.toUser(u), nil
}
