package rest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/bindery/bindery/rest"
)

// Shared pieces of the list and CRUD tests: every REST list answers the contract's {items, count,
// next.page}, so one page type and one pager serve spaces, collections, teams and members alike;
// every refusal has the contract's error shape, so one check serves each kind.

// listItem is an item of a REST list, named by label in the tests' expectations.
type listItem interface{ label() string }

// listPage is one page of a REST list.
type listPage[T listItem] struct {
	Items []T
	Count int
	Next  *struct{ Page string }
}

// labels names the page's items, joined by commas.
func (l listPage[T]) labels() string {
	out := make([]string, len(l.Items))
	for i, it := range l.Items {
		out[i] = it.label()
	}
	return strings.Join(out, ",")
}

// titled is a list item named by its title (spaces, collections).
type titled struct {
	ID, Title string
	Parent    *string
}

func (it titled) label() string { return it.Title }

// getList reads one page of the REST list at path (its query included) as token.
func getList[T listItem](e *env, token, path string) listPage[T] {
	e.t.Helper()
	var l listPage[T]
	e.call(token, "GET", path, nil).want(http.StatusOK).decode(&l)
	return l
}

// walkPages reads a REST list from its first page (query holds the limit and the filters) through
// next.page to the last, with read fetching one query. It fails when the pages do not end or do
// not all announce the count of the first.
func walkPages[T listItem](t testing.TB, query string, read func(query string) listPage[T]) []listPage[T] {
	t.Helper()
	sep := "&"
	if !strings.Contains(query, "?") {
		sep = "?"
	}
	pages := []listPage[T]{read(query)}
	for l := pages[0]; l.Next != nil; l = pages[len(pages)-1] {
		if len(pages) > 10 {
			t.Fatalf("%s: pagination does not end (%d pages so far)", query, len(pages))
		}
		pages = append(pages, read(query+sep+"page="+url.QueryEscape(l.Next.Page)))
		if n := pages[len(pages)-1].Count; n != pages[0].Count {
			t.Errorf("%s: page %d count = %d, first page said %d", query, len(pages)-1, n, pages[0].Count)
		}
	}
	return pages
}

// pageLabels is walkPages's pages as their labels, pages joined by "|".
func pageLabels[T listItem](t testing.TB, query string, read func(query string) listPage[T]) string {
	t.Helper()
	return joinPages(walkPages(t, query, read))
}

// joinPages is pages as their labels, joined by "|".
func joinPages[T listItem](pages []listPage[T]) string {
	out := make([]string, len(pages))
	for i, l := range pages {
		out[i] = l.labels()
	}
	return strings.Join(out, "|")
}

// gqlRefusal is a GraphQL call that must fail: who runs the query with vars, and the first
// error's extensions.code must be code.
type gqlRefusal struct {
	name string
	who  account
	vars map[string]any
	code string
}

// wantRefusals runs query for each refusal and checks its code ("" when it succeeded).
func (e *env) wantRefusals(query string, refusals ...gqlRefusal) {
	e.t.Helper()
	for _, r := range refusals {
		if c := teamsCode(e.gql(r.who.Token, query, r.vars)); c != r.code {
			e.t.Errorf("GraphQL %s: code %q, want %s", r.name, c, r.code)
		}
	}
}

// badPaging are paging parameters every list refuses: limits out of the contract's 0 to 1000 or
// not written in digits, a page token this server did not issue or longer than any it issues,
// and an order that is neither asc nor desc (lists without an order refuse any).
var badPaging = []string{"limit=1001", "limit=-1", "limit=x", "limit=abc", "limit=1.5", "limit=1e3", "limit=", "limit=+5",
	"page=notacursor", "page=" + strings.Repeat("A", 5000), "order=sideways"}

// wantBadPaging checks that the list at path refuses bad paging parameters with a 400 whose
// message starts with the parameter's name; extra are more to refuse ("page=" and a cursor of
// another list, say).
func (e *env) wantBadPaging(token, path string, extra ...string) {
	e.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for _, bad := range append(slices.Clone(badPaging), extra...) {
		res := e.call(token, "GET", path+sep+bad, nil)
		if res.Status != http.StatusBadRequest {
			e.t.Errorf("GET %s%s%.40s: status %d, want 400", path, sep, bad, res.Status)
			continue
		}
		msg := res.wantError(http.StatusBadRequest)
		if name, _, _ := strings.Cut(bad, "="); !strings.HasPrefix(msg, name) {
			e.t.Errorf("GET %s%s%.40s: message %q does not name %s", path, sep, bad, msg, name)
		}
	}
}

// badBody is a request body that a REST call must refuse with a 400 whose message starts with
// field; body nil sends no body at all (and no Content-Type), "" an empty JSON one.
type badBody struct {
	name  string
	body  any
	field string
}

