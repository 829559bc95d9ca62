package domain

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
)

// Authenticate resolves a bearer token to its user and its limits: one statement, two for an
// installation's token (its organization and spaces, read at each request so that installing
// on another space takes effect at once). Tokens that are malformed, unknown or expired, and
// tokens of an installation that is gone, all answer the same. Errors: Unauthenticated.
func (r *App) Authenticate(ctx context.Context, token string) (*authz.Actor, error) {
	if !strings.HasPrefix(token, storage.TokenPrefix) || len(token) > 200 {
		return nil, apperr.ErrUnauthenticated
	}
	now := r.Now()
	t, err := r.Store.FindToken(ctx, token, now)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apperr.ErrUnauthenticated
	}
	if err != nil {
		return nil, err
	}
	if err := r.touchToken(t, now); err != nil {
		slog.WarnContext(ctx, "record API token use", "err", err)
	}
	u := t.User
	actor := &authz.Actor{UserID: u.ID, TokenID: t.ID, Email: u.Email, EmailVerified: u.EmailVerified}
	if t.Scopes == nil && t.InstallationID == nil {
		return actor, nil
	}
	limit := &authz.Limit{Scopes: []string{}}
	if t.Scopes != nil {
		if err := json.Unmarshal([]byte(*t.Scopes), &limit.Scopes); err != nil {
			return nil, err
		}
	}
	if t.InstallationID != nil {
		orgID, spaces, err := r.Store.InstallationSpaces(ctx, *t.InstallationID)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, apperr.ErrUnauthenticated
		}
		if err != nil {
			return nil, err
		}
		limit.Installation, limit.Organization, limit.Spaces = *t.InstallationID, orgID, map[string]bool{}
		for _, id := range spaces {
			limit.Spaces[id] = true
		}
	}
	actor.Limit = limit
	return actor, nil
}

// Ready reports whether the database answers, for readiness probes.
func (r *App) Ready(ctx context.Context) error { return r.Store.Ping(ctx) }
