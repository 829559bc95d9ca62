package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// publishingSite is a site with one space holding a page, published at /sites/<basename>/.
type publishingSite struct {
	o                     *contentOrg
	space, site, ss, path string
	page                  string  // the Installation page
	other                 account // the admin of another organization
	otherOrg              string
}

func newPublishingSite(e *env, basename string) *publishingSite {
	e.t.Helper()
	o := newContentOrg(e)
	p := &publishingSite{o: o, space: o.space("", "Handbook")}
	p.page = e.createPage(o.admin.Token, target(p.space, ""), map[string]any{"title": "Installation", "markdown": "Run the **installer** on your server."})
	p.site, p.path = o.site("Docs")
	p.ss = o.siteAdd(o.admin.Token, p.site, p.space).ID
	e.call(o.admin.Token, "PATCH", p.path, map[string]any{"basename": basename}).want(http.StatusOK)
	p.otherOrg, p.other = e.org("Rival", "admin@rival.test")
	return p
}

func TestSitePublishUnpublish(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "handbook")
		o := p.o
		e.read("/sites/handbook/", nil).want(http.StatusOK)
		pub := e.call(o.admin.Token, "GET", p.path+"/published", nil).want(http.StatusOK).object()
		if pub["object"] != "published-content-site" || pub["site"].(map[string]any)["id"] != p.site {
			t.Errorf("published = %v", pub)
		}
		if _, ok := pub["customizations"].(map[string]any)["siteSpaces"].(map[string]any)[p.ss]; !ok {
			t.Errorf("published customizations lack site space %s: %v", p.ss, pub["customizations"])
		}

		// Unpublished: the API says so, the reader answers 404, the structure stays.
		s := e.call(o.admin.Token, "POST", p.path+"/unpublish", nil).want(http.StatusOK).object()
		if s["published"] != false {
			t.Errorf("unpublished site: published = %v", s["published"])
		}
		e.read("/sites/handbook/", nil).want(http.StatusNotFound)
		e.read("/sites/handbook/installation", nil).want(http.StatusNotFound)
		e.call(o.admin.Token, "GET", p.path+"/published", nil).wantError(http.StatusNotFound)
		if n := len(o.siteStructure(o.admin.Token, p.site, "").Structure); n != 1 {
			t.Errorf("structure has %d site spaces after unpublishing, want 1", n)
		}
		var list siteListJSON
		e.call(o.admin.Token, "GET", "/orgs/"+o.id+"/sites?published=false", nil).want(http.StatusOK).decode(&list)
		if list.Count != 1 || list.Items[0]["id"] != p.site {
			t.Errorf("unpublished list = %+v", list)
		}

		// Published again through GraphQL: the reader shows it as it was.
		var g struct{ PublishSite struct{ Published bool } }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!) { publishSite(organizationId: $o, siteId: $s) { published } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&g)
		if !g.PublishSite.Published {
			t.Error("GraphQL publishSite: not published")
		}
		e.read("/sites/handbook/installation", nil).want(http.StatusOK).has("installer")
		var gp struct {
			Organization struct {
				Site struct {
					PublishedContent struct {
						Site           struct{ ID string }
						Structure      struct{ Structure []struct{ ID string } }
						Customizations struct{ SiteSpaces map[string]any }
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { publishedContent { site { id } structure { structure { id } } customizations { siteSpaces } } } } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&gp)
		if pc := gp.Organization.Site.PublishedContent; pc.Site.ID != p.site || len(pc.Structure.Structure) != 1 || pc.Customizations.SiteSpaces[p.ss] == nil {
			t.Errorf("GraphQL publishedContent = %+v", pc)
		}

		// A site without site spaces has nothing to publish.
		_, empty := o.site("Empty")
		msg := e.call(o.admin.Token, "POST", empty+"/publish", nil).wantError(http.StatusBadRequest)
		if !strings.HasPrefix(msg, "siteId") {
			t.Errorf("empty site publish: %q", msg)
		}

		// Another organization learns nothing; readers of this one may not publish.
		for _, path := range []string{p.path, "/orgs/" + p.otherOrg + "/sites/" + p.site} {
			e.call(p.other.Token, "POST", path+"/unpublish", nil).wantError(http.StatusNotFound)
			e.call(p.other.Token, "GET", path+"/published", nil).wantError(http.StatusNotFound)
		}
		reader := e.member(o.id, "reader@acme.test", "read")
		e.call(reader.Token, "POST", p.path+"/unpublish", nil).wantError(http.StatusForbidden)
		e.read("/sites/handbook/", nil).want(http.StatusOK)
	})
}

