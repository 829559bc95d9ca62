package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestAPITokens lists and revokes a user's own tokens through both doors: no secret or hash is
// ever shown, another user's token id is unknown, and a revoked token is refused on the very
// next request.
func TestAPITokens(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Tokens", "admin@tokens.test")
		ed := e.member(orgID, "ed@tokens.test", "edit")
		second, err := e.res.CreateToken(context.Background(), ed.Email, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		third, err := e.res.CreateToken(context.Background(), ed.Email, 0)
		if err != nil {
			t.Fatal(err)
		}
		var revoked []string
		e.res.TokenRevoked = func(hash string) { revoked = append(revoked, hash) }

		// REST: three tokens, newest first; the one in use shows its last use, the others none.
		res := e.call(ed.Token, "GET", "/user/tokens", nil).want(http.StatusOK)
		for _, secret := range []string{ed.Token, second.Token, third.Token, "bdy_", "hash"} {
			if strings.Contains(string(res.Body), secret) {
				t.Fatalf("token list shows %q: %s", secret, res.Body)
			}
		}
		var list struct {
			Items []struct {
				ID         string     `json:"id"`
				CreatedAt  time.Time  `json:"createdAt"`
				LastUsedAt *time.Time `json:"lastUsedAt"`
				ExpiresAt  *time.Time `json:"expiresAt"`
			} `json:"items"`
			Count int `json:"count"`
		}
		res.decode(&list)
		if list.Count != 3 || len(list.Items) != 3 {
			t.Fatalf("listed %s; want 3 tokens", res.Body)
		}
		newest, middle, oldest := list.Items[0], list.Items[1], list.Items[2]
		if !newest.CreatedAt.After(middle.CreatedAt) || !middle.CreatedAt.After(oldest.CreatedAt) {
			t.Errorf("not newest first: %s", res.Body)
		}
		// Paged like every list: two pages of at most two, in the same order.
		type tokenPage struct {
			Items []struct{ ID string }
			Count int
			Next  *struct{ Page string }
		}
		var p1, p2 tokenPage
		e.call(ed.Token, "GET", "/user/tokens?limit=2", nil).want(http.StatusOK).decode(&p1)
		if len(p1.Items) != 2 || p1.Count != 3 || p1.Next == nil || p1.Items[0].ID != newest.ID || p1.Items[1].ID != middle.ID {
			t.Fatalf("first page of two: %+v", p1)
		}
		e.call(ed.Token, "GET", "/user/tokens?limit=2&page="+url.QueryEscape(p1.Next.Page), nil).want(http.StatusOK).decode(&p2)
		if len(p2.Items) != 1 || p2.Count != 3 || p2.Next != nil || p2.Items[0].ID != oldest.ID {
			t.Errorf("second page: %+v", p2)
		}
		if oldest.LastUsedAt == nil || newest.LastUsedAt != nil || middle.LastUsedAt != nil {
			t.Errorf("only the token in use (the oldest) has a last use: %s", res.Body)
		}
		if middle.ExpiresAt == nil || newest.ExpiresAt != nil {
			t.Errorf("expiry: %s", res.Body)
		}

		// GraphQL lists the same tokens.
		var data struct {
			APITokens []struct{ ID string } `json:"apiTokens"`
		}
		e.gql(ed.Token, `{ apiTokens { id createdAt lastUsedAt expiresAt } }`, nil).ok(&data)
		if len(data.APITokens) != 3 || data.APITokens[0].ID != newest.ID || data.APITokens[2].ID != oldest.ID {
			t.Fatalf("GraphQL lists %+v", data.APITokens)
		}

		// Another user cannot see or revoke them: 404 as for an id that does not exist.
		e.call(admin.Token, "DELETE", "/user/tokens/"+middle.ID, nil).wantError(http.StatusNotFound)
		e.call(admin.Token, "DELETE", "/user/tokens/nonexistent", nil).wantError(http.StatusNotFound)
		if code := e.gql(admin.Token, `mutation($id: ID!) { revokeAPIToken(id: $id) }`, map[string]any{"id": newest.ID}).code(); code != "NOT_FOUND" {
			t.Errorf("revoking another's token through GraphQL: %s", code)
		}
		var adminList struct{ Count int }
		e.call(admin.Token, "GET", "/user/tokens", nil).want(http.StatusOK).decode(&adminList)
		if adminList.Count != 1 || len(revoked) != 0 {
			t.Fatalf("admin sees %d tokens, revoked %v", adminList.Count, revoked)
		}
		e.call(second.Token, "GET", "/user", nil).want(http.StatusOK)

		// Revoked through REST: refused at once, the others still work.
		e.call(ed.Token, "DELETE", "/user/tokens/"+middle.ID, nil).want(http.StatusNoContent)
		e.call(second.Token, "GET", "/user", nil).wantError(http.StatusUnauthorized)
		if g := e.gql(second.Token, `{ viewer { id } }`, nil); g.Status != http.StatusUnauthorized {
			t.Errorf("revoked token through GraphQL: status %d", g.Status)
		}
		e.call(ed.Token, "DELETE", "/user/tokens/"+middle.ID, nil).wantError(http.StatusNotFound)

		// Revoked through GraphQL, the token making the request included.
		var ok struct{ RevokeAPIToken bool }
		e.gql(third.Token, `mutation($id: ID!) { revokeAPIToken(id: $id) }`, map[string]any{"id": newest.ID}).ok(&ok)
		if !ok.RevokeAPIToken {
			t.Fatal("revokeAPIToken answered false")
		}
		e.call(third.Token, "GET", "/user", nil).wantError(http.StatusUnauthorized)
		e.call(ed.Token, "GET", "/user/tokens", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0].ID != oldest.ID {
			t.Fatalf("after revoking two: %+v", list)
		}
		if len(revoked) != 2 || revoked[0] == revoked[1] || len(revoked[0]) < 32 {
			t.Errorf("the revocation hook saw %v; want two token hashes", revoked)
		}

		// Unauthenticated callers get 401.
		e.call("", "GET", "/user/tokens", nil).wantError(http.StatusUnauthorized)
	})
}

