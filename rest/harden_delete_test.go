package rest_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// eachDBRaw is eachDB with a second, plain connection to the same database, to look at every
// table behind the application's back.
func eachDBRaw(t *testing.T, fn func(t *testing.T, e *env, raw *sql.DB)) {
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			dsn := storagetest.DSN(t, d)
			s, err := storage.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			if err := s.Migrate(context.Background()); err != nil {
				t.Fatal(err)
			}
			driver := "pgx"
			if d == storage.SQLite {
				driver = "sqlite"
			}
			raw, err := sql.Open(driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { raw.Close() })
			fn(t, newEnv(t, s), raw)
		})
	}
}

// rowCounts counts the rows of every table.
func rowCounts(t *testing.T, raw *sql.DB) map[string]int {
	t.Helper()
	q := `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`
	if raw.Driver() != nil && fmt.Sprintf("%T", raw.Driver()) != "*stdlib.Driver" {
		q = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	}
	rows, err := raw.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	counts := map[string]int{}
	for _, table := range tables {
		var n int
		if err := raw.QueryRow(`SELECT count(*) FROM "` + table + `"`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		counts[table] = n
	}
	return counts
}

func randomID() string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// Issue 12, finding 9: a DELETE of another organization's resource answers exactly as for an id
// that does not exist (204, or the same GraphQL answer), so an outsider cannot learn which ids
// exist, and deletes nothing: every DELETE route of the matrix, through both doors, with every
// table's row count unchanged.
func TestCrossOrganizationDeleteChangesNothing(t *testing.T) {
	eachDBRaw(t, func(t *testing.T, e *env, raw *sql.DB) {
		orgID, admin := e.org("Victim", "admin@victim.test")
		_, outsider := e.org("Outsider", "admin@outsider.test")
		n := 0
		newFixture := func(path string) fixture {
			n++
			f := fixture{org: orgID, admin: admin.ID, victim: e.member(orgID, fmt.Sprintf("victim%d@victim.test", n), "read").ID}
			if strings.Contains(path, "invite") {
				f.invite = e.call(admin.Token, "POST", "/orgs/"+orgID+"/link-invites", `{"role":"read"}`).want(http.StatusCreated).object()["id"].(string)
			}
			f.space, f.collection, f.team = e.matrixContent(path, admin, orgID, f.victim)
			if strings.Contains(path, "change-requests") || strings.Contains(path, "comment") {
				f.page, f.file, f.changeRequest, f.revision = e.matrixPages(admin, f.space)
			}
			if strings.Contains(path, "comment") || strings.Contains(path, "review") {
				f.comment, f.reply, f.crComment, f.crReply, f.review = e.matrixDiscussion(admin, f.space, f.changeRequest)
			}
			if strings.Contains(path, "sites/{siteId}") || strings.Contains(path, "/custom-hostnames") {
				f.site, f.siteSpace, f.shareLink, _ = e.matrixSite(admin, orgID)
				if strings.Contains(path, "section") {
					f.section, f.group = e.matrixSections(admin, orgID, f.site)
				}
				if strings.Contains(path, "/redirects") {
					f.redirect = e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites/"+f.site+"/redirects",
						map[string]any{"source": "/old", "destination": map[string]any{"kind": "site-space", "siteSpaceId": f.siteSpace}}).want(http.StatusCreated).object()["id"].(string)
				}
				if strings.Contains(path, "/mcp-servers") {
					f.mcpServer = e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites/"+f.site+"/mcp-servers",
						map[string]any{"name": "Victim's", "url": "https://mcp.example.com/mcp", "headers": map[string]any{}}).want(http.StatusCreated).object()["id"].(string)
				}
				if strings.Contains(path, "/custom-hostnames") {
					f.hostname = fmt.Sprintf("docs%d.victim.test", n)
					e.gql(admin.Token, `mutation($o: ID!, $s: ID!, $h: String) { setSiteHostname(organizationId: $o, siteId: $s, hostname: $h) { status } }`,
						map[string]any{"o": orgID, "s": f.site, "h": f.hostname}).ok(nil)
				}
			}
			if strings.Contains(path, "translation") {
				f.translation, f.glossaryEntry, _ = e.matrixTranslation(admin, orgID)
			}
			if strings.Contains(path, "/user/tokens") {
				// Another user's token (the victim's): its owner is none of the outsider's.
				tokens, err := e.res.ListAllAPITokens(e.t.Context(), fmt.Sprintf("victim%d@victim.test", n))
				if err != nil || len(tokens) != 1 {
					e.t.Fatalf("victim's tokens: %v, %v", tokens, err)
				}
				f.token = tokens[0].ID
			}
			if strings.Contains(path, "webhook") {
				e.matrixEvents(path, admin, &f)
			}
			if strings.Contains(path, "/saml") {
				f.samlProvider = e.call(admin.Token, "POST", "/orgs/"+orgID+"/saml", `{"label":"Victim's"}`).want(http.StatusCreated).object()["id"].(string)
			}
			if strings.Contains(path, "/fonts") {
				f.fontKey, _ = e.uploadFont(admin.Token, orgID, fontBytes, len(fontBytes))
				f.font = e.call(admin.Token, "PUT", "/orgs/"+orgID+"/fonts", map[string]any{"fontFamily": "Victim font", "fontFaces": []any{map[string]any{"weight": 400, "storageKey": f.fontKey}}}).want(http.StatusCreated).object()["id"].(string)
			}
			return f
		}
		// missing has a fresh, unused id wherever f has one.
		missing := func(f fixture) fixture {
			for _, id := range []*string{&f.org, &f.admin, &f.victim, &f.invite, &f.space, &f.collection, &f.team, &f.site, &f.siteSpace,
				&f.shareLink, &f.page, &f.file, &f.changeRequest, &f.revision, &f.section, &f.group, &f.comment, &f.reply,
				&f.crComment, &f.crReply, &f.review, &f.translation, &f.glossaryEntry, &f.token, &f.webhook, &f.delivery, &f.samlProvider, &f.redirect, &f.mcpServer, &f.font} {
				if *id != "" {
					*id = randomID()
				}
			}
			if f.hostname != "" {
				f.hostname = strings.ToLower(randomID()) + ".missing.test"
			}
			return f
		}
		vars := func(f fixture) map[string]any {
			return map[string]any{"o": f.org, "u": f.victim, "a": f.admin, "i": f.invite, "s": f.space, "c": f.collection, "t": f.team,
				"si": f.site, "ss": f.siteSpace, "sl": f.shareLink, "sc": f.section, "sg": f.group,
				"cr": f.changeRequest, "r": f.revision, "p": f.page, "f": f.file,
				"cm": f.comment, "rp": f.reply, "ccm": f.crComment, "crp": f.crReply, "rv": f.review,
				"tr": f.translation, "ge": f.glossaryEntry, "tk": f.token, "wh": f.webhook, "wd": f.delivery, "saml": f.samlProvider,
				"rd": f.redirect, "mcp": f.mcpServer, "h": f.hostname, "fo": f.font}
		}
		routes := 0
		for _, c := range matrix {
			if c.method != "DELETE" {
				continue
			}
			routes++
			f := newFixture(c.path)
			absent := missing(f)
			before := rowCounts(t, raw)
			real := e.call(outsider.Token, c.method, c.url(f), nil)
			fake := e.call(outsider.Token, c.method, c.url(absent), nil)
			if real.Status != fake.Status || string(real.Body) != string(fake.Body) {
				t.Errorf("REST %s %s: another organization's id answers %d %s, a missing one %d %s", c.method, c.path, real.Status, real.Body, fake.Status, fake.Body)
			}
			gReal := e.gql(outsider.Token, c.gql, vars(f))
			gFake := e.gql(outsider.Token, c.gql, vars(absent))
			if fmt.Sprint(gReal.Errors, string(gReal.Data)) != fmt.Sprint(gFake.Errors, string(gFake.Data)) {
				t.Errorf("GraphQL %s: another organization's id answers %v %s, a missing one %v %s", c.path, gReal.Errors, gReal.Data, gFake.Errors, gFake.Data)
			}
			if after := rowCounts(t, raw); !reflect.DeepEqual(before, after) {
				for table, n := range before {
					if after[table] != n {
						t.Errorf("%s %s by an outsider changed %s: %d rows, then %d", c.method, c.path, table, n, after[table])
					}
				}
			}
		}
		if routes < 15 {
			t.Errorf("only %d DELETE routes in the matrix", routes)
		}
	})
}