func TestSiteAdaptiveSchema(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "adaptive")
		o := p.o
		e.call(o.admin.Token, "GET", p.path+"/adaptive-schema", nil).wantError(http.StatusNotFound)
		var none struct{ Items []any }
		e.call(o.admin.Token, "GET", p.path+"/adaptive-schema/template-conditions", nil).want(http.StatusOK).decode(&none)
		if len(none.Items) != 0 {
			t.Errorf("template conditions without a schema = %v", none.Items)
		}
		e.call(o.admin.Token, "PATCH", p.path+"/site-spaces/"+p.ss, map[string]any{"condition": `visitor.claims.plan == "pro"`}).want(http.StatusOK)

		schema := func(claims map[string]any) map[string]any {
			return map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": claims, "additionalProperties": false}}
		}
		unsigned := map[string]any{"type": "object", "description": "Unsigned claims of the site visitor.", "additionalProperties": false,
			"properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "Beta tester"}}}
		e.wantBadBodies(o.admin.Token, "PUT", p.path+"/adaptive-schema",
			badBody{"no schema", `{}`, "jsonSchema"},
			badBody{"not an object schema", `{"jsonSchema":{"type":"array","properties":{},"additionalProperties":false}}`, "jsonSchema.type"},
			badBody{"unknown claim type", schema(map[string]any{"plan": map[string]any{"type": "date", "description": "x"}}), "jsonSchema"},
			// The site space's condition reads plan: a schema without it is refused.
			badBody{"undeclared claim in use", schema(map[string]any{"team": map[string]any{"type": "string", "description": "Team"}}), "jsonSchema"},
		)
		e.call(o.admin.Token, "GET", p.path+"/adaptive-schema", nil).wantError(http.StatusNotFound)

		good := schema(map[string]any{"plan": map[string]any{"type": "string", "enum": []string{"free", "pro"}, "description": "Plan"}, "unsigned": unsigned})
		got := e.call(o.admin.Token, "PUT", p.path+"/adaptive-schema", good).want(http.StatusOK).object()
		if got["object"] != "site-adaptive-schema" || got["jsonSchema"].(map[string]any)["properties"].(map[string]any)["plan"] == nil {
			t.Errorf("schema = %v", got)
		}
		e.call(o.admin.Token, "GET", p.path+"/adaptive-schema", nil).want(http.StatusOK)

		// Conditions are now checked against it.
		msg := e.call(o.admin.Token, "PATCH", p.path+"/site-spaces/"+p.ss, map[string]any{"condition": `visitor.claims.team == "x"`}).wantError(http.StatusBadRequest)
		if !strings.HasPrefix(msg, "condition") || !strings.Contains(msg, "team") {
			t.Errorf("undeclared claim: %q", msg)
		}
		e.call(o.admin.Token, "PATCH", p.path+"/site-spaces/"+p.ss, map[string]any{"condition": `visitor.claims.unsigned.beta`}).want(http.StatusOK)

		var conds struct {
			Items []struct{ Description, Condition string }
		}
		e.call(o.admin.Token, "GET", p.path+"/adaptive-schema/template-conditions", nil).want(http.StatusOK).decode(&conds)
		var list []string
		for _, c := range conds.Items {
			list = append(list, c.Condition)
			var check struct{ CheckVisitorCondition struct{ Valid bool } }
			e.gql(o.admin.Token, `query($c: String!) { checkVisitorCondition(condition: $c) { valid } }`, map[string]any{"c": c.Condition}).ok(&check)
			if !check.CheckVisitorCondition.Valid {
				t.Errorf("suggested condition %q is not valid", c.Condition)
			}
		}
		if want := `visitor.claims.plan == "free"|visitor.claims.plan == "pro"|visitor.claims.unsigned.beta == true`; strings.Join(list, "|") != want {
			t.Errorf("template conditions = %q, want %q", strings.Join(list, "|"), want)
		}

		// GraphQL: the same schema and suggestions; the same refusals.
		var g struct {
			Organization struct {
				Site struct {
					AdaptiveSchema             struct{ JSONSchema map[string]any }
					AdaptiveTemplateConditions []struct{ Condition string }
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { adaptiveSchema { jsonSchema } adaptiveTemplateConditions { condition } } } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&g)
		if len(g.Organization.Site.AdaptiveTemplateConditions) != 3 || g.Organization.Site.AdaptiveSchema.JSONSchema["type"] != "object" {
			t.Errorf("GraphQL adaptive = %+v", g)
		}
		e.wantInvalid("schema without beta", o.admin, `mutation($o: ID!, $s: ID!, $j: JSON!) { updateSiteAdaptiveSchema(organizationId: $o, siteId: $s, jsonSchema: $j) { updatedAt } }`,
			map[string]any{"o": o.id, "s": p.site, "j": schema(map[string]any{"plan": map[string]any{"type": "string", "description": "Plan"}})["jsonSchema"]}, "jsonSchema")
		e.call(p.other.Token, "GET", p.path+"/adaptive-schema", nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "PUT", p.path+"/adaptive-schema", good).wantError(http.StatusNotFound)
	})
}