// TestTokenUseIsRecordedAtMostOncePerMinute keeps authentication one statement on almost every
// request: the last use is written when it is a minute old, on a context of its own.
func TestTokenUseIsRecordedAtMostOncePerMinute(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		_, admin := e.org("Touch", "admin@touch.test")
		var n atomic.Int64
		e.callCounted(admin.Token, "GET", "/user", nil, &n).want(http.StatusOK)
		first := n.Load()
		n.Store(0)
		e.callCounted(admin.Token, "GET", "/user", nil, &n).want(http.StatusOK)
		if n.Load() != first {
			t.Errorf("second request ran %d statements, the first %d: the touch is not the request's", n.Load(), first)
		}
		tokens, err := e.res.ListAllAPITokens(context.Background(), admin.Email)
		if err != nil || len(tokens) != 1 || tokens[0].LastUsedAt == nil {
			t.Fatalf("tokens %+v, %v", tokens, err)
		}
		used := *tokens[0].LastUsedAt
		e.call(admin.Token, "GET", "/user", nil).want(http.StatusOK)
		tokens, _ = e.res.ListAllAPITokens(context.Background(), admin.Email)
		if !tokens[0].LastUsedAt.Equal(used) {
			t.Errorf("last use rewritten within a minute: %v then %v", used, tokens[0].LastUsedAt)
		}
	})
}

// A token past its expiry is refused through both doors (401), while one before it works; the
// expiry is checked on every request, the cache's included.
func TestExpiredTokenIsRefused(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		_, admin := e.org("Acme", "ada@acme.test")
		now := e.res.Now()
		past, future := now.Add(-time.Minute), now.Add(time.Hour)
		expired, err := e.store.CreateToken(context.Background(), admin.ID, now.Add(-time.Hour), &past)
		if err != nil {
			t.Fatal(err)
		}
		valid, err := e.store.CreateToken(context.Background(), admin.ID, now, &future)
		if err != nil {
			t.Fatal(err)
		}
		e.call(valid, "GET", "/user", nil).want(http.StatusOK)
		e.call(expired, "GET", "/user", nil).wantError(http.StatusUnauthorized)
		if g := e.gql(expired, `{ viewer { id } }`, nil); g.Status != http.StatusUnauthorized {
			t.Errorf("GraphQL with an expired token: %d %+v", g.Status, g.Errors)
		}
	})
}
