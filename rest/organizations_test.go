package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func TestAuthentication(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		_, admin := e.org("Acme", "admin@acme.test")
		for _, tt := range []struct{ name, token string }{
			{"missing token", ""},
			{"unknown token", "bdy_" + strings.Repeat("x", 40)},
			{"not a bindery token", "ghp_abc"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				e.call(tt.token, "GET", "/user", nil).wantError(http.StatusUnauthorized)
				g := e.gql(tt.token, `{ viewer { id } }`, nil)
				if g.Status != http.StatusUnauthorized || g.code() != "UNAUTHENTICATED" {
					t.Errorf("GraphQL: status %d code %q, want 401 UNAUTHENTICATED", g.Status, g.code())
				}
			})
		}
		t.Run("expired token", func(t *testing.T) {
			c, err := e.res.CreateToken(t.Context(), admin.Email, 1) // expires after 1ns of the test clock
			if err != nil {
				t.Fatal(err)
			}
			e.res.Now() // the clock moves on a millisecond
			e.call(c.Token, "GET", "/user", nil).wantError(http.StatusUnauthorized)
		})
		e.call(admin.Token, "GET", "/user", nil).want(http.StatusOK)
	})
}

func TestAPIInformationAndUsers(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		_, stranger := e.org("Other", "other@other.test")

		info := e.call(admin.Token, "GET", "/", nil).want(http.StatusOK).object()
		if info["version"] != "test" || info["build"] != "go-test" {
			t.Errorf("GET / = %v", info)
		}
		me := e.call(reader.Token, "GET", "/user", nil).want(http.StatusOK)
		golden(t, "user", me.Body)
		if got := me.object()["id"]; got != reader.ID {
			t.Errorf("GET /user id = %v, want %s", got, reader.ID)
		}
		// A co-member is visible; a user of another organization does not exist for the caller.
		if got := e.call(reader.Token, "GET", "/users/"+admin.ID, nil).want(http.StatusOK).object()["email"]; got != admin.Email {
			t.Errorf("co-member email = %v", got)
		}
		e.call(reader.Token, "GET", "/users/"+stranger.ID, nil).wantError(http.StatusNotFound)
		e.call(reader.Token, "GET", "/users/nope", nil).wantError(http.StatusNotFound)

		var data struct {
			Viewer struct{ ID, Email string }
			Info   struct{ Version string } `json:"apiInformation"`
		}
		e.gql(reader.Token, `{ viewer { id email } apiInformation { version } }`, nil).ok(&data)
		if data.Viewer.ID != reader.ID || data.Info.Version != "test" {
			t.Errorf("GraphQL viewer = %+v", data)
		}
		e.wantRefusals(`query($id: ID!) { user(id: $id) { id } }`, gqlRefusal{"stranger user", reader, map[string]any{"id": stranger.ID}, "NOT_FOUND"})
	})
}

func TestGetOrganization(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		guest := e.member(orgID, "guest@acme.test", "guest")
		outsider := e.member("", "outsider@acme.test", "")
		_, other := e.org("Other", "other@other.test")

		golden(t, "organization_admin", e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK).Body)
		golden(t, "organization_reader", e.call(reader.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK).Body)
		perms := e.call(guest.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK).object()["permissions"].(map[string]any)
		if perms["view"] != true || perms["listMembers"] != false || perms["admin"] != false {
			t.Errorf("guest permissions = %v", perms)
		}
		// Existence is never revealed: a missing id and someone else's look the same.
		for _, tok := range []string{outsider.Token, other.Token} {
			msg := e.call(tok, "GET", "/orgs/"+orgID, nil).wantError(http.StatusNotFound)
			if missing := e.call(tok, "GET", "/orgs/doesnotexist", nil).wantError(http.StatusNotFound); missing != msg {
				t.Errorf("not-found messages differ: %q vs %q", msg, missing)
			}
			g := e.gql(tok, `query($id: ID!) { organization(id: $id) { id } }`, map[string]any{"id": orgID})
			if g.code() != "NOT_FOUND" {
				t.Errorf("GraphQL code = %q, want NOT_FOUND", g.code())
			}
		}
		var data struct {
			Organization struct {
				Title       string
				Plan        string
				Permissions struct{ Admin bool }
				MergeRules  struct{ Type string }
			}
		}
		e.gql(admin.Token, `query($id: ID!) { organization(id: $id) { title plan permissions { admin } mergeRules { type } } }`, map[string]any{"id": orgID}).ok(&data)
		if data.Organization.Title != "Acme" || data.Organization.Plan != "ENTERPRISE_2024" || !data.Organization.Permissions.Admin || data.Organization.MergeRules.Type != "NONE" {
			t.Errorf("GraphQL organization = %+v", data.Organization)
		}
	})
}

