package domain

import (
	"context"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/authz"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// The domain harness: rules tested by calling the graph's domain methods directly, on SQLite and
// PostgreSQL, without HTTP. HTTP tests (./rest) keep what is HTTP: routes, status codes, the
// contract's schemas and the permission matrix through both doors.

func TestMain(m *testing.M) { storagetest.Main(m) }

// harness is the application over a fresh store, with a fixed clock the test can move.
type harness struct {
	*App
	now time.Time
}

// eachDB runs fn with a harness on each database.
func eachDB(t *testing.T, fn func(t *testing.T, d *harness)) {
	storagetest.Each(t, func(t *testing.T, s *storage.Store) {
		d := &harness{now: storagetest.T0}
		d.App = &App{Store: s, Now: func() time.Time { return d.now }}
		fn(t, d)
	})
}

// as is a request's context for a user calling with a token: the request state every door
// installs, and the actor authentication sets.
func (d *harness) as(userID, tokenID string) context.Context {
	return authz.WithActor(d.WithRequestState(context.Background()), &authz.Actor{UserID: userID, TokenID: tokenID})
}
