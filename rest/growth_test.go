package rest_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
)

// Growth: reading one space and listing an organization's spaces cost the same whatever the
// organization's size (bench/results/2026-11-27-growth.md). The organizations are loaded with bulk
// inserts through the storage models, so that thousands of spaces take a second, not minutes of
// API calls.

// grownOrg is an organization loaded in bulk, with a caller who is an edit member in three teams.
type grownOrg struct {
	id      string
	caller  account
	guest   account
	visible []string // some spaces the caller reads
}

// growthScale is the shape of an organization of n spaces: one space in ten at the root, the rest
// in n/10 collections (n/100 top-level ones with nine children each; one collection in ten
// closed), n/5 members (one in ten a guest) and n/20 teams. Each member is in three teams and
// has a grant on one space; each team has grants on five spaces and one collection. At 10,000
// spaces: 1,000 collections, 2,000 members, 500 teams.
type growthScale struct{ spaces, collections, members, teams int }

func scaleOf(n int) growthScale {
	return growthScale{spaces: n, collections: max(10, n/10), members: max(10, n/5), teams: max(3, n/20)}
}

// bulkDB opens a second handle on the database behind dsn, for bulk loading.
func bulkDB(tb testing.TB, d storage.Dialect, dsn string) *bun.DB {
	tb.Helper()
	if d == storage.Postgres {
		sqldb, err := sql.Open("pgx", dsn)
		if err != nil {
			tb.Fatal(err)
		}
		sqldb.SetMaxOpenConns(1)
		return bun.NewDB(sqldb, pgdialect.New())
	}
	sqldb, err := sql.Open("sqlite", "file:"+dsn+"?_pragma=foreign_keys(1)&_pragma=busy_timeout(10000)")
	if err != nil {
		tb.Fatal(err)
	}
	sqldb.SetMaxOpenConns(1)
	return bun.NewDB(sqldb, sqlitedialect.New())
}

// insertAll inserts rows in batches of 1,000: one statement each.
func insertAll[T any](tb testing.TB, db *bun.DB, rows []*T) {
	tb.Helper()
	for start := 0; start < len(rows); start += 1000 {
		batch := rows[start:min(start+1000, len(rows))]
		if _, err := db.NewInsert().Model(&batch).Exec(context.Background()); err != nil {
			tb.Fatalf("bulk insert: %v", err)
		}
	}
}

