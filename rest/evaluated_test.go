package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestContentEvaluated(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Evaluated", "admin@evaluated.test")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		to := target(space, "")
		page := e.createPage(admin.Token, to, map[string]any{"title": "Release", "markdown": "Version " +
			`<code class="expression">page.vars.version</code>, ` +
			`shouted <code class="expression">upper(page.vars.name)</code>, ` +
			`broken <code class="expression">page.vars.missing + </code>, ` +
			`year <code class="expression">now().Year() > 2000</code>.`})
		e.updatePage(admin.Token, to, page, map[string]any{"variables": map[string]any{"version": "2.1", "name": "bindery"}}).ok(nil)
		base := "/spaces/" + space + "/content/page/" + page

		markdown := func(query string) string {
			var p struct{ Markdown string }
			e.call(admin.Token, "GET", base+"?format=markdown"+query, nil).want(http.StatusOK).decode(&p)
			return p.Markdown
		}
		if got := markdown(""); !strings.Contains(got, `<code class="expression">page.vars.version</code>`) {
			t.Errorf("unevaluated markdown = %q", got)
		}
		all := markdown("&evaluated=true")
		for _, want := range []string{"Version 2.1,", "shouted BINDERY,", "year true.", `<code class="expression">page.vars.missing + </code>`} {
			if !strings.Contains(all, want) {
				t.Errorf("evaluated markdown %q lacks %q", all, want)
			}
		}
		det := markdown("&evaluated=deterministic-only")
		if !strings.Contains(det, "Version 2.1,") || !strings.Contains(det, `<code class="expression">now().Year() > 2000</code>`) {
			t.Errorf("deterministic-only markdown = %q: want variables evaluated and now() left", det)
		}

		// As a document: evaluated values become text; a failing expression keeps its node with an error.
		var doc struct{ Document json.RawMessage }
		e.call(admin.Token, "GET", base+"?evaluated=true", nil).want(http.StatusOK).decode(&doc)
		body := string(doc.Document)
		if !strings.Contains(body, "Version 2.1, shouted BINDERY, broken ") || !strings.Contains(body, `"type":"expression"`) || !strings.Contains(body, `"error":`) {
			t.Errorf("evaluated document = %s", body)
		}
		e.call(admin.Token, "GET", base+"?evaluated=false", nil).want(http.StatusOK).decode(&doc)
		if strings.Count(string(doc.Document), `"type":"expression"`) != 4 {
			t.Errorf("unevaluated document = %s: want 4 expression nodes", doc.Document)
		}
		e.call(admin.Token, "GET", base+"?evaluated=sometimes", nil).wantError(http.StatusBadRequest)
	})
}

func TestContentEvaluatedGraphQL(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("EvaluatedGQL", "admin@evaluatedgql.test")
		space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(http.StatusCreated).object()["id"].(string)
		page := e.createPage(admin.Token, target(space, ""), map[string]any{"title": "Release",
			"markdown": `Version <code class="expression">page.vars.version</code>`})
		e.updatePage(admin.Token, target(space, ""), page, map[string]any{"variables": map[string]any{"version": "3"}}).ok(nil)
		var data struct {
			Space struct {
				Content struct{ Page struct{ Markdown string } }
			}
		}
		e.gql(admin.Token, `query($s: ID!, $p: ID!) { space(id: $s) { content { page(id: $p, format: MARKDOWN, evaluated: ALL) { markdown } } } }`,
			map[string]any{"s": space, "p": page}).ok(&data)
		if got := data.Space.Content.Page.Markdown; got != "Version 3" {
			t.Errorf("evaluated markdown through GraphQL = %q, want %q", got, "Version 3")
		}
	})
}
