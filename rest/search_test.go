package rest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// searchPage is a space search item as REST answers it.
type searchPage struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Path      string `json:"path"`
	Ancestors []struct {
		Title string `json:"title"`
	} `json:"ancestors"`
	Sections []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Path  string `json:"path"`
		Body  string `json:"body"`
		URLs  struct {
			App string `json:"app"`
		} `json:"urls"`
	} `json:"sections"`
	URLs struct {
		App string `json:"app"`
	} `json:"urls"`
}

type searchPages struct {
	Items []searchPage `json:"items"`
	Count int          `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

type searchSpaces struct {
	Items []struct {
		ID    string       `json:"id"`
		Title string       `json:"title"`
		Pages []searchPage `json:"pages"`
	} `json:"items"`
	Count int `json:"count"`
}

// searchSpace runs a space search through REST and returns the answer.
func (e *env) searchSpace(token, spaceID, query, extra string) searchPages {
	e.t.Helper()
	var out searchPages
	e.call(token, "GET", "/spaces/"+spaceID+"/search?query="+url.QueryEscape(query)+extra, nil).want(http.StatusOK).decode(&out)
	return out
}

func titlesOf(pages []searchPage) []string {
	out := []string{}
	for _, p := range pages {
		out = append(out, p.Title)
	}
	return out
}

func TestSearchSpaceResultShapes(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(201).object()["id"].(string)
		to := target(spaceID, "")
		group := e.createPage(admin.Token, to, map[string]any{"type": "GROUP", "title": "Guides"})
		parent := e.createPage(admin.Token, to, map[string]any{"title": "Operations", "parent": group, "markdown": "Running Bindery."})
		page := e.createPage(admin.Token, to, map[string]any{"title": "Installation", "parent": parent, "markdown": "Read this first.\n\n# Requirements\n\nGo 1.26.\n\n## Installing the binary\n\nDownload it, then run the **installer** on your server.\n\n# Requirements\n\nAgain."})

		got := e.searchSpace(admin.Token, spaceID, "installer", "")
		if got.Count != 1 || len(got.Items) != 1 || got.Next != nil {
			t.Fatalf("search = %+v, want one page", got)
		}
		p := got.Items[0]
		if p.ID != page || p.Title != "Installation" || p.Path != "guides/operations/installation" {
			t.Errorf("page = %s %q %q", p.ID, p.Title, p.Path)
		}
		if diff := cmp.Diff([]string{"Guides", "Operations"}, []string{p.Ancestors[0].Title, p.Ancestors[1].Title}); diff != "" || len(p.Ancestors) != 2 {
			t.Errorf("ancestors (-want +got):\n%s", diff)
		}
		base := "https://app.bindery.test/s/" + spaceID + "/guides/operations/installation"
		if p.URLs.App != base {
			t.Errorf("urls.app = %q, want %q", p.URLs.App, base)
		}
		if len(p.Sections) == 0 {
			t.Fatal("no sections")
		}
		s := p.Sections[0]
		if s.ID != "installing-the-binary" || s.Title != "Installing the binary" || s.Path != p.Path+"#installing-the-binary" ||
			s.URLs.App != base+"#installing-the-binary" || !strings.Contains(s.Body, "run the installer on your server") {
			t.Errorf("section = %+v", s)
		}

		// A title match shows the page's opening text; repeated headings get distinct anchors.
		got = e.searchSpace(admin.Token, spaceID, "requirements", "")
		var anchors []string
		for _, s := range got.Items[0].Sections {
			anchors = append(anchors, s.ID)
		}
		if diff := cmp.Diff([]string{"requirements", "requirements-2"}, anchors); diff != "" {
			t.Errorf("anchors (-want +got):\n%s", diff)
		}
		got = e.searchSpace(admin.Token, spaceID, "operations", "")
		if len(got.Items) != 1 || got.Items[0].Sections[0].ID != parent || got.Items[0].Sections[0].Body != "Running Bindery." {
			t.Errorf("title match = %+v", got.Items)
		}

		// Both doors give the same results.
		var data struct {
			Space struct {
				Search struct {
					TotalCount int
					Nodes      []searchPage
				}
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { search(query: "installer") { totalCount nodes { id title path ancestors { title } sections { id title path body urls { app } } urls { app } } } } }`,
			map[string]any{"s": spaceID}).ok(&data)
		if diff := cmp.Diff(e.searchSpace(admin.Token, spaceID, "installer", "").Items, data.Space.Search.Nodes); diff != "" || data.Space.Search.TotalCount != 1 {
			t.Errorf("GraphQL differs from REST (-rest +graphql):\n%s", diff)
		}
	})
}

