package contracttest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that captures failures instead of failing the test.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
	r.fatal = true
}

func requireSpec(t *testing.T) {
	t.Helper()
	if Available() {
		return
	}
	if ci() || !get().missing {
		t.Fatalf("contract spec unavailable: %v: %s", get().err, fetchHint)
	}
	get().warnMissing()
	t.Skipf("contract spec missing (%v): %s", get().err, fetchHint)
}

var jsonHeader = http.Header{"Content-Type": {"application/json; charset=utf-8"}}

// exchange validates one exchange with a recorder and returns what it captured.
func exchange(t *testing.T, method, target string, status int, header http.Header, body string) *recorder {
	t.Helper()
	r := &recorder{TB: t}
	Validate(r, httptest.NewRequest(method, target, nil), status, header, []byte(body))
	return r
}

func mustPass(t *testing.T, method, target string, status int, header http.Header, body string) {
	t.Helper()
	if r := exchange(t, method, target, status, header, body); len(r.errors) > 0 {
		t.Errorf("%s %s %d: want pass, got:\n%s", method, target, status, strings.Join(r.errors, "\n"))
	}
}

// mustFail asserts a mismatch is reported and its message mentions want.
func mustFail(t *testing.T, method, target string, status int, header http.Header, body, want string) {
	t.Helper()
	r := exchange(t, method, target, status, header, body)
	if len(r.errors) == 0 {
		t.Errorf("%s %s %d: want failure, got none", method, target, status)
		return
	}
	if r.fatal {
		t.Errorf("%s %s %d: mismatch must use Errorf, not Fatalf: %s", method, target, status, r.errors[0])
	}
	msg := strings.Join(r.errors, "\n")
	if !strings.Contains(msg, want) {
		t.Errorf("%s %s %d: failure should mention %q, got:\n%s", method, target, status, want, msg)
	}
	t.Logf("reported as expected: %s", msg)
}

func TestApiInformation(t *testing.T) {
	requireSpec(t)
	before := Validated()
	mustPass(t, "GET", "/v1/", 200, jsonHeader, `{"version":"1","build":"x"}`)
	mustFail(t, "GET", "/v1/", 200, jsonHeader, `{"version":"1"}`, `property "build" is missing`)
	mustFail(t, "GET", "/v1/", 200, http.Header{"Content-Type": {"text/plain"}}, `{"version":"1","build":"x"}`, "Content-Type")
	if got := Validated() - before; got != 3 {
		t.Errorf("Validated() grew by %d, want 3", got)
	}
}

const organization = `{
	"object": "organization",
	"id": "org1",
	"title": "Acme",
	"createdAt": "2024-01-02T03:04:05.678Z",
	"emailDomains": [],
	"type": "business",
	"inviteLinks": true,
	"plan": "free",
	"mergeRules": {"type": "none"},
	"urls": {"location": "http://localhost/v1/orgs/org1", "app": "http://localhost/o/org1/"},
	"trial": {"status": "none", "count": 0},
	"permissions": {
		"view": true, "admin": true, "ownTeam": true, "createContent": true,
		"createOpenAPISpec": true, "ingestConversations": true, "viewBilling": true,
		"listMembers": true, "listTeams": true, "listIntegrations": true,
		"listInstallations": true, "installIntegration": true
	}
}`

func TestOrganization(t *testing.T) {
	requireSpec(t)
	mustPass(t, "GET", "/v1/orgs/org1", 200, jsonHeader, organization)
	mustFail(t, "GET", "/v1/orgs/org1", 200, jsonHeader,
		strings.Replace(organization, `"plan": "free"`, `"plan": "bogus"`, 1), `"/plan"`)
	mustFail(t, "GET", "/v1/orgs/org1", 200, jsonHeader,
		strings.Replace(organization, `"plan": "free"`, `"plan": null`, 1), `"/plan"`)
	// Formats: date-time and uri are checked.
	mustFail(t, "GET", "/v1/orgs/org1", 200, jsonHeader,
		strings.Replace(organization, `"2024-01-02T03:04:05.678Z"`, `"yesterday"`, 1), `"/createdAt"`)
	mustFail(t, "GET", "/v1/orgs/org1", 200, jsonHeader,
		strings.Replace(organization, `"http://localhost/v1/orgs/org1"`, `"/v1/orgs/org1"`, 1), `"/urls/location"`)
}

func TestErrors(t *testing.T) {
	requireSpec(t)
	// 404 is declared for getOrganizationById.
	mustPass(t, "GET", "/v1/orgs/x", 404, jsonHeader, `{"error":{"code":404,"message":"Not found"}}`)
	mustFail(t, "GET", "/v1/orgs/x", 404, jsonHeader, `{"error":{"code":404}}`, `property "message" is missing`)
	// 401 is declared nowhere: the body must still be a components.schemas.Error.
	mustPass(t, "GET", "/v1/orgs/x", 401, jsonHeader, `{"error":{"code":401,"message":"Unauthorized"}}`)
	mustFail(t, "GET", "/v1/orgs/x", 401, jsonHeader, `{"message":"Unauthorized"}`, "components.schemas.Error")
	mustFail(t, "GET", "/v1/orgs/x", 401, http.Header{}, `{"error":{"code":401,"message":"Unauthorized"}}`, "Content-Type")
}

