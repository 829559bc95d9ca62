package domain

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// tokenTouchEvery bounds how often a token's last use is written: at most once a minute per
// token, so that authenticating stays one read on almost every request.
const tokenTouchEvery = time.Minute

// touchToken records a token's use when the last record is older than tokenTouchEvery. It runs on
// a context of its own (not counted as the request's statement, not cancelled with it); a failure
// is logged by the caller and never fails the request.
func (r *App) touchToken(t *storage.APIToken, now time.Time) error {
	if t.LastUsedAt != nil && now.Sub(*t.LastUsedAt) < tokenTouchEvery {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return r.Store.TouchToken(ctx, t, now)
}

// APITokens lists the caller's API tokens, newest first. Errors: Unauthenticated.
func (r *App) APITokens(ctx context.Context) ([]*model.APIToken, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := r.Store.ListTokens(ctx, actor.UserID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.APIToken, len(rows))
	for i, t := range rows {
		out[i] = toAPIToken(&t.APIToken)
	}
	return out, nil
}

// APITokenPage is APITokens one page at a time, for REST's list. Errors: Unauthenticated,
// Invalid (paging).
func (r *App) APITokenPage(ctx context.Context, first *int, after *string) (*model.Connection[*model.APIToken], error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return nil, err
	}
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	list, err := r.Store.TokenPage(ctx, actor.UserID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, toAPIToken), nil
}

// RevokeAPIToken revokes one of the caller's tokens. Errors: Unauthenticated, NotFound (also for
// another user's token: its existence is not revealed).
func (r *App) RevokeAPIToken(ctx context.Context, id string) (bool, error) {
	actor, err := authz.RequireActor(ctx)
	if err != nil {
		return false, err
	}
	// A scoped or installation token may not manage its user's tokens.
	if err := authz.RequireUnlimited(ctx, "revoke API tokens"); err != nil {
		return false, err
	}
	return true, r.revokeToken(ctx, id, actor.UserID)
}

// OperatorToken is a token as operators list it: with its user's e-mail.
type OperatorToken struct {
	model.APIToken
	UserID    string `json:"userId"`
	UserEmail string `json:"userEmail"`
}

// ListAllAPITokens lists the tokens of the user with that e-mail, or of every user when email is
// empty, for operators (the bindery admin commands; not reachable through the API). Errors:
// NotFound (user).
func (r *App) ListAllAPITokens(ctx context.Context, email string) ([]OperatorToken, error) {
	userID := ""
	if email != "" {
		u, err := r.Store.FindUserByEmail(ctx, email)
		if err != nil {
			return nil, notFound(err, "user "+email)
		}
		userID = u.ID
	}
	rows, err := r.Store.ListTokens(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]OperatorToken, len(rows))
	for i, t := range rows {
		out[i] = OperatorToken{APIToken: *toAPIToken(&t.APIToken), UserID: t.UserID, UserEmail: t.UserEmail}
	}
	return out, nil
}

// RevokeAnyAPIToken revokes any user's token, for operators. Errors: Invalid, NotFound.
func (r *App) RevokeAnyAPIToken(ctx context.Context, id string) error {
	if strings.TrimSpace(id) == "" {
		return apperr.Invalidf("id", "must not be empty")
	}
	return r.revokeToken(ctx, id, "")
}

func (r *App) revokeToken(ctx context.Context, id, userID string) error {
	hash, err := r.Store.RevokeToken(ctx, id, userID)
	if errors.Is(err, storage.ErrNotFound) {
		return apperr.NotFoundf("API token not found")
	}
	if err != nil {
		return err
	}
	if r.TokenRevoked != nil {
		r.TokenRevoked(hash)
	}
	return nil
}

func toAPIToken(t *storage.APIToken) *model.APIToken {
	return &model.APIToken{ID: t.ID, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, ExpiresAt: t.ExpiresAt}
}
