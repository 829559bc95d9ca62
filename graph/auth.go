package graph

import (
	"context"
	"errors"
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
	u, err := r.Store.FindUserByToken(ctx, token, r.Now())
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apperr.ErrUnauthenticated
	}
	if err != nil {
		return nil, err
	}
	return &authz.Actor{UserID: u.ID, Email: u.Email, EmailVerified: u.EmailVerified}, nil
}

// Ready reports whether the database answers, for readiness probes.
func (r *Resolver) Ready(ctx context.Context) error { return r.Store.Ping(ctx) }
