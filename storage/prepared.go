package storage

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/uptrace/bun"
)

// Every request authenticates its token and most read their membership: these point reads run
// as statements prepared once per connection, with placeholders. Bun inlines arguments into the
// SQL text, so its statements are parsed and planned anew each time (on SQLite, parsing was 39%
// of a point read's CPU), and on PostgreSQL they cannot use pgx's statement cache
// (default_query_exec_mode=exec). The SQL text is still Bun's, built once from the models.
type prepared struct {
	once        sync.Once
	err         error
	tokenByHash *sql.Stmt
	membership  *sql.Stmt
	text        map[*sql.Stmt]string // each statement's SQL, for query hooks (tracing)
}

// statements prepares the hot statements on the read pool, once.
func (s *Store) statements(ctx context.Context) (*prepared, error) {
	p := &s.prep
	p.once.Do(func() {
		byToken := s.rdb.NewSelect().Model((*APIToken)(nil)).Relation("User").
			Where("t.token_hash = ?", s.placeholder(1)).String()
		member := s.rdb.NewSelect().Model((*Member)(nil)).Relation("User").Relation("Organization").
			Where("m.user_id = ? AND m.organization_id = ?", s.placeholder(1), s.placeholder(2)).String()
		if p.tokenByHash, p.err = s.rdb.DB.PrepareContext(context.WithoutCancel(ctx), byToken); p.err != nil {
			return
		}
		if p.membership, p.err = s.rdb.DB.PrepareContext(context.WithoutCancel(ctx), member); p.err != nil {
			return
		}
		p.text = map[*sql.Stmt]string{p.tokenByHash: byToken, p.membership: member}
	})
	if p.err != nil {
		return nil, fmt.Errorf("prepare statements: %w", p.err)
	}
	return p, nil
}

// queryPrepared runs a prepared statement and scans its rows into dest with Bun, counted like
// Bun's own statements and seen by the query hooks added with AddQueryHook (Bun runs its hooks
// only for the statements it builds).
func (s *Store) queryPrepared(ctx context.Context, stmt *sql.Stmt, dest any, args ...any) (err error) {
	countStatement(ctx)
	event := &bun.QueryEvent{DB: s.rdb, Query: s.prep.text[stmt], QueryArgs: args, StartTime: time.Now()}
	for _, h := range s.hooks {
		ctx = h.BeforeQuery(ctx, event)
	}
	defer func() {
		event.Err = err
		for i := len(s.hooks) - 1; i >= 0; i-- {
			s.hooks[i].AfterQuery(ctx, event)
		}
	}()
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return translate(err)
	}
	defer rows.Close()
	if err := s.rdb.ScanRows(ctx, rows, dest); err != nil {
		return translate(err)
	}
	return translate(rows.Err())
}

// closePrepared releases the prepared statements.
func (p *prepared) close() {
	for _, st := range []*sql.Stmt{p.tokenByHash, p.membership} {
		if st != nil {
			st.Close()
		}
	}
}