// wantBadBodies sends each body to path as token and checks the 400 names the body's field.
func (e *env) wantBadBodies(token, method, path string, bodies ...badBody) {
	e.t.Helper()
	for _, b := range bodies {
		if msg := e.call(token, method, path, b.body).wantError(http.StatusBadRequest); !strings.HasPrefix(msg, b.field) {
			e.t.Errorf("%s: message %q does not name %s", b.name, msg, b.field)
		}
	}
}

// wantInvalid runs query as who and checks that GraphQL refuses it as INVALID naming field.
func (e *env) wantInvalid(name string, who account, query string, vars map[string]any, field string) {
	e.t.Helper()
	if g := e.gql(who.Token, query, vars); g.code() != "INVALID" || g.Errors[0].Extensions["field"] != field {
		e.t.Errorf("GraphQL %s: %+v", name, g.Errors)
	}
}

// bothDoorsPages pages through one list through both doors side by side, limit items a page:
// REST from path (with no query) and GraphQL's query (a connection taking $first and $after, vars
// holding the rest) whose connection sits at conn, the field names from data down. Each page must
// list the same titles and total in both; REST's next.page must be GraphQL's endCursor and its
// last edge's cursor; each door continues with the other's cursor. It returns the titles, pages
// joined by "|", and the total count (the same on every page).
func (e *env) bothDoorsPages(token, path string, limit int, query string, vars map[string]any, conn ...string) (pages string, count int) {
	e.t.Helper()
	type connection struct {
		TotalCount int
		PageInfo   struct {
			HasNextPage bool
			EndCursor   *string
		}
		Edges []struct {
			Cursor string
			Node   struct{ Title string }
		}
	}
	gqlVars := map[string]any{"first": limit}
	for k, v := range vars {
		gqlVars[k] = v
	}
	restPath := fmt.Sprintf("%s?limit=%d", path, limit)
	var seen []string
	for i := 0; ; i++ {
		if i == 10 {
			e.t.Fatalf("%s: pagination does not end (%d pages so far)", path, i)
		}
		var data json.RawMessage
		e.gql(token, query, gqlVars).ok(&data)
		for _, field := range conn {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(data, &m); err != nil {
				e.t.Fatalf("GraphQL %s: %v", field, err)
			}
			data = m[field]
		}
		var g connection
		if err := json.Unmarshal(data, &g); err != nil {
			e.t.Fatalf("GraphQL connection %s: %v", data, err)
		}
		var rest listPage[titled]
		e.call(token, "GET", restPath, nil).want(http.StatusOK).decode(&rest)
		var titles []string
		for _, ed := range g.Edges {
			titles = append(titles, ed.Node.Title)
		}
		if i == 0 {
			count = rest.Count
		}
		if strings.Join(titles, ",") != rest.labels() || g.TotalCount != rest.Count || rest.Count != count {
			e.t.Errorf("%s page %d: GraphQL %v (%d), REST %s (%d), first page's count %d", path, i, titles, g.TotalCount, rest.labels(), rest.Count, count)
		}
		seen = append(seen, strings.Join(titles, ","))
		if !g.PageInfo.HasNextPage {
			if rest.Next != nil {
				e.t.Errorf("%s page %d: REST has a next page, GraphQL does not", path, i)
			}
			return strings.Join(seen, "|"), count
		}
		if rest.Next == nil || g.PageInfo.EndCursor == nil || *g.PageInfo.EndCursor != rest.Next.Page || g.Edges[len(g.Edges)-1].Cursor != rest.Next.Page {
			e.t.Fatalf("%s page %d: GraphQL endCursor %v / last edge cursor, REST next %+v: want equal", path, i, g.PageInfo.EndCursor, rest.Next)
		}
		// Alternate: REST continues with GraphQL's cursor and GraphQL with REST's.
		gqlVars["after"] = rest.Next.Page
		restPath = fmt.Sprintf("%s?limit=%d&page=%s", path, limit, url.QueryEscape(*g.PageInfo.EndCursor))
	}
}

// snapshot reads path as token and returns a check that fails, saying what (the requests since),
// when path then reads differently: for requests that must change nothing.
func (e *env) snapshot(token, path string) (wantUnchanged func(what string)) {
	e.t.Helper()
	before := e.call(token, "GET", path, nil).want(http.StatusOK).Body
	return func(what string) {
		e.t.Helper()
		if after := e.call(token, "GET", path, nil).want(http.StatusOK).Body; string(after) != string(before) {
			e.t.Errorf("%s changed %s:\n%s\n%s", what, path, before, after)
		}
	}
}

// orderedLists are the lists that take order (asc or desc), as the contract's routes say.
var orderedLists = map[string]bool{
	"/orgs/{organizationId}/members":                               true,
	"/orgs/{organizationId}/members/{userId}/spaces":               true,
	"/spaces/{spaceId}/comments":                                   true,
	"/spaces/{spaceId}/change-requests/{changeRequestId}/comments": true,
}

