package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// The caller's own API tokens. GitBook's API has no such endpoints (its tokens are managed in its
// web app), so these are Bindery extensions under /v1/user, next to GET /v1/user: listed in
// extensionRoutes, marked x-bindery-extension in /v1/openapi.json. Operators manage every user's
// tokens with `bindery admin token list|revoke`.

// listMyTokens answers the caller's tokens, newest first, as every list: {items, count, next}.
func (a *api) listMyTokens(w http.ResponseWriter, r *http.Request) (int, any, error) {
	first, after, err := listArgs(r)
	if err != nil {
		return 0, nil, err
	}
	list, err := a.res.APITokenPage(r.Context(), first, after)
	if err != nil {
		return 0, nil, err
	}
	return ok(envelope(list), nil)
}

// revokeMyToken answers 204; an unknown id, or another user's, answers 404.
func (a *api) revokeMyToken(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return noContent(a.res.RevokeAPIToken(r.Context(), chi.URLParam(r, "tokenId")))
}
