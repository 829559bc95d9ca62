package domain

import (
	"context"
	"strings"

	"github.com/bindery/bindery/domain/account"
	"github.com/bindery/bindery/domain/model"
)

// Passkeys lists the viewer's passkeys, oldest first. Errors: Unauthenticated, Forbidden (a token
// limited by scopes or to an installation).
func (r *App) Passkeys(ctx context.Context) ([]*model.Passkey, error) {
	actor, err := r.sessionOwner(ctx, "listing passkeys")
	if err != nil {
		return nil, err
	}
	rows, err := account.NewPasskeyKeys(r.Store).List(ctx, actor.UserID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.Passkey, len(rows))
	for i, p := range rows {
		ts := []string{}
		if p.Transports != "" {
			ts = strings.Split(p.Transports, ",")
		}
		out[i] = &model.Passkey{ID: p.ID, Name: p.Name, CreatedAt: p.CreatedAt, LastUsedAt: p.LastUsedAt, Transports: ts}
	}
	return out, nil
}

// RenamePasskey names one of the viewer's passkeys. Errors: Unauthenticated, Forbidden, Invalid,
// NotFound (also another user's).
func (r *App) RenamePasskey(ctx context.Context, id, name string) (bool, error) {
	actor, err := r.sessionOwner(ctx, "renaming passkeys")
	if err != nil {
		return false, err
	}
	if err := account.NewPasskeyKeys(r.Store).Rename(ctx, actor.UserID, id, name); err != nil {
		return false, err
	}
	return true, nil
}

// RemovePasskey deletes one of the viewer's passkeys. Errors: Unauthenticated, Forbidden, NotFound
// (also another user's).
func (r *App) RemovePasskey(ctx context.Context, id string) (bool, error) {
	actor, err := r.sessionOwner(ctx, "removing passkeys")
	if err != nil {
		return false, err
	}
	if err := account.NewPasskeyKeys(r.Store).Remove(ctx, actor.UserID, id); err != nil {
		return false, err
	}
	return true, nil
}