func TestListOrganizationsPaginates(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Org 0", "admin@acme.test")
		user := e.member(orgID, "user@acme.test", "read")
		for i := 1; i < 5; i++ {
			other, _ := e.org(fmt.Sprintf("Org %d", i), fmt.Sprintf("admin%d@acme.test", i))
			e.call(admin.Token, "GET", "/orgs", nil) // unrelated traffic
			if i%2 == 0 {
				if _, err := e.store.AddMember(t.Context(), other, user.ID, nil, e.res.Now()); err != nil {
					t.Fatal(err)
				}
			}
		}
		var titles []string
		path := "/orgs?limit=2"
		for pages := 0; ; pages++ {
			var page struct {
				Items []struct{ Title string }
				Count int
				Next  *struct{ Page string }
			}
			e.call(user.Token, "GET", path, nil).want(http.StatusOK).decode(&page)
			if page.Count != 3 {
				t.Errorf("count = %d, want 3", page.Count)
			}
			for _, it := range page.Items {
				titles = append(titles, it.Title)
			}
			if page.Next == nil {
				break
			}
			if pages > 3 {
				t.Fatal("pagination does not end")
			}
			path = "/orgs?limit=2&page=" + page.Next.Page
		}
		if strings.Join(titles, ",") != "Org 0,Org 2,Org 4" {
			t.Errorf("titles = %v", titles)
		}

		// The GraphQL cursor is the REST page token.
		var rest struct{ Next struct{ Page string } }
		e.call(user.Token, "GET", "/orgs?limit=1", nil).want(http.StatusOK).decode(&rest)
		var data struct {
			Organizations struct {
				TotalCount int
				PageInfo   struct {
					HasNextPage bool
					EndCursor   string
				}
				Edges []struct{ Cursor string }
			}
		}
		e.gql(user.Token, `{ organizations(first: 1) { totalCount pageInfo { hasNextPage endCursor } edges { cursor } } }`, nil).ok(&data)
		if data.Organizations.PageInfo.EndCursor != rest.Next.Page || data.Organizations.Edges[0].Cursor != rest.Next.Page || !data.Organizations.PageInfo.HasNextPage || data.Organizations.TotalCount != 3 {
			t.Errorf("GraphQL page = %+v, REST next = %q", data.Organizations, rest.Next.Page)
		}

		e.wantBadPaging(user.Token, "/orgs", "limit=abc", "page="+rest.Next.Page+"x")
		e.wantRefusals(`{ organizations(first: 1001) { totalCount } }`, gqlRefusal{"first: 1001", user, nil, "INVALID"})
		// limit=0 means the default page size.
		var all struct{ Items []any }
		e.call(user.Token, "GET", "/orgs?limit=0", nil).want(http.StatusOK).decode(&all)
		if len(all.Items) != 3 {
			t.Errorf("limit=0 gave %d items, want all 3", len(all.Items))
		}
	})
}

