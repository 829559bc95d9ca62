package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
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
		member := membershipSQL(s.dialect, s.placeholder(1), s.placeholder(2))
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
func (s *Store) queryPrepared(ctx context.Context, stmt *sql.Stmt, dest any, args ...any) error {
	return s.queryPreparedRows(ctx, stmt, func(rows *sql.Rows) error { return s.rdb.ScanRows(ctx, rows, dest) }, args...)
}

// queryPreparedRows is queryPrepared with a scan of one's own (a hot row scanned by hand).
func (s *Store) queryPreparedRows(ctx context.Context, stmt *sql.Stmt, scan func(*sql.Rows) error, args ...any) (err error) {
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
	if err := scan(rows); err != nil {
		return translate(err)
	}
	return translate(rows.Err())
}

// The viewer's membership is read by nearly every request, so its row is scanned by hand:
// Bun's scan looks every column up by name and reflects on the models (a tenth of a point
// read's CPU). The columns are the models' own, in their order; TestHandScannedColumnsAreTheModels
// fails when a model gains a column these lists lack.
var (
	memberColumns = []string{"organization_id", "user_id", "role", "disabled", "sso", "joined_at", "last_seen_at"}
	orgColumns    = []string{"id", "title", "type", "use_case", "community_type", "hostname", "email_domains",
		"default_role", "default_content_site", "logo_url", "sso", "ai", "invite_links", "plan", "merge_rules",
		"created_at", "updated_at"}
)

// timeColumns are the timestamp columns of the membership statement. On SQLite they are read as
// text and parsed here: the driver parses a TIMESTAMP column itself, trying a layout that never
// matches Bun's first (an error allocated per column, a tenth of the request's CPU).
var timeColumns = map[string]bool{"joined_at": true, "last_seen_at": true, "created_at": true, "updated_at": true}

// membershipSQL selects a user's membership of an organization with its organization. The
// foreign key makes the inner join exact. The member's user is the viewer, whom the token
// already named: joining users too cost a third lookup and 7 of 31 columns (on SQLite the driver
// copies every column's name and text on every statement).
func membershipSQL(d Dialect, userID, orgID bun.Safe) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for _, t := range []struct {
		alias   string
		columns []string
	}{{"m", memberColumns}, {"o", orgColumns}} {
		for _, c := range t.columns {
			if b.Len() > len("SELECT ") {
				b.WriteString(", ")
			}
			if d == SQLite && timeColumns[c] {
				b.WriteString("CAST(" + t.alias + "." + c + " AS TEXT)") // an expression: no declared type
			} else {
				b.WriteString(t.alias + "." + c)
			}
		}
	}
	fmt.Fprintf(&b, " FROM organization_members AS m JOIN organizations AS o ON o.id = m.organization_id WHERE m.user_id = %s AND m.organization_id = %s", userID, orgID)
	return b.String()
}

// scanMemberships scans membershipSQL's rows, in the columns' order.
func scanMemberships(rows *sql.Rows, out *[]*Member) error {
	for rows.Next() {
		o := &Organization{}
		m := &Member{Organization: o}
		var domains string
		if err := rows.Scan(&m.OrganizationID, &m.UserID, &m.Role, &m.Disabled, &m.SSO, timeScan{&m.JoinedAt}, nullTimeScan{&m.LastSeenAt},
			&o.ID, &o.Title, &o.Type, &o.UseCase, &o.CommunityType, &o.Hostname, &domains,
			&o.DefaultRole, &o.DefaultContentSite, &o.LogoURL, &o.SSO, &o.AI, &o.InviteLinks, &o.Plan, &o.MergeRules,
			timeScan{&o.CreatedAt}, timeScan{&o.UpdatedAt}); err != nil {
			return err
		}
		switch domains { // Bun keeps the list as JSON text; the usual empty ones need no decoder
		case "null":
		case "[]":
			o.EmailDomains = []string{}
		default:
			if err := json.Unmarshal([]byte(domains), &o.EmailDomains); err != nil {
				return fmt.Errorf("organization %s email domains: %w", o.ID, err)
			}
		}
		*out = append(*out, m)
	}
	return nil
}

// closePrepared releases the prepared statements.
func (p *prepared) close() {
	for _, st := range []*sql.Stmt{p.tokenByHash, p.membership} {
		if st != nil {
			st.Close()
		}
	}
}

// sqliteTimeLayouts are the SQLite driver's own (modernc.org/sqlite's parseTimeFormats), Bun's
// first, so that a timestamp parsed here equals the one the driver gives Bun's scans.
var sqliteTimeLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

func parseSQLiteTime(s string) (time.Time, error) {
	s = strings.TrimSuffix(s, "Z")
	for _, layout := range sqliteTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized timestamp %q", s)
}