func TestSearchQueryIsRequiredAndAnyInputIsSafe(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(201).object()["id"].(string)
		e.createPage(admin.Token, target(spaceID, ""), map[string]any{"title": "Near", "markdown": "near or far, and or not"})
		for _, path := range []string{"/spaces/" + spaceID + "/search", "/orgs/" + orgID + "/search"} {
			for _, q := range []string{"", "?query=", "?query=%20%20", "?query=" + strings.Repeat("a", 513)} {
				if msg := e.call(admin.Token, "GET", path+q, nil).wantError(400); !strings.Contains(msg, "query") {
					t.Errorf("GET %s%s: message %q does not name query", path, q, msg)
				}
			}
			if msg := e.call(admin.Token, "GET", path+"?query=x&page=bogus", nil).wantError(400); msg == "" {
				t.Errorf("a bogus page token is not refused")
			}
			for _, q := range []string{`"`, `*`, `NEAR(`, `-`, `OR OR`, `near OR`, `-near`, `"near or`, `title:near`, `near*`, `^near`, `(near)`, `'; DROP TABLE search_pages; --`, `\`, `%`, `NOT near`, `AND`, `near NEAR/2 far`, `{}`, `¯\_(ツ)_/¯`} {
				e.call(admin.Token, "GET", path+"?query="+url.QueryEscape(q), nil).want(http.StatusOK)
			}
		}
		if code := e.gql(admin.Token, `query($s: ID!) { space(id: $s) { search(query: " ") { totalCount } } }`, map[string]any{"s": spaceID}).code(); code != "INVALID" {
			t.Errorf("blank GraphQL query: code %q, want INVALID", code)
		}
	})
}

func TestSearchSyntax(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(201).object()["id"].(string)
		to := target(spaceID, "")
		for title, md := range map[string]string{
			"Alpha": "red green blue",
			"Beta":  "green red yellow",
			"Gamma": "blue yellow",
		} {
			e.createPage(admin.Token, to, map[string]any{"title": title, "markdown": md})
		}
		tests := []struct{ query, want string }{
			{"red", "Alpha Beta"},
			{`"red green"`, "Alpha"},
			{`"green red"`, "Beta"},
			{"red -yellow", "Alpha"},
			{`-"red green" yellow`, "Beta Gamma"},
			{"alpha OR gamma", "Alpha Gamma"},
			{"red blue OR yellow", "Alpha Beta Gamma"},
			{"purple", ""},
			{"red purple", "Alpha Beta"}, // no page holds both: pages holding either, by coverage
		}
		for _, tt := range tests {
			got := titlesOf(e.searchSpace(admin.Token, spaceID, tt.query, "").Items)
			slices.Sort(got)
			if diff := cmp.Diff(strings.Fields(tt.want), got); diff != "" {
				t.Errorf("search %q (-want +got):\n%s", tt.query, diff)
			}
		}
		// Paging: a limit splits the results; the next page token continues them.
		first := e.searchSpace(admin.Token, spaceID, "red OR blue OR yellow", "&limit=2")
		if len(first.Items) != 2 || first.Count != 3 || first.Next == nil {
			t.Fatalf("first page = %+v", first)
		}
		second := e.searchSpace(admin.Token, spaceID, "red OR blue OR yellow", "&limit=2&page="+url.QueryEscape(first.Next.Page))
		if len(second.Items) != 1 || second.Next != nil || slices.Contains(titlesOf(first.Items), second.Items[0].Title) {
			t.Errorf("second page = %+v", second)
		}
	})
}

func TestSearchFollowsEditsMergesAndDeletes(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Handbook"}`).want(201).object()["id"].(string)
		live := target(spaceID, "")
		page := e.createPage(admin.Token, live, map[string]any{"title": "Notes", "markdown": "apricot"})
		found := func(q string) int { t.Helper(); return e.searchSpace(admin.Token, spaceID, q, "").Count }
		if found("apricot") != 1 {
			t.Fatal("a new page is not found")
		}
		e.updatePage(admin.Token, live, page, map[string]any{"markdown": "blackberry"}).ok(nil)
		if found("apricot") != 0 || found("blackberry") != 1 {
			t.Error("a live edit is not searchable at once")
		}
		e.updatePage(admin.Token, live, page, map[string]any{"title": "Orchard"}).ok(nil)
		if found("orchard") != 1 || found("notes") != 0 {
			t.Error("a renamed page is not found by its new title")
		}

		cr := e.openChangeRequest(admin.Token, spaceID, "Fruit")
		e.updatePage(admin.Token, target(spaceID, cr), page, map[string]any{"markdown": "cranberry"}).ok(nil)
		e.createPage(admin.Token, target(spaceID, cr), map[string]any{"title": "Draft", "markdown": "cranberry"})
		if found("cranberry") != 0 || found("blackberry") != 1 {
			t.Error("a change request's content is searchable before its merge")
		}
		e.call(admin.Token, "POST", "/spaces/"+spaceID+"/change-requests/"+cr+"/merge", nil).want(200)
		if found("cranberry") != 2 || found("blackberry") != 0 {
			t.Errorf("a merge is not searchable at once: cranberry %d, blackberry %d", found("cranberry"), found("blackberry"))
		}

		e.gql(admin.Token, `mutation($t: ContentTarget!, $p: ID!) { deletePage(target: $t, pageId: $p) { revision { id } } }`, map[string]any{"t": live, "p": page}).ok(nil)
		if found("cranberry") != 1 {
			t.Error("a deleted page is still found")
		}
	})
}