func TestSiteCustomization(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "styled")
		o := p.o
		c := e.call(o.admin.Token, "GET", p.path+"/customization", nil).want(http.StatusOK).object()
		if c["styling"].(map[string]any)["theme"] != "clean" {
			t.Errorf("default customization = %v", c)
		}
		set := map[string]any{"title": "Acme Handbook", "styling": map[string]any{"primaryColor": map[string]any{"light": "#ffff00", "dark": "#ffff00"}},
			"header": map[string]any{"preset": "default", "logo": map[string]any{"light": "https://cdn.acme.test/logo.png", "dark": "https://cdn.acme.test/logo-dark.png"},
				"links": []any{map[string]any{"title": "Status", "to": map[string]any{"kind": "url", "url": "https://status.acme.test"}, "links": []any{}}}},
			"footer":       map[string]any{"groups": []any{}, "copyright": "© Acme Inc."},
			"announcement": map[string]any{"enabled": true, "message": "Version 3 is out", "style": "info"},
			"themes":       map[string]any{"default": "dark", "toggeable": true},
		}
		got := e.call(o.admin.Token, "PUT", p.path+"/customization", set).want(http.StatusOK).object()
		if got["title"] != "Acme Handbook" || got["styling"].(map[string]any)["corners"] != "rounded" {
			t.Errorf("customization = %v", got)
		}

		unchanged := e.snapshot(o.admin.Token, p.path+"/customization")
		e.wantBadBodies(o.admin.Token, "PUT", p.path+"/customization",
			badBody{"bad color", map[string]any{"styling": map[string]any{"primaryColor": map[string]any{"light": "yellow", "dark": "#000"}}}, "styling.primaryColor.light"},
			badBody{"unknown setting", map[string]any{"colour": "red"}, "colour"},
			badBody{"script logo", map[string]any{"favicon": map[string]any{"icon": map[string]any{"light": "javascript:alert(1)", "dark": "https://x.test/i.png"}}}, "favicon"},
			badBody{"short announcement", map[string]any{"announcement": map[string]any{"enabled": true, "message": "x", "style": "info"}}, "announcement.message"},
			badBody{"not an object", `[1]`, "body"},
		)
		unchanged("bad customizations")

		// A site space overrides the title and corners; null gives the site's title back.
		ss := p.path + "/site-spaces/" + p.ss + "/customization"
		if c := e.call(o.admin.Token, "GET", ss, nil).want(http.StatusOK).object(); c["hasOverrides"] != false || c["title"] != "Acme Handbook" {
			t.Errorf("site space customization before overrides = %v", c)
		}
		c = e.call(o.admin.Token, "PATCH", ss, map[string]any{"title": "Handbook v2", "styling": map[string]any{"corners": "straight"}}).want(http.StatusOK).object()
		if c["hasOverrides"] != true || c["title"] != "Handbook v2" || c["styling"].(map[string]any)["corners"] != "straight" {
			t.Errorf("overridden = %v", c)
		}
		e.wantBadBodies(o.admin.Token, "PATCH", ss, badBody{"bad corners", map[string]any{"styling": map[string]any{"corners": "wavy"}}, "styling.corners"})
		home := e.read("/sites/styled/", nil).want(http.StatusOK).has("Handbook v2", "Version 3 is out", "https://cdn.acme.test/logo.png", "© Acme Inc.", "https://status.acme.test", `data-theme="dark"`)
		// Yellow links on white would be unreadable: the reader darkens them, and its content
		// security policy allows exactly that style element.
		home.lacks(":root{--accent:#ffff00").has(":root{--accent:#", "--primary-fill:#ffff00", "--on-primary:#111111")
		if csp := home.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self' 'sha256-") {
			t.Errorf("CSP = %q", csp)
		}
		c = e.call(o.admin.Token, "PATCH", ss, map[string]any{"title": nil}).want(http.StatusOK).object()
		if c["title"] != "Acme Handbook" || c["styling"].(map[string]any)["corners"] != "straight" {
			t.Errorf("title reset = %v", c)
		}
		e.call(o.admin.Token, "DELETE", ss, nil).want(http.StatusResetContent)
		e.call(o.admin.Token, "DELETE", ss, nil).want(http.StatusNoContent)
		e.call(o.admin.Token, "GET", p.path+"/site-spaces/nope/customization", nil).wantError(http.StatusNotFound)

		// GraphQL reads and writes the same document.
		var g struct{ UpdateSiteCustomization map[string]any }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $c: JSON!) { updateSiteCustomization(organizationId: $o, siteId: $s, settings: $c) }`,
			map[string]any{"o": o.id, "s": p.site, "c": map[string]any{"title": "From GraphQL"}}).ok(&g)
		if g.UpdateSiteCustomization["title"] != "From GraphQL" {
			t.Errorf("GraphQL update = %v", g.UpdateSiteCustomization["title"])
		}
		if c := e.call(o.admin.Token, "GET", p.path+"/customization", nil).want(http.StatusOK).object(); c["title"] != "From GraphQL" {
			t.Errorf("REST after GraphQL = %v", c["title"])
		}
		e.wantInvalid("bad theme", o.admin, `mutation($o: ID!, $s: ID!, $c: JSON!) { updateSiteCustomization(organizationId: $o, siteId: $s, settings: $c) }`,
			map[string]any{"o": o.id, "s": p.site, "c": map[string]any{"styling": map[string]any{"theme": "neon"}}}, "styling.theme")
		e.read("/sites/styled/", nil).want(http.StatusOK).has("From GraphQL")

		e.call(p.other.Token, "GET", p.path+"/customization", nil).wantError(http.StatusNotFound)
		e.call(p.other.Token, "PUT", p.path+"/customization", set).wantError(http.StatusNotFound)
		reader := e.member(o.id, "reader@acme.test", "read")
		e.call(reader.Token, "PUT", p.path+"/customization", set).wantError(http.StatusForbidden)
		e.call(reader.Token, "PATCH", ss, map[string]any{"title": "x y"}).wantError(http.StatusForbidden)
	})
}

func TestSiteSearchContent(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "searched")
		o := p.o
		var res searchSpaces
		e.call(o.admin.Token, "POST", p.path+"/search", map[string]any{"query": "installer"}).want(http.StatusOK).decode(&res)
		if len(res.Items) != 1 || res.Items[0].ID != p.space || len(res.Items[0].Pages) != 1 || res.Items[0].Pages[0].Title != "Installation" {
			t.Fatalf("site search = %+v", res)
		}
		for _, body := range []any{map[string]any{"query": "installer", "scope": map[string]any{"mode": "all"}},
			map[string]any{"query": "installer", "scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{p.ss}}},
			map[string]any{"query": "installer", "mode": "current", "siteSpaceId": p.ss}} {
			e.call(o.admin.Token, "POST", p.path+"/search", body).want(http.StatusOK).decode(&res)
			if len(res.Items) != 1 {
				t.Errorf("search %v = %+v", body, res)
			}
		}
		e.wantBadBodies(o.admin.Token, "POST", p.path+"/search",
			badBody{"no query", map[string]any{"query": ""}, "query"},
			badBody{"unknown site space", map[string]any{"query": "x", "scope": map[string]any{"mode": "specific", "siteSpaceIds": []string{"nope"}}}, "scope.siteSpaceIds[0]"},
			badBody{"bad mode", map[string]any{"query": "x", "scope": map[string]any{"mode": "everything"}}, "scope.mode"},
		)
		var g struct {
			Organization struct {
				Site struct {
					SearchContent struct {
						Nodes []struct {
							ID    string
							Pages []struct{ Title string }
						}
					}
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { searchContent(query: "installer", scope: {mode: "all"}) { nodes { id pages { title } } } } } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&g)
		if n := g.Organization.Site.SearchContent.Nodes; len(n) != 1 || n[0].ID != p.space || n[0].Pages[0].Title != "Installation" {
			t.Errorf("GraphQL searchContent = %+v", n)
		}
		e.call(p.other.Token, "POST", p.path+"/search", map[string]any{"query": "installer"}).wantError(http.StatusNotFound)
	})
}

func TestSitePublishingPreview(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "preview")
		o := p.o
		var prev struct{ URL string }
		e.call(o.admin.Token, "GET", p.path+"/publishing/preview", nil).want(http.StatusOK).decode(&prev)
		if prev.URL != "https://bindery.test/sites/preview/" {
			t.Errorf("preview URL = %q", prev.URL)
		}
		claims := "/publishing/preview?claims=" + url.QueryEscape("(plan:pro,seats:3,beta:!t)")
		if msg := e.call(o.admin.Token, "GET", p.path+claims, nil).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, "claims") {
			t.Errorf("claims without a key: %q", msg)
		}
		e.call(o.admin.Token, "GET", p.path+"/publishing/preview?claims=(plan:", nil).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "GET", p.path+"/publishing/preview?siteSpace=nope", nil).wantError(http.StatusBadRequest)
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {rotateSigningKey: true}) { signingKey } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(nil)
		e.call(o.admin.Token, "GET", p.path+claims+"&siteSpace="+p.ss, nil).want(http.StatusOK).decode(&prev)
		u, err := url.Parse(prev.URL)
		if err != nil || u.Query().Get("jwt_token") == "" {
			t.Fatalf("preview URL with claims = %q", prev.URL)
		}
		// The token carries the claims: the reader takes it and shows the site.
		var g struct {
			PublishedSite struct{ Claims map[string]any }
		}
		e.gql(o.admin.Token, `query($t: String!) { publishedSite(name: "preview", visitor: {token: $t}) { claims } }`, map[string]any{"t": u.Query().Get("jwt_token")}).ok(&g)
		if g.PublishedSite.Claims["plan"] != "pro" || g.PublishedSite.Claims["seats"] != json.Number("3") && g.PublishedSite.Claims["seats"] != 3.0 || g.PublishedSite.Claims["beta"] != true {
			t.Errorf("preview token claims = %v", g.PublishedSite.Claims)
		}
		var gp struct {
			Organization struct {
				Site struct{ PublishingPreview struct{ URL string } }
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { publishingPreview(claims: {plan: "pro"}) { url } } } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&gp)
		if !strings.Contains(gp.Organization.Site.PublishingPreview.URL, "jwt_token=") {
			t.Errorf("GraphQL preview = %q", gp.Organization.Site.PublishingPreview.URL)
		}
		e.call(p.other.Token, "GET", p.path+"/publishing/preview", nil).wantError(http.StatusNotFound)
	})
}

// Reading the customization of every site of a list costs the same statements for 2 sites as for
// 12: customizations are read in one batch per level.
func TestSiteCustomizationStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		o := newContentOrg(e)
		add := func(n int) {
			for range n {
				site, path := o.site("Docs")
				ss := o.siteAdd(o.admin.Token, site, o.space("", "Space"))
				e.call(o.admin.Token, "PUT", path+"/customization", map[string]any{"title": "Styled docs"}).want(http.StatusOK)
				e.call(o.admin.Token, "PATCH", path+"/site-spaces/"+ss.ID+"/customization", map[string]any{"title": "Variant"}).want(http.StatusOK)
			}
		}
		count := func() int64 {
			var n atomic.Int64
			var g struct {
				Organization struct {
					Sites struct {
						Nodes []struct{ Customization map[string]any }
					}
				}
			}
			e.gqlCounted(o.admin.Token, `query($o: ID!) { organization(id: $o) { sites(first: 50) { nodes { customization } } } }`, map[string]any{"o": o.id}, &n).ok(&g)
			for _, s := range g.Organization.Sites.Nodes {
				if s.Customization["title"] != "Styled docs" {
					t.Fatalf("customization = %v", s.Customization)
				}
			}
			return n.Load()
		}
		add(2)
		few := count()
		add(10)
		if many := count(); many != few {
			t.Errorf("statements grew with sites: %d → %d", few, many)
		}
	})
}