// growOrg creates an organization through the API (its admin, the caller and a guest, with
// tokens) and loads the rest of an organization of n spaces in bulk.
func growOrg(tb testing.TB, e *env, db *bun.DB, name string, n int) grownOrg {
	tb.Helper()
	ctx := context.Background()
	sc := scaleOf(n)
	orgID, _ := e.org(name, "admin@"+name+".test")
	o := grownOrg{id: orgID, caller: e.member(orgID, "caller@"+name+".test", "edit"), guest: e.member(orgID, "guest@"+name+".test", "guest")}
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Millisecond) }
	role := func(r string) *string { return &r }

	users := make([]*storage.User, sc.members)
	members := make([]*storage.Member, sc.members)
	for i := range users {
		email := fmt.Sprintf("m%d@%s.test", i, name)
		users[i] = &storage.User{ID: storage.NewID(), DisplayName: fmt.Sprintf("Member %d", i), Email: email, SearchKey: fmt.Sprintf("member %d\n%s", i, email), CreatedAt: at(i)}
		members[i] = &storage.Member{OrganizationID: orgID, UserID: users[i].ID, Role: role([]string{"read", "edit", "comment", "review", "create"}[i%5]), JoinedAt: at(i)}
		if i%10 == 9 {
			members[i].Role = nil
		}
	}
	teams := make([]*storage.Team, sc.teams)
	for i := range teams {
		teams[i] = &storage.Team{ID: storage.NewID(), OrganizationID: orgID, Title: fmt.Sprintf("Team %d", i), TitleKey: fmt.Sprintf("team %d", i), CreatedAt: at(i)}
	}
	var inTeams []*storage.TeamMember
	for i, u := range users {
		for k := range 3 {
			inTeams = append(inTeams, &storage.TeamMember{TeamID: teams[(i*7+k*13)%len(teams)].ID, OrganizationID: orgID, UserID: u.ID, Role: "member", CreatedAt: at(i)})
		}
	}
	inTeams = dedupTeamMembers(inTeams)
	for k := range 3 { // the caller is in three teams too
		inTeams = append(inTeams, &storage.TeamMember{TeamID: teams[(k*5)%len(teams)].ID, OrganizationID: orgID, UserID: o.caller.ID, Role: "member", CreatedAt: at(k)})
	}
	inTeams = dedupTeamMembers(inTeams)

	inherit, closed := "inherit", (*string)(nil)
	top := max(1, sc.collections/10)
	collections := make([]*storage.Collection, sc.collections)
	for i := range collections {
		c := &storage.Collection{ID: storage.NewID(), OrganizationID: orgID, Title: fmt.Sprintf("Collection %d", i), DefaultLevel: &inherit, CreatedAt: at(i), UpdatedAt: at(i)}
		if i >= top {
			c.ParentID = &collections[i%top].ID
		}
		if i%10 == 5 {
			c.DefaultLevel = closed
		}
		collections[i] = c
	}
	spaces := make([]*storage.Space, sc.spaces)
	for i := range spaces {
		s := &storage.Space{ID: storage.NewID(), OrganizationID: orgID, Title: fmt.Sprintf("Space %d", i), EditMode: "live", DefaultLevel: &inherit,
			MergeRules: `{"type":"inherit"}`, RevisionID: storage.NewID(), RevisionSeq: 1, CreatedAt: at(i), UpdatedAt: at(i)}
		if i%10 != 0 {
			s.CollectionID = &collections[i%len(collections)].ID
		}
		spaces[i] = s
	}
	var grants []*storage.Grant
	for i, tm := range teams {
		for k := range 5 {
			grants = append(grants, &storage.Grant{OrganizationID: orgID, TargetKind: storage.TargetSpace, TargetID: spaces[(i*31+k*17)%len(spaces)].ID,
				PrincipalKind: storage.PrincipalTeam, PrincipalID: tm.ID, Role: grantRoles[(i+k)%len(grantRoles)], CreatedAt: at(i)})
		}
		grants = append(grants, &storage.Grant{OrganizationID: orgID, TargetKind: storage.TargetCollection, TargetID: collections[(i*3)%len(collections)].ID,
			PrincipalKind: storage.PrincipalTeam, PrincipalID: tm.ID, Role: "read", CreatedAt: at(i)})
	}
	for i, u := range users {
		grants = append(grants, &storage.Grant{OrganizationID: orgID, TargetKind: storage.TargetSpace, TargetID: spaces[(i*11)%len(spaces)].ID,
			PrincipalKind: storage.PrincipalUser, PrincipalID: u.ID, Role: "edit", CreatedAt: at(i)})
	}
	grants = dedupGrants(grants)

	insertAll(tb, db, users)
	insertAll(tb, db, members)
	insertAll(tb, db, teams)
	insertAll(tb, db, inTeams)
	insertAll(tb, db, collections)
	insertAll(tb, db, spaces)
	insertAll(tb, db, grants)
	if err := e.store.RebuildVisibility(ctx, orgID); err != nil {
		tb.Fatal(err)
	}
	// PostgreSQL's autovacuum would vacuum and analyze the new rows within a minute (the
	// index-only counts need its visibility map); SQLite plans without statistics, as Bindery
	// leaves it.
	if db.Dialect().Name() == dialect.PG {
		if _, err := db.ExecContext(ctx, "VACUUM ANALYZE"); err != nil {
			tb.Fatal(err)
		}
	}
	for i := 0; i < len(spaces) && len(o.visible) < 50; i += 10 { // root spaces: open to members
		o.visible = append(o.visible, spaces[i].ID)
	}
	return o
}

