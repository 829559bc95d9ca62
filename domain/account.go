package domain

import (
	"context"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
)

// accounts is the account service: the server's, or one with default settings over the store
// (listing and ending sessions need no settings).
func (r *App) accounts() *account.Service {
	if r.Accounts != nil {
		return r.Accounts
	}
	return account.New(r.Store, r.Now, account.Config{})
}

// Sessions lists the viewer's browser sessions, most recently used first. Errors:
// Unauthenticated, Forbidden (a token limited by scopes or to an installation).
func (r *App) Sessions(ctx context.Context) ([]*model.Session, error) {
	actor, err := r.sessionOwner(ctx, "listing sessions")
	if err != nil {
		return nil, err
	}
	rows, err := r.accounts().Sessions(ctx, actor.UserID)
	if err != nil {
		return nil, err
	}
	current := account.SessionFrom(ctx)
	out := make([]*model.Session, len(rows))
	for i, s := range rows {
		out[i] = &model.Session{ID: s.ID, CreatedAt: s.CreatedAt, LastSeenAt: s.LastSeenAt, ExpiresAt: s.ExpiresAt,
			UserAgent: s.UserAgent, Address: s.Address, Current: current != nil && current.ID == s.ID}
	}
	return out, nil
}

// EndSession ends one of the viewer's sessions. Errors: Unauthenticated, Forbidden, NotFound.
func (r *App) EndSession(ctx context.Context, id string) (bool, error) {
	actor, err := r.sessionOwner(ctx, "ending sessions")
	if err != nil {
		return false, err
	}
	if err := r.accounts().EndSession(ctx, actor.UserID, id); err != nil {
		return false, err
	}
	return true, nil
}

// EndOtherSessions ends every session of the viewer but this request's. Errors: Unauthenticated,
// Forbidden.
func (r *App) EndOtherSessions(ctx context.Context) (int, error) {
	actor, err := r.sessionOwner(ctx, "ending sessions")
	if err != nil {
		return 0, err
	}
	keep := ""
	if se := account.SessionFrom(ctx); se != nil {
		keep = se.ID
	}
	return r.accounts().EndOtherSessions(ctx, actor.UserID, keep)
}

// sessionOwner is the viewer, when the request speaks for the person (a session or their own
// unlimited token).
func (r *App) sessionOwner(ctx context.Context, what string) (*authz.Actor, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	if err := authz.RequireUnlimited(ctx, what); err != nil {
		return nil, err
	}
	return actor, nil
}