func TestStatuses(t *testing.T) {
	requireSpec(t)
	// An undeclared success status is a contract violation.
	mustFail(t, "GET", "/v1/", 201, jsonHeader, `{"version":"1","build":"x"}`, "not declared")
	// disableIntegrationDevelopmentMode lists only 205; Bindery's 204 is accepted.
	mustPass(t, "DELETE", "/v1/integrations/i1/dev", 204, http.Header{}, "")
	mustPass(t, "DELETE", "/v1/integrations/i1/dev", 205, http.Header{}, "")
	mustFail(t, "DELETE", "/v1/integrations/i1/dev", 204, jsonHeader, `{}`, "empty body")
}

func TestRouting(t *testing.T) {
	requireSpec(t)
	// The literal segment "sso" routes to its own operation, not to a template.
	mustFail(t, "POST", "/v1/orgs/o/members/u/sso", 201, jsonHeader, `{}`, "(setUserAsSSOMemberForOrganization)")
	mustFail(t, "GET", "/v1/orgs/o/members/u", 201, jsonHeader, `{}`, "(getMemberInOrganizationById)")
	mustFail(t, "GET", "/v1/orgs/o/members/u/sso", 200, jsonHeader, `{}`, "is not in the contract")
	// An escaped slash stays inside one path parameter.
	mustFail(t, "GET", "/v1/spaces/s/content/path/a%2Fb", 201, jsonHeader, `{}`, "(getPageByPath)")
	mustFail(t, "GET", "/v1/bindery-only/health", 200, jsonHeader, `{}`, "is not in the contract")
}

func TestMemberRoleNull(t *testing.T) {
	requireSpec(t)
	member := func(role string) string {
		return `{"items":[{
			"object": "member", "id": "u1", "role": ` + role + `,
			"user": {"object": "user", "id": "u1", "displayName": "U", "urls": {"location": "http://localhost/v1/users/u1"}},
			"disabled": false, "joinedAt": "2024-01-02T03:04:05Z", "sso": false, "spaces": 0, "teams": 0
		}], "count": 1}`
	}
	target := "/v1/orgs/o/members?limit=5"
	mustPass(t, "GET", target, 200, jsonHeader, member(`null`))
	mustPass(t, "GET", target, 200, jsonHeader, member(`"admin"`))
	mustFail(t, "GET", target, 200, jsonHeader, member(`"owner"`), `"/items/0/role"`)
}

func TestMissingSpec(t *testing.T) {
	s := load(filepath.Join(t.TempDir(), "nope.json"))
	if !s.missing {
		t.Fatalf("load of a missing file: missing=false, err=%v", s.err)
	}
	var banner strings.Builder
	s.warnTo = &banner
	req := httptest.NewRequest("GET", "/v1/", nil)

	t.Setenv("CI", "")
	for range 2 {
		r := &recorder{TB: t}
		s.validate(r, req, 200, jsonHeader, nil)
		if len(r.errors) > 0 {
			t.Errorf("without CI a missing spec must only warn, got %v", r.errors)
		}
	}
	if n := strings.Count(banner.String(), "CONTRACT VALIDATION SKIPPED"); n != 1 {
		t.Errorf("want the skip banner exactly once, got %d times:\n%s", n, banner.String())
	}

	t.Setenv("CI", "true")
	r := &recorder{TB: t}
	s.validate(r, req, 200, jsonHeader, nil)
	if !r.fatal || !strings.Contains(strings.Join(r.errors, ""), ".ci/fetch-contract") {
		t.Errorf("with CI=true a missing spec must Fatalf with a fetch hint, got %v", r.errors)
	}
}

// computedPage is a document page generated from an OpenAPI specification, as getPageById
// answers it.
const computedPage = `{"id":"p1","title":"pets","kind":"sheet","type":"document","urls":{"app":"https://app.test/s/s1/pets"},
 "slug":"pets","path":"pets","pages":[],"layout":{"width":"default","cover":true,"coverSize":"hero","title":true,"description":true,
 "tableOfContents":true,"outline":true,"pagination":true,"metadata":true},"hidden":false,"noIndex":false,"noRobotsIndex":false,
 "computed":{"type":"builtin:openapi","dependencies":{"spec":{"ref":{"kind":"openapi","spec":"petstore"},
   "value":{"object":"openapi-spec","id":"sp1","slug":"petstore","lastVersion":"v1"}}},"props":{"doc":"operations","page":"pets"}},
 "computedSeed":"p1","markdown":"## List pets\n"}`

// Computed pages validate (the contract's {documentId?} branch would otherwise match them too,
// and its PlainObject made kin-openapi recurse without end); what is wrong in them still fails,
// and plain pages validate as before.
func TestComputedPage(t *testing.T) {
	requireSpec(t)
	const path = "/v1/spaces/s1/content/page/p1"
	mustPass(t, "GET", path, 200, jsonHeader, computedPage)
	mustPass(t, "GET", path, 200, jsonHeader, strings.Replace(computedPage, `"doc":"operations","page":"pets"`, `"doc":"models"`, 1))
	mustFail(t, "GET", path, 200, jsonHeader, strings.Replace(computedPage, `"doc":"operations"`, `"doc":"everything"`, 1), "props")
	mustFail(t, "GET", path, 200, jsonHeader, strings.Replace(computedPage, `"computedSeed":"p1",`, "", 1), "computedSeed")
	plain := strings.Replace(computedPage, computedPage[strings.Index(computedPage, `"computed":`):strings.Index(computedPage, `"markdown"`)], `"documentId":"d1",`, 1)
	mustPass(t, "GET", path, 200, jsonHeader, plain)
}