func dedupTeamMembers(rows []*storage.TeamMember) []*storage.TeamMember {
	seen := map[[2]string]bool{}
	var out []*storage.TeamMember
	for _, r := range rows {
		if k := [2]string{r.TeamID, r.UserID}; !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

func dedupGrants(rows []*storage.Grant) []*storage.Grant {
	seen := map[[3]string]bool{}
	var out []*storage.Grant
	for _, r := range rows {
		if k := [3]string{r.TargetID, r.PrincipalKind, r.PrincipalID}; !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

const (
	growthListQuery  = `query($o: ID!) { organization(id: $o) { spaces(first: 100) { totalCount nodes { id title permissions { view edit admin } } } } }`
	growthSpaceQuery = `query($id: ID!) { space(id: $id) { id title permissions { view edit admin } } }`
)

func TestSpaceStatementsDoNotGrowWithTheOrganization(t *testing.T) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			dsn := storagetest.DSN(t, d)
			// A synctest bubble, as eachDBCounting: the loaders' waits end only when every
			// sibling is blocked, so the counts do not depend on the machine's load.
			synctest.Test(t, func(t *testing.T) { spaceStatementsDoNotGrow(t, d, dsn) })
		})
	}
}

func spaceStatementsDoNotGrow(t *testing.T, d storage.Dialect, dsn string) {
	store, err := storage.Open(context.Background(), dsn, storage.WithMaxConns(storagetest.MaxConns))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if err := store.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, store)
	db := bulkDB(t, d, dsn)
	defer db.Close()
	small, large := growOrg(t, e, db, "small", 100), growOrg(t, e, db, "large", 1000)

	type counts struct{ restList, gqlList, restGet, gqlGet int64 }
	measure := func(o grownOrg, who account) counts {
		t.Helper()
		var c [4]atomic.Int64
		var l spaceList
		e.callCounted(who.Token, "GET", "/orgs/"+o.id+"/spaces?limit=100", nil, &c[0]).want(http.StatusOK).decode(&l)
		if who == o.caller && len(l.Items) < 90 { // one collection in ten is closed
			t.Fatalf("the caller lists %d spaces, want a page of 90 to 100", len(l.Items))
		}
		var gl struct {
			Organization struct {
				Spaces struct{ Nodes []struct{ ID string } }
			}
		}
		if e.gqlCounted(who.Token, growthListQuery, map[string]any{"o": o.id}, &c[1]).ok(&gl); len(gl.Organization.Spaces.Nodes) != len(l.Items) {
			t.Fatalf("GraphQL lists %d spaces, REST %d", len(gl.Organization.Spaces.Nodes), len(l.Items))
		}
		// Every read whose statements are counted is asserted (two failures would count
		// equal): the caller reads the space, the guest, with no grant, is refused it.
		get := e.callCounted(who.Token, "GET", "/spaces/"+o.visible[3], nil, &c[2])
		one := e.gqlCounted(who.Token, growthSpaceQuery, map[string]any{"id": o.visible[3]}, &c[3])
		if who == o.guest {
			get.wantError(http.StatusNotFound)
			if one.code() != "NOT_FOUND" {
				t.Fatalf("GraphQL get as the guest: %+v", one.Errors)
			}
		} else {
			var space struct{ Space struct{ ID string } }
			one.ok(&space)
			if get.want(http.StatusOK).object()["id"] != o.visible[3] || space.Space.ID != o.visible[3] {
				t.Fatalf("the caller's gets: REST %s, GraphQL %s; want %s", get.Body, one.Data, o.visible[3])
			}
		}
		return counts{c[0].Load(), c[1].Load(), c[2].Load(), c[3].Load()}
	}
	for _, who := range []string{"an edit member in three teams", "a guest"} {
		a, b := small.caller, large.caller
		if who == "a guest" {
			a, b = small.guest, large.guest
		}
		few, many := measure(small, a), measure(large, b)
		if few != many {
			t.Errorf("%s: statements grew from 100 to 1,000 spaces (REST list, GraphQL list, REST get, GraphQL get): %+v → %+v", who, few, many)
		}
	}
}