// listFilters are bad values of the filters some lists take, refused like bad paging.
var listFilters = map[string][]string{
	"/orgs/{organizationId}/members":                               {"role=owner", "sort=name"},
	"/spaces/{spaceId}/change-requests":                            {"status=bogus"},
	"/spaces/{spaceId}/comments":                                   {"status=bogus", "format=html"},
	"/spaces/{spaceId}/change-requests/{changeRequestId}/comments": {"status=bogus", "format=html"},
	"/orgs/{organizationId}/sites":                                 {"published=maybe", "type=bogus"},
	"/orgs/{organizationId}/sites/{siteId}/site-spaces":            {"default=maybe"},
	"/spaces/{spaceId}/content/page/{pageId}/links":                {"status=bogus"},
}

// ownLimits are the lists whose contract bounds limit otherwise: the newer contract's audit log
// takes 1 to 100 (listOrganizationAuditEvents).
var ownLimits = map[string]bool{"/orgs/{organizationId}/audit-events": true}

// Every list of the route table reads its paging parameters the same way: each GET route of the
// matrix is called as the organization's admin, and those that answer a list ({items, count})
// must refuse every bad value naming the parameter, and take the contract's bounds.
func TestEveryListRefusesBadParameters(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		e.withAnswers() // Ask's reads answer (none is a list)
		orgID, admin := e.org("Matrix", "admin@matrix.test")
		f := e.matrixFixture(sharedFixturePath, orgID, admin, 1)
		lists := map[string]bool{}
		for _, c := range matrix {
			if c.method != "GET" {
				continue
			}
			path := c.url(f)
			res := e.call(admin.Token, "GET", path, nil)
			if res.Status != http.StatusOK {
				t.Errorf("GET %s: status %d: cannot tell whether it is a list (%s)", c.path, res.Status, res.Body)
				continue
			}
			var list struct {
				Items *json.RawMessage
				Count *int
			}
			if json.Unmarshal(res.Body, &list) != nil || list.Items == nil || list.Count == nil {
				continue
			}
			lists[c.path] = true
			e.wantBadPaging(admin.Token, path, listFilters[c.path]...)
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			goods := []string{"limit=0", "limit=1000", "limit=007", "page="}
			if ownLimits[c.path] {
				goods = []string{"limit=1", "limit=100", "limit=007", "page="}
			}
			for _, good := range goods {
				if res := e.call(admin.Token, "GET", path+sep+good, nil); res.Status != http.StatusOK {
					t.Errorf("GET %s%s%s: status %d, want 200", path, sep, good, res.Status)
				}
			}
			if res := e.call(admin.Token, "GET", path+sep+"order=asc", nil); (res.Status == http.StatusOK) != orderedLists[c.path] {
				t.Errorf("GET %s?order=asc: status %d; the list takes order: %v", c.path, res.Status, orderedLists[c.path])
			}
		}
		named := slices.Collect(maps.Keys(listFilters))
		for _, p := range append(named, slices.Collect(maps.Keys(orderedLists))...) {
			if !lists[p] {
				t.Errorf("%s is named as a list but answers none", p)
			}
		}
		t.Logf("%d lists", len(lists))
	})
}

// PATCH bodies are required by the contract: an absent, empty or null one is refused naming body,
// changing nothing. POST /orgs/{organizationId}/spaces may leave its body out, but one given must
// be an object.
func TestEmptyAndNullBodies(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Matrix", "admin@matrix.test")
		gets := map[string]bool{}
		for _, r := range rest.Routes() {
			if r.Method == "GET" {
				gets[r.Path] = true
			}
		}
		patches := 0
		for i, c := range matrix {
			createSpace := c.method == "POST" && c.path == "/orgs/{organizationId}/spaces"
			// dnsRevalidateCustomHostname is the one PATCH of the contract without a body.
			if (c.method != "PATCH" && !createSpace) || c.path == "/custom-hostnames/{hostname}" {
				continue
			}
			patches++
			f := e.matrixFixture(c.path, orgID, admin, i+2)
			url := c.url(f)
			// What the call would change reads at the longest path of a GET route it starts with.
			pattern, concrete := strings.Split(c.path, "/"), strings.Split(url, "/")
			n := len(pattern)
			for n > 1 && !gets[strings.Join(pattern[:n], "/")] {
				n--
			}
			unchanged := e.snapshot(admin.Token, strings.Join(concrete[:n], "/"))
			bodies := []any{"null", " null\n", "nul"}
			if !createSpace {
				bodies = append(bodies, nil, "", "  ")
			}
			for _, body := range bodies {
				msg := e.call(admin.Token, c.method, url, body).wantError(http.StatusBadRequest)
				if !strings.HasPrefix(msg, "body") {
					t.Errorf("%s %s with body %q: message %q does not name body", c.method, c.path, body, msg)
				}
			}
			unchanged(fmt.Sprintf("%s %s with empty and null bodies", c.method, c.path))
			if createSpace {
				for _, body := range []any{nil, ""} {
					e.call(admin.Token, c.method, url, body).want(http.StatusCreated)
				}
			}
		}
		if patches < 10 {
			t.Errorf("%d PATCH routes in the matrix, want them all", patches)
		}
	})
}