func TestSearchOnlyShowsReadableSpaces(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		_, outsider := e.org("Other", "admin@other.test")
		guest := e.member(orgID, "guest@search.test", "guest")
		reader := e.member(orgID, "reader@search.test", "read")
		spaces := map[string]string{}
		for _, title := range []string{"Open", "Closed", "Trashed"} {
			id := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"`+title+`"}`).want(201).object()["id"].(string)
			spaces[title] = id
			e.createPage(admin.Token, target(id, ""), map[string]any{"title": title + " page", "markdown": "shared secret words"})
		}
		e.call(admin.Token, "POST", "/spaces/"+spaces["Open"]+"/permissions", `{"role":"read","users":["`+guest.ID+`"]}`).want(204)
		e.call(admin.Token, "PATCH", "/spaces/"+spaces["Closed"], `{"defaultLevel":null}`).want(200) // closed to members without a grant
		e.call(admin.Token, "DELETE", "/spaces/"+spaces["Trashed"], nil).want(204)

		orgSearch := func(token string) []string {
			t.Helper()
			var out searchSpaces
			e.call(token, "GET", "/orgs/"+orgID+"/search?query=secret", nil).want(200).decode(&out)
			var titles []string
			for _, s := range out.Items {
				titles = append(titles, s.Title)
				if len(s.Pages) != 1 || s.Pages[0].Title != s.Title+" page" {
					t.Errorf("space %s pages = %+v", s.Title, s.Pages)
				}
			}
			if out.Count != len(titles) {
				t.Errorf("count %d, %d items", out.Count, len(titles))
			}
			slices.Sort(titles)
			return titles
		}
		if diff := cmp.Diff([]string{"Closed", "Open"}, orgSearch(admin.Token)); diff != "" {
			t.Errorf("admin (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"Open"}, orgSearch(guest.Token)); diff != "" {
			t.Errorf("guest (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"Open"}, orgSearch(reader.Token)); diff != "" {
			t.Errorf("reader (-want +got):\n%s", diff)
		}
		e.call(guest.Token, "GET", "/spaces/"+spaces["Closed"]+"/search?query=secret", nil).wantError(404)
		e.call(reader.Token, "GET", "/spaces/"+spaces["Closed"]+"/search?query=secret", nil).wantError(404)
		e.call(admin.Token, "GET", "/spaces/"+spaces["Trashed"]+"/search?query=secret", nil).wantError(404)
		e.call(outsider.Token, "GET", "/spaces/"+spaces["Open"]+"/search?query=secret", nil).wantError(404)
		e.call(outsider.Token, "GET", "/orgs/"+orgID+"/search?query=secret", nil).wantError(404)
		if code := e.gql(outsider.Token, `query($o: ID!) { organization(id: $o) { search(query: "secret") { totalCount } } }`, map[string]any{"o": orgID}).code(); code != "NOT_FOUND" {
			t.Errorf("outsider GraphQL code %q, want NOT_FOUND", code)
		}
	})
}

// relevanceSet is testdata/search_relevance.json.
type relevanceSet struct {
	Pages []struct {
		Title, Group, Markdown string
	}
	Queries []struct {
		Query  string
		First  []string
		Absent []string
	}
}

func TestSearchRelevance(t *testing.T) {
	raw, err := os.ReadFile("testdata/search_relevance.json")
	if err != nil {
		t.Fatal(err)
	}
	var set relevanceSet
	if err := json.Unmarshal(raw, &set); err != nil {
		t.Fatal(err)
	}
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(201).object()["id"].(string)
		to := target(spaceID, "")
		groups := map[string]string{}
		for _, p := range set.Pages {
			if groups[p.Group] == "" {
				groups[p.Group] = e.createPage(admin.Token, to, map[string]any{"type": "GROUP", "title": p.Group})
			}
			e.createPage(admin.Token, to, map[string]any{"title": p.Title, "parent": groups[p.Group], "markdown": p.Markdown})
		}
		for _, q := range set.Queries {
			got := titlesOf(e.searchSpace(admin.Token, spaceID, q.Query, "").Items)
			if len(got) < len(q.First) || !cmp.Equal(q.First, got[:len(q.First)]) {
				t.Errorf("search %q = %v, want %v first", q.Query, got, q.First)
			}
			for _, a := range q.Absent {
				if slices.Contains(got, a) {
					t.Errorf("search %q = %v, want no %q", q.Query, got, a)
				}
			}
		}
	})
}

func TestSearchAsYouTypeCorrectsAndHighlights(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Search", "admin@search.test")
		spaceID := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Docs"}`).want(201).object()["id"].(string)
		to := target(spaceID, "")
		e.createPage(admin.Token, to, map[string]any{"title": "😀 Configuration", "markdown": "Configure the server with flags. Every flag has an environment variable."})
		e.createPage(admin.Token, to, map[string]any{"title": "Installation", "markdown": "Install the binary on your server."})
		e.createPage(admin.Token, to, map[string]any{"title": "Authentication", "markdown": "Log in with Auth0 or SAML before reading private docs."})
		// Another organization's words complete and correct nothing here.
		otherOrg, other := e.org("Other", "admin@other.test")
		otherSpace := e.call(other.Token, "POST", "/orgs/"+otherOrg+"/spaces", `{"title":"Other"}`).want(201).object()["id"].(string)
		e.createPage(other.Token, target(otherSpace, ""), map[string]any{"title": "Confidential", "markdown": "confiscated"})

		for _, tt := range []struct{ query, want string }{
			{"confi", "😀 Configuration"},        // the word being typed completes
			{"server confi", "😀 Configuration"}, // the last word only
			{"instal", "Installation"},          // a prefix of a stemmed word
			{"confgure", "😀 Configuration"},     // one edit away
			{"authentcation", "Authentication"}, // one edit, long word
			{"enviroment variabel", "😀 Configuration"},
			{"auth0 private docs login", "Authentication"}, // not every word matches: coverage ranks
		} {
			got := titlesOf(e.searchSpace(admin.Token, spaceID, tt.query, "").Items)
			if len(got) == 0 || got[0] != tt.want {
				t.Errorf("search %q = %v, want %q first", tt.query, got, tt.want)
			}
		}
		if got := titlesOf(e.searchSpace(admin.Token, spaceID, "confi ", "").Items); len(got) != 0 {
			t.Errorf("search %q (a finished word) = %v, want nothing", "confi ", got)
		}
		if got := e.searchSpace(admin.Token, spaceID, "confiscated", ""); len(got.Items) != 0 {
			t.Errorf("another organization's page leaked: %v", titlesOf(got.Items))
		}

		var res struct {
			Space struct {
				Search struct {
					TotalCount        int
					TotalCountIsExact bool
					Nodes             []struct {
						Title           string
						TitleHighlights []struct{ Start, Length int }
						Sections        []struct {
							Body           string
							BodyHighlights []struct{ Start, Length int }
						}
					}
				}
			}
		}
		e.gql(admin.Token, `query($s: ID!) { space(id: $s) { search(query: "confi") { totalCount totalCountIsExact
			nodes { title titleHighlights { start length } sections { body bodyHighlights { start length } } } } } }`,
			map[string]any{"s": spaceID}).ok(&res)
		s := res.Space.Search
		if s.TotalCount != 1 || !s.TotalCountIsExact || len(s.Nodes) != 1 {
			t.Fatalf("GraphQL search = %+v", s)
		}
		n := s.Nodes[0]
		// "😀 " is three UTF-16 code units; "Configuration" thirteen.
		if want := []struct{ Start, Length int }{{3, 13}}; !cmp.Equal(n.TitleHighlights, want) {
			t.Errorf("title highlights = %v, want %v", n.TitleHighlights, want)
		}
		if len(n.Sections) != 1 || !cmp.Equal(n.Sections[0].BodyHighlights, []struct{ Start, Length int }{{0, 9}}) {
			t.Errorf("sections = %+v, want Configure highlighted at 0", n.Sections)
		}
	})
}
