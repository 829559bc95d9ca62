package rest_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/gitsync"
)

func TestSiteMcpServers(t *testing.T) {
	eachDBRaw(t, func(t *testing.T, e *env, raw *sql.DB) {
		p := newPublishingSite(e, "tools")
		o := p.o
		base := p.path + "/mcp-servers"

		// Without a secret key, headers cannot be kept; a server without any can.
		e.call(o.admin.Token, "POST", base, map[string]any{"name": "Search", "url": "https://mcp.example.com/mcp", "headers": map[string]any{"Authorization": "Bearer s3cr3t-value"}}).wantError(http.StatusBadRequest)
		plain := e.call(o.admin.Token, "POST", base, map[string]any{"name": "Public", "url": "https://public.example.com/mcp", "headers": map[string]any{}}).want(http.StatusCreated).object()
		e.res.GitSync.SecretKey = "a server secret"

		res := e.call(o.admin.Token, "POST", base, map[string]any{"name": "Search", "url": "https://mcp.example.com/mcp", "headers": map[string]any{"Authorization": "Bearer s3cr3t-value", "X-Tenant": "acme"}}).want(http.StatusCreated)
		srv := res.object()
		id := srv["id"].(string)
		loc := "https://bindery.test/v1/orgs/" + o.id + "/sites/" + p.site + "/mcp-servers/" + id
		if srv["object"] != "site-mcp-server" || srv["name"] != "Search" || srv["urls"].(map[string]any)["location"] != loc || res.Header.Get("Location") != loc {
			t.Errorf("created = %v (Location %q)", srv, res.Header.Get("Location"))
		}
		if h := srv["headers"].(map[string]any); len(h) != 2 || h["Authorization"] != "********" || h["X-Tenant"] != "********" {
			t.Errorf("headers = %v, want masked values", h)
		}
		if strings.Contains(string(res.Body), "s3cr3t") {
			t.Errorf("a header value in the answer: %s", res.Body)
		}
		// At rest: sealed, not in clear.
		var sealed, names string
		if err := raw.QueryRow("SELECT headers_sealed, header_names FROM site_mcp_servers WHERE id = '"+id+"'").Scan(&sealed, &names); err != nil {
			t.Fatal(err)
		}
		if sealed == "" || strings.Contains(sealed, "s3cr3t") || strings.Contains(sealed, "acme") || names != `["Authorization","X-Tenant"]` {
			t.Errorf("stored headers: sealed %q, names %q", sealed, names)
		}

		unchanged := e.snapshot(o.admin.Token, base)
		e.wantBadBodies(o.admin.Token, "POST", base,
			badBody{"no name", map[string]any{"url": "https://a.example.com", "headers": map[string]any{}}, "name"},
			badBody{"blank name", map[string]any{"name": " ", "url": "https://a.example.com", "headers": map[string]any{}}, "name"},
			badBody{"long name", map[string]any{"name": strings.Repeat("n", 101), "url": "https://a.example.com", "headers": map[string]any{}}, "name"},
			badBody{"no url", map[string]any{"name": "A", "headers": map[string]any{}}, "url"},
			badBody{"no headers", map[string]any{"name": "A", "url": "https://a.example.com"}, "headers"},
			badBody{"plain http", map[string]any{"name": "A", "url": "http://a.example.com/mcp", "headers": map[string]any{}}, "url"},
			badBody{"credentials in the url", map[string]any{"name": "A", "url": "https://u:p@a.example.com/mcp", "headers": map[string]any{}}, "url"},
			badBody{"relative url", map[string]any{"name": "A", "url": "/mcp", "headers": map[string]any{}}, "url"},
			badBody{"bad header name", map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{"Bad Name": "x"}}, "headers"},
			badBody{"reserved header", map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{"Host": "x"}}, "headers.Host"},
			badBody{"empty header value", map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{"X-A": ""}}, "headers.X-A"},
			badBody{"header value on two lines", map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{"X-A": "a\r\nX-B: b"}}, "headers.X-A"},
			badBody{"long header value", map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{"X-A": strings.Repeat("v", 513)}}, "headers.X-A"},
			badBody{"the mask", map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{"X-A": "********"}}, "headers.X-A"},
		)
		unchanged("bad MCP servers")

		// An update keeping one header by its mask and replacing the other.
		upd := e.call(o.admin.Token, "PATCH", base+"/"+id, map[string]any{"name": "Search v2", "headers": map[string]any{"Authorization": "********", "X-Region": "eu"}}).want(http.StatusOK).object()
		if upd["name"] != "Search v2" || len(upd["headers"].(map[string]any)) != 2 || upd["headers"].(map[string]any)["X-Region"] != "********" {
			t.Errorf("updated = %v", upd)
		}
		e.call(o.admin.Token, "PATCH", base+"/"+id, map[string]any{"headers": map[string]any{"X-Unknown": "********"}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "PATCH", base+"/"+id, map[string]any{"url": "ftp://a.example.com"}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "PATCH", base+"/nope", map[string]any{"name": "x"}).wantError(http.StatusNotFound)
		if err := raw.QueryRow("SELECT headers_sealed FROM site_mcp_servers WHERE id = '" + id + "'").Scan(&sealed); err != nil {
			t.Fatal(err)
		}
		if opened := e.openMcpHeaders(t, sealed); opened["Authorization"] != "Bearer s3cr3t-value" || opened["X-Region"] != "eu" || len(opened) != 2 {
			t.Errorf("headers kept after the update = %v", opened)
		}

		got := e.call(o.admin.Token, "GET", base+"/"+id, nil).want(http.StatusOK).object()
		if got["name"] != "Search v2" || got["url"] != "https://mcp.example.com/mcp" {
			t.Errorf("got = %v", got)
		}
		e.call(o.admin.Token, "GET", base+"/nope", nil).wantError(http.StatusNotFound)

		// Listed by name through both doors, a page at a time.
		var first struct {
			Items []struct{ Name string }
			Count int
			Next  *struct{ Page string }
		}
		e.call(o.admin.Token, "GET", base+"?limit=1", nil).want(http.StatusOK).decode(&first)
		if len(first.Items) != 1 || first.Items[0].Name != "Public" || first.Count != 2 || first.Next == nil {
			t.Fatalf("first page = %+v", first)
		}
		var g struct {
			Organization struct {
				Site struct {
					McpServers struct {
						TotalCount int
						Nodes      []struct {
							Name    string
							Headers []struct{ Name, Value string }
						}
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!, $after: String) { organization(id: $o) { site(id: $s) { mcpServers(first: 1, after: $after) { totalCount nodes { name headers { name value } } } } } }`,
			map[string]any{"o": o.id, "s": p.site, "after": first.Next.Page}).ok(&g)
		if m := g.Organization.Site.McpServers; m.TotalCount != 2 || len(m.Nodes) != 1 || m.Nodes[0].Name != "Search v2" ||
			len(m.Nodes[0].Headers) != 2 || m.Nodes[0].Headers[0].Name != "Authorization" || m.Nodes[0].Headers[0].Value != "********" {
			t.Errorf("GraphQL second page = %+v", m)
		}
		e.wantBadPaging(o.admin.Token, base)

		// GraphQL writes with the same rules.
		var gc struct{ CreateSiteMcpServer struct{ ID, Name string } }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!) { createSiteMcpServer(organizationId: $o, siteId: $s, input: {name: "Docs", url: "https://docs.example.com/mcp", headers: [{name: "X-Key", value: "k"}]}) { id name } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&gc)
		e.wantInvalid("bad url", o.admin, `mutation($o: ID!, $s: ID!) { createSiteMcpServer(organizationId: $o, siteId: $s, input: {name: "Docs", url: "http://docs.example.com", headers: []}) { id } }`,
			map[string]any{"o": o.id, "s": p.site}, "url")
		e.wantInvalid("reserved header", o.admin, `mutation($o: ID!, $s: ID!, $id: ID!) { updateSiteMcpServer(organizationId: $o, siteId: $s, siteMcpServerId: $id, input: {headers: [{name: "Content-Length", value: "1"}]}) { id } }`,
			map[string]any{"o": o.id, "s": p.site, "id": gc.CreateSiteMcpServer.ID}, "headers.Content-Length")
		var gd struct{ DeleteSiteMcpServer bool }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $id: ID!) { deleteSiteMcpServer(organizationId: $o, siteId: $s, siteMcpServerId: $id) }`,
			map[string]any{"o": o.id, "s": p.site, "id": gc.CreateSiteMcpServer.ID}).ok(&gd)
		if !gd.DeleteSiteMcpServer {
			t.Error("GraphQL delete: false")
		}

		// Admins only; another organization learns nothing.
		creator := e.member(o.id, "creator@acme.test", "create")
		e.call(creator.Token, "GET", base, nil).wantError(http.StatusForbidden)
		e.call(creator.Token, "POST", base, map[string]any{"name": "A", "url": "https://a.example.com", "headers": map[string]any{}}).wantError(http.StatusForbidden)
		e.call(p.other.Token, "GET", base+"/"+id, nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "PATCH", base+"/"+id, map[string]any{"name": "x"}).wantError(http.StatusNotFound)
		e.call(p.other.Token, "DELETE", base+"/"+id, nil).wantError(http.StatusNotFound)
		if g := e.gql(p.other.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { mcpServers { totalCount } } } }`, map[string]any{"o": o.id, "s": p.site}); g.code() != "NOT_FOUND" {
			t.Errorf("another organization's GraphQL list: %+v", g.Errors)
		}

		e.call(o.admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusResetContent)
		e.call(o.admin.Token, "DELETE", base+"/"+id, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "DELETE", base+"/"+plain["id"].(string), nil).want(http.StatusResetContent)

		// Every change committed its event, naming the server and never its headers; a delete of
		// nothing, and refused writes, none.
		counts := map[string]int{}
		rows, err := raw.Query("SELECT type, payload, target_label FROM events WHERE type LIKE 'site_mcp_server_%'")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var typ, label string
			var payload sql.NullString
			if err := rows.Scan(&typ, &payload, &label); err != nil {
				t.Fatal(err)
			}
			counts[typ]++
			if strings.Contains(payload.String+label, "s3cr3t") {
				t.Errorf("an event holds a header value: %s %s", payload.String, label)
			}
		}
		if counts["site_mcp_server_created"] != 3 || counts["site_mcp_server_updated"] != 1 || counts["site_mcp_server_deleted"] != 3 {
			t.Errorf("events = %v, want 3 created, 1 updated, 3 deleted", counts)
		}
	})
}

// openMcpHeaders opens stored headers as the server does, with the test's secret key.
func (e *env) openMcpHeaders(t *testing.T, sealed string) map[string]string {
	t.Helper()
	plain, err := gitsync.NewSealerFor("bindery site mcp server headers", e.res.GitSync.SecretKey).Open(sealed)
	if err != nil {
		t.Fatalf("open sealed headers: %v", err)
	}
	out := map[string]string{}
	if err := json.Unmarshal([]byte(plain), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Listing a site's MCP servers costs the same statements however many there are, through both
// doors.
func TestSiteMcpServerListStatements(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "counted")
		o := p.o
		e.res.GitSync.SecretKey = "a server secret"
		base := p.path + "/mcp-servers"
		add := func(n int) {
			for i := range n {
				e.call(o.admin.Token, "POST", base, map[string]any{"name": fmt.Sprintf("Server %d", i), "url": "https://mcp.example.com/mcp",
					"headers": map[string]any{"Authorization": "Bearer x", "X-Team": "docs"}}).want(http.StatusCreated)
			}
		}
		count := func() (int64, int64) {
			var rest, gql atomic.Int64
			e.callCounted(o.admin.Token, "GET", base, nil, &rest).want(http.StatusOK)
			e.gqlCounted(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { mcpServers { totalCount nodes { id name url headers { name value } } } } } }`,
				map[string]any{"o": o.id, "s": p.site}, &gql).ok(nil)
			return rest.Load(), gql.Load()
		}
		add(1)
		count()
		fewREST, fewGQL := count()
		add(9)
		if manyREST, manyGQL := count(); manyREST > fewREST || manyGQL > fewGQL {
			t.Errorf("statements: REST %d → %d, GraphQL %d → %d with 1 → 10 servers", fewREST, manyREST, fewGQL, manyGQL)
		}
	})
}
