package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds a token to every request of an MCP client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	if b.token != "" {
		r.Header.Set("Authorization", "Bearer "+b.token)
	}
	return b.next.RoundTrip(r)
}

// mcpSession connects the official SDK's client to endpoint as token (none when empty).
func (e *env) mcpSession(endpoint, token string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil)
	return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}, nil)
}

// callTool calls a tool and returns its text, and whether it reported an error.
func callTool(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func toolNames(t *testing.T, s *mcp.ClientSession) []string {
	t.Helper()
	list, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func TestMCPSite(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newAskOrg(e)
		e.createPage(o.admin.Token, target(o.guides, ""), map[string]any{"title": "Pro tokens",
			"markdown": "Tokens for everyone.\n\n{% if visitor.claims.plan == \"pro\" %}\nPro token holders get the swordfish vault.\n{% endif %}\n"})
		site := e.call(o.admin.Token, "POST", "/orgs/"+o.org+"/sites", `{"title":"Docs","spaces":["`+o.guides+`"]}`).want(201).object()["id"].(string)
		e.call(o.admin.Token, "PATCH", "/orgs/"+o.org+"/sites/"+site, `{"basename":"docs"}`).want(200)
		srv := httptest.NewServer(e.h)
		defer srv.Close()

		s, err := e.mcpSession(srv.URL+"/sites/docs/~gitbook/mcp", "")
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if got := toolNames(t, s); !slices.Equal(got, []string{"get_page", "search_documentation"}) {
			t.Errorf("tools = %q", got)
		}
		found, isErr := callTool(t, s, "search_documentation", map[string]any{"query": "create API token"})
		if isErr || !strings.Contains(found, "https://bindery.test/sites/docs/api-tokens") {
			t.Errorf("search = %s", found)
		}
		page, isErr := callTool(t, s, "get_page", map[string]any{"url": "https://bindery.test/sites/docs/pro-tokens"})
		if isErr || !strings.Contains(page, "Tokens for everyone.") || strings.Contains(page, "swordfish") {
			t.Errorf("page = %s (a visitor without the claim must not read the conditional block)", page)
		}
		if msg, isErr := callTool(t, s, "get_page", map[string]any{"url": "nope/never"}); !isErr || !strings.Contains(msg, "not found") {
			t.Errorf("missing page = %s", msg)
		}
		resources, err := s.ListResources(context.Background(), nil)
		if err != nil || len(resources.Resources) != 2 {
			t.Fatalf("resources = %+v, %v", resources, err)
		}
		read, err := s.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: resources.Resources[0].URI})
		if err != nil || len(read.Contents) != 1 || read.Contents[0].Text == "" {
			t.Errorf("read %s = %+v, %v", resources.Resources[0].URI, read, err)
		}

		// A share-link site answers only with its key; a site that does not exist, never.
		e.call(o.admin.Token, "PATCH", "/orgs/"+o.org+"/sites/"+site, `{"visibility":"share-link"}`).want(200)
		if _, err := e.mcpSession(srv.URL+"/sites/docs/~gitbook/mcp", ""); err == nil {
			t.Error("a share-link site answered MCP without its key")
		}
		link := e.call(o.admin.Token, "POST", "/orgs/"+o.org+"/sites/"+site+"/share-links", `{"name":"agents"}`).want(201).object()
		key := strings.SplitN(link["urls"].(map[string]any)["published"].(string), "?share=", 2)[1]
		shared, err := e.mcpSession(srv.URL+"/sites/docs/~gitbook/mcp?share="+key, "")
		if err != nil {
			t.Fatalf("with its key: %v", err)
		}
		shared.Close()
		if _, err := e.mcpSession(srv.URL+"/sites/nope/~gitbook/mcp", ""); err == nil {
			t.Error("a missing site answered MCP")
		}
	})
}