func TestUpdateOrganization(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		editor := e.member(orgID, "editor@acme.test", "edit")
		otherID, _ := e.org("Other", "other@other.test")
		before := e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK).Body

		for _, tt := range []struct {
			name, body, field string
		}{
			{"title too short", `{"title":"A"}`, "title"},
			{"title too long", `{"title":"` + strings.Repeat("a", 256) + `"}`, "title"},
			{"title wrong type", `{"title":5}`, "title"},
			{"title null", `{"title":null}`, "title"},
			{"malformed JSON", `{"title":`, "body"},
			{"not an object", `[1]`, "body"},
			{"bad domain", `{"emailDomains":["not a domain"]}`, "emailDomains[0]"},
			{"bad role", `{"defaultRole":"owner"}`, "defaultRole"},
			{"bad hostname", `{"hostname":"No Spaces"}`, "hostname"},
			{"bad logo", `{"logo":"ftp://x"}`, "logo"},
			{"sso null", `{"sso":null}`, "sso"},
			{"bad merge rule", `{"mergeRules":{"type":"rules","rules":[{"rule":"bogus"}]}}`, "mergeRules.rules[0].rule"},
			{"inherit for org", `{"mergeRules":{"type":"inherit"}}`, "mergeRules.type"},
			{"merge rule user not a member", `{"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["nobody"]}]}}`, "mergeRules.rules[0].users[0]"},
			{"unknown site", `{"defaultContent":{"type":"site","site":"s1"}}`, "defaultContent.site"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				msg := e.call(admin.Token, "PATCH", "/orgs/"+orgID, tt.body).wantError(http.StatusBadRequest)
				if !strings.HasPrefix(msg, tt.field) {
					t.Errorf("message %q does not name %s", msg, tt.field)
				}
			})
		}
		if after := e.call(admin.Token, "GET", "/orgs/"+orgID, nil).Body; string(after) != string(before) {
			t.Errorf("rejected patches changed the organization:\n%s\n%s", before, after)
		}

		e.call(editor.Token, "PATCH", "/orgs/"+orgID, `{"title":"Mine"}`).wantError(http.StatusForbidden)
		e.call(e.member("", "x@x.test", "").Token, "PATCH", "/orgs/"+orgID, `{"title":"Mine"}`).wantError(http.StatusNotFound)

		body := `{"title":"Acme Docs","emailDomains":["Acme.test","acme.test"],"hostname":"acme","defaultRole":"read",
			"logo":"https://acme.test/logo.png","sso":true,"ai":true,"inviteLinks":false,
			"mergeRules":{"type":"rules","rules":[{"rule":"require_specific_reviewers","users":["` + editor.ID + `"]},{"rule":"require_change_request_subject"}]}}`
		got := e.call(admin.Token, "PATCH", "/orgs/"+orgID, body).want(http.StatusOK)
		golden(t, "organization_updated", got.Body)
		if reread := e.call(admin.Token, "GET", "/orgs/"+orgID, nil).Body; string(reread) != string(got.Body) {
			t.Errorf("GET after PATCH differs:\n%s\n%s", got.Body, reread)
		}
		// null clears; absent fields stay.
		cleared := e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"defaultRole":null,"logo":null,"hostname":null}`).want(http.StatusOK).object()
		if cleared["defaultRole"] != nil || cleared["hostname"] != nil || cleared["urls"].(map[string]any)["logo"] != nil || cleared["title"] != "Acme Docs" {
			t.Errorf("after clearing: %v", cleared)
		}
		// The default content points at one of the organization's sites; null clears it.
		site := e.call(admin.Token, "POST", "/orgs/"+orgID+"/sites", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		pointed := e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"defaultContent":{"type":"site","site":"`+site+`"}}`).want(http.StatusOK).object()
		if dc, _ := pointed["defaultContent"].(map[string]any); dc["site"] != site || dc["type"] != "site" {
			t.Errorf("defaultContent = %v", pointed["defaultContent"])
		}
		if cleared := e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"defaultContent":null}`).want(http.StatusOK).object(); cleared["defaultContent"] != nil {
			t.Errorf("defaultContent after null = %v", cleared["defaultContent"])
		}
		e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"defaultContent":{"type":"site","site":"`+site+`"}}`).want(http.StatusOK)
		e.call(admin.Token, "DELETE", "/orgs/"+orgID+"/sites/"+site, nil).want(http.StatusNoContent)
		if after := e.call(admin.Token, "GET", "/orgs/"+orgID, nil).object(); after["defaultContent"] != nil {
			t.Errorf("defaultContent after deleting its site = %v", after["defaultContent"])
		}

		// Hostnames are unique across organizations.
		e.call(admin.Token, "PATCH", "/orgs/"+orgID, `{"hostname":"taken"}`).want(http.StatusOK)
		_, otherAdminToken := otherID, e.member(otherID, "admin2@other.test", "admin").Token
		e.call(otherAdminToken, "PATCH", "/orgs/"+otherID, `{"hostname":"taken"}`).wantError(http.StatusConflict)

		// GraphQL: the same rules, the same state.
		var data struct {
			UpdateOrganization struct {
				Title       string
				DefaultRole *string
				MergeRules  struct{ Type string }
			}
		}
		e.gql(admin.Token, `mutation($id: ID!) { updateOrganization(id: $id, input: {title: "Via GraphQL", defaultRole: COMMENT, mergeRules: {type: NONE}}) { title defaultRole mergeRules { type } } }`,
			map[string]any{"id": orgID}).ok(&data)
		if data.UpdateOrganization.Title != "Via GraphQL" || *data.UpdateOrganization.DefaultRole != "COMMENT" || data.UpdateOrganization.MergeRules.Type != "NONE" {
			t.Errorf("GraphQL update = %+v", data.UpdateOrganization)
		}
		if got := e.call(admin.Token, "GET", "/orgs/"+orgID, nil).object(); got["title"] != "Via GraphQL" || got["defaultRole"] != "comment" {
			t.Errorf("REST after GraphQL update = %v", got)
		}
		e.wantInvalid("invalid title", admin, `mutation($id: ID!) { updateOrganization(id: $id, input: {title: "x"}) { title } }`, map[string]any{"id": orgID}, "title")
		e.wantRefusals(`mutation($id: ID!) { updateOrganization(id: $id, input: {title: "Mine"}) { title } }`, gqlRefusal{"editor update", editor, map[string]any{"id": orgID}, "FORBIDDEN"})
	})
}

