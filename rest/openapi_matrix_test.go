package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// The OpenAPI and integration routes in the permission matrix, and the two token callers every
// route is also tried with: a read-scoped token and an installation's token confined to another
// space (docs/permissions.md, "Token scopes").

func init() { matrix = append(matrix, openAPIMatrix()...) }

const matrixSpecText = `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n`

func specPath(suffix string) func(fixture) string {
	return func(f fixture) string { return "/orgs/" + f.org + "/openapi/" + f.spec + suffix }
}
func specVersionPath(suffix string) func(fixture) string {
	return func(f fixture) string {
		return "/orgs/" + f.org + "/openapi/" + f.spec + "/versions/" + f.specVersion + suffix
	}
}
func installationPath(suffix string) func(fixture) string {
	return func(f fixture) string {
		return "/integrations/" + f.integration + "/installations/" + f.installation + suffix
	}
}

func openAPIMatrix() []matrixCase {
	text := matrixSpecText // JSON and GraphQL strings read \n as a line break
	return []matrixCase{
		{"GET", "/orgs/{organizationId}/openapi", insider, 200, org("/openapi"), "", `query($o: ID!) { organization(id: $o) { openAPISpecs { totalCount } } }`},
		{"POST", "/orgs/{organizationId}/openapi", creator, 201, org("/openapi"), `{"slug":"SPECNEW","source":{"text":"` + text + `"}}`,
			`mutation($o: ID!, $spn: String!) { createOpenAPISpec(organizationId: $o, input: {slug: $spn, source: {text: "` + text + `"}}) { id } }`},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}", insider, 200, specPath(""), "", `query($o: ID!, $sp: String!) { organization(id: $o) { openAPISpec(slug: $sp) { id } } }`},
		{"PUT", "/orgs/{organizationId}/openapi/{specSlug}", creator, 200, specPath(""), `{"source":{"text":"` + text + `"}}`,
			`mutation($o: ID!, $sp: String!) { putOpenAPISpec(organizationId: $o, slug: $sp, input: {source: {text: "` + text + `"}}) { id } }`},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}/versions", insider, 200, specPath("/versions"), "", `query($o: ID!, $sp: String!) { organization(id: $o) { openAPISpec(slug: $sp) { versions { totalCount } } } }`},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}/versions/latest", insider, 200, specPath("/versions/latest"), "", `query($o: ID!, $sp: String!) { organization(id: $o) { openAPISpec(slug: $sp) { version(id: "latest") { id } } } }`},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content", insider, 200, specPath("/versions/latest/content"), "",
			`query($o: ID!, $sp: String!) { organization(id: $o) { openAPISpec(slug: $sp) { version(id: "latest") { content { url } } } } }`},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", insider, 200, specVersionPath(""), "", `query($o: ID!, $sp: String!, $sv: String!) { organization(id: $o) { openAPISpec(slug: $sp) { version(id: $sv) { id } } } }`},
		{"GET", "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", insider, 200, specVersionPath("/content"), "",
			`query($o: ID!, $sp: String!, $sv: String!) { organization(id: $o) { openAPISpec(slug: $sp) { version(id: $sv) { content { url } } } } }`},

		{"POST", "/integrations/{integrationName}", adminOnly, 200, func(f fixture) string { return "/integrations/" + f.integration }, `{"title":"Tool","description":"d","scopes":[],"script":"x","organization":"ORGID","visibility":"public"}`,
			`mutation($o: ID!, $ig: String!) { publishIntegration(name: $ig, input: {title: "Tool", description: "d", scopes: [], script: "x", organization: $o, visibility: "public"}) { name } }`},
		{"POST", "/integrations/{integrationName}/installations", adminOnly, 201, func(f fixture) string { return "/integrations/" + f.integration + "/installations" }, `{"organization":"ORGID"}`,
			`mutation($o: ID!, $ig: String!) { installIntegration(name: $ig, organizationId: $o) { id } }`},
		{"POST", "/integrations/{integrationName}/installations/{installationId}/spaces", contentAdmin, 201, installationPath("/spaces"), `{"space":"SPACE"}`,
			`mutation($ig: String!, $in: ID!, $s: ID!) { installIntegrationOnSpace(name: $ig, installationId: $in, spaceId: $s) { space } }`},
		{"POST", "/integrations/{integrationName}/installations/{installationId}/tokens", adminOnly, 200, installationPath("/tokens"), "",
			`mutation($ig: String!, $in: ID!) { createIntegrationInstallationToken(name: $ig, installationId: $in) { token } }`},
		{"GET", "/spaces/{spaceId}/integrations", contentReader, 200, space("/integrations"), "", `query($s: ID!) { space(id: $s) { integrations { name } } }`},
		{"GET", "/spaces/{spaceId}/integration-blocks", contentReader, 200, space("/integration-blocks"), "", `query($s: ID!) { space(id: $s) { integrationBlocks { name } } }`},
	}
}