func TestMCPOrganization(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		o := newAskOrg(e)
		srv := httptest.NewServer(e.h)
		defer srv.Close()
		if _, err := e.mcpSession(srv.URL+"/mcp", ""); err == nil {
			t.Fatal("/mcp answered without a token")
		}

		s, err := e.mcpSession(srv.URL+"/mcp", o.guest.Token)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		want := []string{"comment", "edit_page", "list_organizations", "list_spaces", "open_change_request", "read_page", "search"}
		if got := toolNames(t, s); !slices.Equal(got, want) {
			t.Errorf("tools = %q", got)
		}
		if orgs, _ := callTool(t, s, "list_organizations", nil); !strings.Contains(orgs, o.org) {
			t.Errorf("organizations = %s", orgs)
		}
		// The guest sees the space they were given, and nothing of the closed one.
		spaces, _ := callTool(t, s, "list_spaces", map[string]any{"organizationId": o.org})
		if !strings.Contains(spaces, o.guides) || strings.Contains(spaces, o.secret) {
			t.Errorf("guest's spaces = %s", spaces)
		}
		found, _ := callTool(t, s, "search", map[string]any{"organizationId": o.org, "query": "token"})
		if !strings.Contains(found, o.tokensPage) || strings.Contains(found, "launch codes") {
			t.Errorf("guest's search = %s", found)
		}
		if msg, isErr := callTool(t, s, "read_page", map[string]any{"spaceId": o.secret, "path": "api-token-launch-codes"}); !isErr || strings.Contains(msg, "swordfish") {
			t.Errorf("guest read the closed space: %s", msg)
		}
		if _, isErr := callTool(t, s, "open_change_request", map[string]any{"spaceId": o.guides, "subject": "Agent draft"}); !isErr {
			t.Error("a reader opened a change request")
		}

		// The admin drafts a change for review: a change request, an edit in it, a comment.
		a, err := e.mcpSession(srv.URL+"/mcp", o.admin.Token)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		page, isErr := callTool(t, a, "read_page", map[string]any{"spaceId": o.guides, "pageId": o.tokensPage})
		if isErr || !strings.Contains(page, "bindery admin token create") {
			t.Errorf("page = %s", page)
		}
		opened, isErr := callTool(t, a, "open_change_request", map[string]any{"spaceId": o.guides, "subject": "Agent draft"})
		if isErr {
			t.Fatalf("open change request: %s", opened)
		}
		var cr struct{ ID string }
		decodeJSON(t, opened, &cr)
		if msg, isErr := callTool(t, a, "edit_page", map[string]any{"spaceId": o.guides, "changeRequestId": cr.ID, "pageId": o.tokensPage, "markdown": "Tokens are made with the CLI."}); isErr {
			t.Fatalf("edit: %s", msg)
		}
		if msg, isErr := callTool(t, a, "edit_page", map[string]any{"spaceId": o.guides, "pageId": o.tokensPage, "markdown": "Straight to main."}); !isErr {
			t.Errorf("an edit outside a change request: %s", msg)
		}
		if msg, isErr := callTool(t, a, "comment", map[string]any{"spaceId": o.guides, "changeRequestId": cr.ID, "markdown": "Drafted by an agent."}); isErr {
			t.Fatalf("comment: %s", msg)
		}
		drafted, _ := callTool(t, a, "read_page", map[string]any{"spaceId": o.guides, "changeRequestId": cr.ID, "pageId": o.tokensPage})
		current, _ := callTool(t, a, "read_page", map[string]any{"spaceId": o.guides, "pageId": o.tokensPage})
		if !strings.Contains(drafted, "Tokens are made with the CLI.") || strings.Contains(current, "made with the CLI") {
			t.Errorf("draft = %s\ncurrent = %s", drafted, current)
		}
		e.call(o.admin.Token, "GET", "/spaces/"+o.guides+"/change-requests/"+cr.ID+"/comments", nil).want(200)

		// A token of another organization sees nothing of this one, not even that it exists.
		_, stranger := e.org("Other", "admin@other.test")
		x, err := e.mcpSession(srv.URL+"/mcp", stranger.Token)
		if err != nil {
			t.Fatal(err)
		}
		defer x.Close()
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"list_spaces", map[string]any{"organizationId": o.org}},
			{"search", map[string]any{"organizationId": o.org, "query": "token"}},
			{"read_page", map[string]any{"spaceId": o.guides, "pageId": o.tokensPage}},
			{"open_change_request", map[string]any{"spaceId": o.guides, "subject": "x"}},
		} {
			if msg, isErr := callTool(t, x, call.tool, call.args); !isErr || !strings.Contains(msg, "not found") {
				t.Errorf("stranger's %s = %s, want not found", call.tool, msg)
			}
		}
	})
}

func decodeJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
}