func TestAgentInstructions(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Acme", "admin@acme.test")
		reader := e.member(orgID, "reader@acme.test", "read")
		empty := e.call(reader.Token, "GET", "/orgs/"+orgID+"/agent-instructions", nil).want(http.StatusOK).object()
		if doc := empty["instructions"].(map[string]any); doc["object"] != "document" || len(doc["nodes"].([]any)) != 0 {
			t.Errorf("default instructions = %v", empty)
		}
		doc := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief.","marks":[]}]}]}]}`
		for _, bad := range []string{`{}`, `{"instructions":null}`, `{"instructions":{"object":"page","data":{},"nodes":[]}}`, `{"instructions":{"object":"document","data":{},"nodes":[{"type":"paragraph"}]}}`, `{"instructions":"text"}`} {
			msg := e.call(admin.Token, "PUT", "/orgs/"+orgID+"/agent-instructions", bad).wantError(http.StatusBadRequest)
			if !strings.HasPrefix(msg, "instructions") {
				t.Errorf("%s: message %q does not name instructions", bad, msg)
			}
		}
		e.call(reader.Token, "PUT", "/orgs/"+orgID+"/agent-instructions", `{"instructions":`+doc+`}`).wantError(http.StatusForbidden)
		saved := e.call(admin.Token, "PUT", "/orgs/"+orgID+"/agent-instructions", `{"instructions":`+doc+`}`).want(http.StatusOK)
		golden(t, "agent_instructions", saved.Body)
		if got := e.call(reader.Token, "GET", "/orgs/"+orgID+"/agent-instructions", nil).want(http.StatusOK).object(); got["updatedBy"] != admin.ID {
			t.Errorf("updatedBy = %v, want %s", got["updatedBy"], admin.ID)
		}
		var data struct {
			Organization struct {
				AgentInstructions struct {
					Instructions map[string]any
					UpdatedBy    string
				}
			}
		}
		e.gql(reader.Token, `query($id: ID!) { organization(id: $id) { agentInstructions { instructions updatedBy } } }`, map[string]any{"id": orgID}).ok(&data)
		if data.Organization.AgentInstructions.UpdatedBy != admin.ID || data.Organization.AgentInstructions.Instructions["object"] != "document" {
			t.Errorf("GraphQL agent instructions = %+v", data)
		}
		e.gql(admin.Token, `mutation($id: ID!) { updateAgentInstructions(organizationId: $id, input: {instructions: {object: "document", data: {}, nodes: []}}) { updatedBy } }`, map[string]any{"id": orgID}).ok(nil)
		e.wantRefusals(`mutation($id: ID!) { updateAgentInstructions(organizationId: $id, input: {instructions: {object: "nope"}}) { updatedBy } }`, gqlRefusal{"bad document", admin, map[string]any{"id": orgID}, "INVALID"})
	})
}