// matrixOpenAPI gives a fixture, as the admin, a specification with a version when the path is
// about specifications, and an integration installed on the organization when it is about
// integrations.
func (e *env) matrixOpenAPI(path string, admin account, f *fixture, n int) {
	e.t.Helper()
	if strings.Contains(path, "/openapi") || strings.Contains(path, "/computed/") || path == sharedFixturePath {
		f.spec = fmt.Sprintf("spec%d", n)
		spec := e.call(admin.Token, "PUT", "/orgs/"+f.org+"/openapi/"+f.spec, map[string]any{"source": map[string]any{"text": strings.ReplaceAll(matrixSpecText, `\n`, "\n")}}).want(http.StatusCreated).object()
		f.specVersion = spec["lastVersion"].(string)
	}
	if strings.Contains(path, "integration") || path == sharedFixturePath {
		f.integration = fmt.Sprintf("tool%d", n)
		e.call(admin.Token, "POST", "/integrations/"+f.integration, map[string]any{"title": "Tool", "description": "d", "scopes": []string{"space:content:read"},
			"script": "x", "organization": f.org, "visibility": "public"}).want(http.StatusOK)
		f.installation = e.call(admin.Token, "POST", "/integrations/"+f.integration+"/installations", map[string]any{"organization": f.org}).want(http.StatusCreated).object()["id"].(string)
	}
}

// sharedFixturePath is the path the matrix's shared (read) fixture is made for.
const sharedFixturePath = "/spaces/collections/teams/permissions/content/comments/reviews/translations/git"

// matrixTokens makes the two token callers, both the organization admin's: one with the read
// scope, and one of an integration installed on a space of its own (scopes space:content:read
// and space:content:write), which must reach none of the fixtures' content.
func (e *env) matrixTokens(admin account, orgID string) (readToken, spaceToken account) {
	e.t.Helper()
	c, err := e.res.CreateScopedToken(context.Background(), admin.Email, 0, []string{"read"})
	if err != nil {
		e.t.Fatal(err)
	}
	readToken = account{ID: admin.ID, Email: admin.Email, Token: c.Token}
	elsewhere := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Elsewhere"}`).want(http.StatusCreated).object()["id"].(string)
	e.call(admin.Token, "POST", "/integrations/matrix-probe", map[string]any{"title": "Probe", "description": "d", "script": "x", "organization": orgID,
		"scopes": []string{"space:content:read", "space:content:write"}}).want(http.StatusOK)
	inst := e.call(admin.Token, "POST", "/integrations/matrix-probe/installations", map[string]any{"organization": orgID}).want(http.StatusCreated).object()["id"].(string)
	e.call(admin.Token, "POST", "/integrations/matrix-probe/installations/"+inst+"/spaces", map[string]any{"space": elsewhere}).want(http.StatusCreated)
	token := e.call(admin.Token, "POST", "/integrations/matrix-probe/installations/"+inst+"/tokens", nil).want(http.StatusOK).object()["token"].(string)
	return readToken, account{ID: admin.ID, Email: admin.Email, Token: token}
}

// expectFor is the status a caller gets from a matrix case. The token callers are the admin's
// tokens: the read-scoped one reads like a read member and writes nothing (ownership rules
// included); the confined one sees no content outside its space (404, or 204 for deletes), may
// read the organization itself like any member, manages its own webhooks (an installation's), and
// does nothing else.
func expectFor(c matrixCase, role string) int {
	read := c.method == "GET" || asks(c) || computes(c) || aggregates(c)
	switch role {
	case "read-token":
		if read {
			return c.policy.expect("read", c.ok)
		}
		return http.StatusForbidden
	case "space-token":
		if strings.Contains(c.path, "/webhook") { // an installation manages its own webhooks, not the fixture's
			switch {
			case c.path == "/orgs/{organizationId}/webhooks":
				return c.ok
			case c.method == "DELETE":
				return http.StatusNoContent
			}
			return http.StatusNotFound
		}
		switch c.policy {
		case contentDelete, contentEditorDelete, contentCreatorDelete:
			return http.StatusNoContent
		case contentReader, contentEditor, contentAdmin, contentCommenter, contentReviewer, contentCreator:
			return http.StatusNotFound
		case anyone, member:
			if read {
				return c.ok
			}
		}
		return http.StatusForbidden
	}
	return c.policy.expect(role, c.ok)
}
