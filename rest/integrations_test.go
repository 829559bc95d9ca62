package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

func publishBody(orgID, visibility string, scopes ...string) map[string]any {
	return map[string]any{
		"title": "Figma embeds", "description": "Shows Figma files", "organization": orgID, "script": "export default {}",
		"visibility": visibility, "scopes": scopes, "secrets": map[string]any{"API_KEY": "not kept"},
		"blocks": []any{map[string]any{"id": "figma", "title": "Figma file", "urlUnfurl": []string{"https://www.figma.com/file/**"},
			"markdown": map[string]any{"codeblock": "figma", "body": "url"}}},
	}
}

// An installation's token reaches only the spaces it is installed on and does only what its
// integration's scopes allow, through both doors; the space reads list what is installed.
func TestIntegrationInstallations(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Integrations", "admin@int.test")
		spaceA := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"A"}`).want(http.StatusCreated).object()["id"].(string)
		spaceB := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"B"}`).want(http.StatusCreated).object()["id"].(string)
		page := e.createPage(admin.Token, target(spaceA, ""), map[string]any{"title": "Intro", "markdown": "# Intro"})

		// Publishing: the owner's admins; bad names and scopes are refused.
		ig := e.call(admin.Token, "POST", "/integrations/figma", publishBody(orgID, "public", "space:content:read")).want(http.StatusOK).object()
		if ig["object"] != "integration" || ig["version"] != float64(1) || ig["permissions"].(map[string]any)["admin"] != true {
			t.Fatalf("published: %v", ig)
		}
		if strings.Contains(jsonText(ig), "not kept") || strings.Contains(jsonText(ig), "export default") {
			t.Error("the script or a secret was kept")
		}
		if v := e.call(admin.Token, "POST", "/integrations/figma", publishBody(orgID, "public", "space:content:read")).want(http.StatusOK).object()["version"]; v != float64(2) {
			t.Errorf("republished version %v, want 2", v)
		}
		e.call(admin.Token, "POST", "/integrations/bad%20name", publishBody(orgID, "public")).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", "/integrations/other", publishBody(orgID, "public", "space:everything")).wantError(http.StatusBadRequest)
		e.call(admin.Token, "POST", "/integrations/other", publishBody(orgID, "public", "read")).wantError(http.StatusBadRequest)
		otherOrg, otherAdmin := e.org("Other", "admin@other-int.test")
		e.call(otherAdmin.Token, "POST", "/integrations/figma", publishBody(otherOrg, "public")).wantError(http.StatusConflict)
		e.call(otherAdmin.Token, "POST", "/integrations/x", publishBody(orgID, "public")).wantError(http.StatusNotFound)
		e.call(admin.Token, "POST", "/integrations/secret-tool", publishBody(orgID, "private", "space:content:read")).want(http.StatusOK)
		// Another organization cannot install a private integration it does not own.
		e.call(otherAdmin.Token, "POST", "/integrations/secret-tool/installations", map[string]any{"organization": otherOrg}).wantError(http.StatusNotFound)

		before := e.call(admin.Token, "GET", "/spaces/"+spaceA+"/integration-blocks", nil).want(http.StatusOK)
		if strings.TrimSpace(string(before.Body)) != "[]" {
			t.Errorf("blocks before installing: %s", before.Body)
		}
		inst := e.call(admin.Token, "POST", "/integrations/figma/installations", map[string]any{"organization": orgID}).want(http.StatusCreated)
		instID := inst.object()["id"].(string)
		if loc := inst.Header.Get("Location"); !strings.HasSuffix(loc, "/integrations/figma/installations/"+instID) {
			t.Errorf("Location %q", loc)
		}
		si := e.call(admin.Token, "POST", "/integrations/figma/installations/"+instID+"/spaces", map[string]any{"space": spaceA}).want(http.StatusCreated).object()
		if si["space"] != spaceA || si["installation"] != instID {
			t.Errorf("space installation: %v", si)
		}
		// Another organization's space is not found for this installation.
		otherSpace := e.call(otherAdmin.Token, "POST", "/orgs/"+otherOrg+"/spaces", `{"title":"X"}`).want(http.StatusCreated).object()["id"].(string)
		e.call(admin.Token, "POST", "/integrations/figma/installations/"+instID+"/spaces", map[string]any{"space": otherSpace}).wantError(http.StatusNotFound)
		e.call(otherAdmin.Token, "POST", "/integrations/figma/installations/"+instID+"/spaces", map[string]any{"space": otherSpace}).wantError(http.StatusNotFound)

		var list struct {
			Items []struct{ Name string }
			Count int
		}
		e.call(admin.Token, "GET", "/spaces/"+spaceA+"/integrations", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0].Name != "figma" {
			t.Errorf("space A integrations: %+v", list)
		}
		e.call(admin.Token, "GET", "/spaces/"+spaceA+"/integrations?search=FIG", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 {
			t.Errorf("search FIG: %+v", list)
		}
		e.call(admin.Token, "GET", "/spaces/"+spaceA+"/integrations?search=zzz", nil).want(http.StatusOK).decode(&list)
		if list.Count != 0 {
			t.Errorf("search zzz: %+v", list)
		}
		e.call(admin.Token, "GET", "/spaces/"+spaceB+"/integrations", nil).want(http.StatusOK).decode(&list)
		if list.Count != 0 {
			t.Errorf("space B integrations: %+v", list)
		}
		var blocks []struct {
			Name   string
			Blocks []struct {
				ID        string
				URLUnfurl []string
			}
		}
		e.call(admin.Token, "GET", "/spaces/"+spaceA+"/integration-blocks", nil).want(http.StatusOK).decode(&blocks)
		if len(blocks) != 1 || blocks[0].Name != "figma" || blocks[0].Blocks[0].ID != "figma" || len(blocks[0].Blocks[0].URLUnfurl) != 1 {
			t.Errorf("blocks: %+v", blocks)
		}

		// The installation's token: space:content:read on space A only.
		tok := e.call(admin.Token, "POST", "/integrations/figma/installations/"+instID+"/tokens", nil).want(http.StatusOK).object()["token"].(string)
		e.call(tok, "GET", "/spaces/"+spaceA, nil).want(http.StatusOK)
		e.call(tok, "GET", "/spaces/"+spaceA+"/content/page/"+page, nil).want(http.StatusOK)
		e.call(tok, "GET", "/spaces/"+spaceA+"/integrations", nil).want(http.StatusOK)
		e.call(tok, "PATCH", "/spaces/"+spaceA, `{"title":"Renamed"}`).wantError(http.StatusForbidden)
		e.call(tok, "POST", "/spaces/"+spaceA+"/change-requests", `{"subject":"x"}`).wantError(http.StatusForbidden)
		e.call(tok, "GET", "/spaces/"+spaceB, nil).wantError(http.StatusNotFound)
		e.call(tok, "GET", "/spaces/"+otherSpace, nil).wantError(http.StatusNotFound)
		e.call(tok, "GET", "/orgs/"+otherOrg, nil).wantError(http.StatusNotFound)
		e.call(tok, "POST", "/orgs/"+orgID+"/spaces", `{"title":"New"}`).wantError(http.StatusForbidden)
		e.call(tok, "POST", "/integrations/figma/installations/"+instID+"/tokens", nil).wantError(http.StatusForbidden)
		var spaces struct{ Count int }
		e.call(tok, "GET", "/orgs/"+orgID+"/spaces", nil).want(http.StatusOK).decode(&spaces)
		if spaces.Count != 1 {
			t.Errorf("the token lists %d spaces, want 1 (space A)", spaces.Count)
		}
		var orgs struct{ Count int }
		e.call(tok, "GET", "/orgs", nil).want(http.StatusOK).decode(&orgs)
		if orgs.Count != 1 {
			t.Errorf("the token lists %d organizations, want 1", orgs.Count)
		}
		g := e.gql(tok, `mutation($s: ID!) { updateSpace(id: $s, input: {title: "Renamed"}) { id } }`, map[string]any{"s": spaceA})
		if g.code() != "FORBIDDEN" {
			t.Errorf("GraphQL write with the token: %q", g.code())
		}
		g = e.gql(tok, `query($s: ID!) { space(id: $s) { id } }`, map[string]any{"s": spaceB})
		if g.code() != "NOT_FOUND" {
			t.Errorf("GraphQL read of space B with the token: %q", g.code())
		}
		// Installing on space B reaches it at once (read), still not writable.
		e.call(admin.Token, "POST", "/integrations/figma/installations/"+instID+"/spaces", map[string]any{"space": spaceB}).want(http.StatusCreated)
		e.call(tok, "GET", "/spaces/"+spaceB, nil).want(http.StatusOK)
		e.call(tok, "DELETE", "/spaces/"+spaceB, nil).wantError(http.StatusForbidden)

		// The GraphQL door.
		g = e.gql(admin.Token, `query($s: ID!) { space(id: $s) { integrations(search: "fig") { name version owner { id } } integrationBlocks { name blocks { id markdown { codeblock } } } } }`, map[string]any{"s": spaceA})
		var got struct {
			Space struct {
				Integrations []struct {
					Name    string
					Version int
					Owner   struct{ ID string }
				}
				IntegrationBlocks []struct {
					Name   string
					Blocks []struct {
						ID       string
						Markdown struct{ Codeblock string }
					}
				}
			}
		}
		g.ok(&got)
		if len(got.Space.Integrations) != 1 || got.Space.Integrations[0].Owner.ID != orgID || got.Space.IntegrationBlocks[0].Blocks[0].Markdown.Codeblock != "figma" {
			t.Errorf("GraphQL space integrations: %+v", got)
		}
		g = e.gql(otherAdmin.Token, `mutation($o: ID!) { publishIntegration(name: "gql-tool", input: {title: "Tool", description: "d", scopes: ["openapi:read"], script: "x", organization: $o, visibility: "public"}) { name } }`, map[string]any{"o": otherOrg})
		g.ok(nil)
		g = e.gql(otherAdmin.Token, `mutation($o: ID!) { installIntegration(name: "figma", organizationId: $o) { id } }`, map[string]any{"o": otherOrg})
		var installed struct{ InstallIntegration struct{ ID string } }
		g.ok(&installed)
		g = e.gql(otherAdmin.Token, `mutation($i: ID!, $s: ID!) { installIntegrationOnSpace(name: "figma", installationId: $i, spaceId: $s) { space } }`, map[string]any{"i": installed.InstallIntegration.ID, "s": otherSpace})
		g.ok(nil)
		g = e.gql(otherAdmin.Token, `mutation($i: ID!) { createIntegrationInstallationToken(name: "figma", installationId: $i) { token } }`, map[string]any{"i": installed.InstallIntegration.ID})
		var issued struct{ CreateIntegrationInstallationToken struct{ Token string } }
		g.ok(&issued)
		other := issued.CreateIntegrationInstallationToken.Token
		e.call(other, "GET", "/spaces/"+otherSpace, nil).want(http.StatusOK)
		e.call(other, "GET", "/spaces/"+spaceA, nil).wantError(http.StatusNotFound)
		// Members who are not admins cannot install.
		editor := e.member(orgID, "editor@int.test", "edit")
		e.call(editor.Token, "POST", "/integrations/figma/installations", map[string]any{"organization": orgID}).wantError(http.StatusForbidden)
		e.call(editor.Token, "POST", "/integrations/figma/installations/"+instID+"/spaces", map[string]any{"space": spaceA}).wantError(http.StatusForbidden)
	})
}
