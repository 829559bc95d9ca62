package domain

import (
	"context"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/loader"
	"github.com/bindery/bindery/domain/model"
)

// APIInformation is the server's version and build.
func (r *App) APIInformation() *model.ApiInformation {
	return &model.ApiInformation{Version: r.Settings.Version, Build: r.Settings.Build}
}

// Viewer returns the caller. Errors: Unauthenticated.
func (r *App) Viewer(ctx context.Context) (*model.User, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	return r.UserByID(ctx, actor.UserID)
}

// UserByID returns a user the caller shares an organization with (or the caller). Errors:
// Unauthenticated, NotFound.
func (r *App) UserByID(ctx context.Context, id string) (*model.User, error) {
	if _, err := authz.RequireActor(ctx); err != nil {
		return nil, err
	}
	u, err := loader.For(ctx, r.Store).User.Find(ctx, id)
	if err != nil {
		return nil, notFound(err, "user")
	}
	return r.toUser(u), nil
}
