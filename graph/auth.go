package graph

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/authz"
	"github.com/bindery/bindery/storage"
)

// Authenticate resolves a bearer token to its user: one statement. Tokens that are malformed,
// unknown or expired all answer the same. Errors: Unauthenticated.
func (r *Resolver) Authenticate(ctx context.Context, token string) (*authz.Actor, error) {
	if !strings.HasPrefix(token, storage.TokenPrefix) || len(token) > 200 {
		return nil, apperr.ErrUnauthenticated
	}
	now := r.Now()
	u, t, err := r.Store.AuthenticateToken(ctx, token, now)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apperr.ErrUnauthenticated
	}
	if err != nil {
		return nil, err
	}
	if err := r.touchToken(t, now); err != nil {
		slog.WarnContext(ctx, "record API token use", "err", err)
	}
	return &authz.Actor{UserID: u.ID, Email: u.Email, EmailVerified: u.EmailVerified}, nil
}

// Ready reports whether the database answers, for readiness probes.
func (r *Resolver) Ready(ctx context.Context) error { return r.Store.Ping(ctx) }
