package rest_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
)

// Content reads through both doors, and the change request operations, cost the same statements
// whatever the number of pages: a space of 5 pages and one of 50 (nested) are read alike.
func TestContentStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Counts", "admin@counts.test")

		// statSpace is a space of top pages, each with children under it, and a change request
		// editing the first top page and its first child.
		type statSpace struct {
			id, cr, top, child string
			pages              int
		}
		build := func(title string, top, children int) statSpace {
			s := statSpace{id: e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"`+title+`"}`).want(http.StatusCreated).object()["id"].(string)}
			to := target(s.id, "")
			for i := range top {
				p := e.createPage(admin.Token, to, map[string]any{"title": fmt.Sprintf("Chapter %d", i), "markdown": fmt.Sprintf("# Chapter %d\n\nSome *text* and a [link](https://example.com/%d).", i, i)})
				s.pages++
				if i == 0 {
					s.top = p
				}
				for j := range children {
					c := e.createPage(admin.Token, to, map[string]any{"title": fmt.Sprintf("Section %d.%d", i, j), "parent": p, "markdown": fmt.Sprintf("Section %d.%d\n\n- one\n- two", i, j)})
					s.pages++
					if i == 0 && j == 0 {
						s.child = c
					}
				}
			}
			s.cr = e.openChangeRequest(admin.Token, s.id, "Counted")
			e.updatePage(admin.Token, target(s.id, s.cr), s.top, map[string]any{"markdown": "# Chapter 0\n\nChanged."}).ok(nil)
			e.updatePage(admin.Token, target(s.id, s.cr), s.child, map[string]any{"title": "Renamed section"}).ok(nil)
			return s
		}
		small, large := build("Small", 1, 4), build("Large", 5, 9)
		if small.pages != 5 || large.pages != 50 {
			t.Fatalf("built %d and %d pages, want 5 and 50", small.pages, large.pages)
		}

		countREST := func(method, path string, status int, pages int) int64 {
			t.Helper()
			var n atomic.Int64
			res := e.callCounted(admin.Token, method, path, nil, &n).want(status)
			if pages > 0 {
				var body struct{ Pages []restPage }
				res.decode(&body)
				if got := countPages(body.Pages); got != pages {
					t.Fatalf("%s %s listed %d pages, want %d", method, path, got, pages)
				}
			}
			return n.Load()
		}
		const treeQuery = `query($s: ID!) { space(id: $s) { content { pages { id title markdown pages { id markdown } } } } }`
		const crTreeQuery = `query($s: ID!, $cr: ID!) { space(id: $s) { changeRequest(id: $cr) { content { pages { id title markdown pages { id markdown } } } } } }`
		countGQL := func(query string, s statSpace) int64 {
			t.Helper()
			var n atomic.Int64
			var data struct {
				Space struct {
					Content       struct{ Pages []restPage }
					ChangeRequest struct{ Content struct{ Pages []restPage } }
				}
			}
			e.gqlCounted(admin.Token, query, map[string]any{"s": s.id, "cr": s.cr}, &n).ok(&data)
			pages := data.Space.Content.Pages
			if len(pages) == 0 {
				pages = data.Space.ChangeRequest.Content.Pages
			}
			if got := countPages(pages); got != s.pages {
				t.Fatalf("GraphQL tree listed %d pages, want %d", got, s.pages)
			}
			for _, p := range pages {
				if p.Markdown == "" {
					t.Fatalf("GraphQL page %s has no markdown", p.ID)
				}
			}
			return n.Load()
		}

		reads := []struct {
			name  string
			count func(s statSpace) int64
		}{
			{"GET content", func(s statSpace) int64 { return countREST("GET", "/spaces/"+s.id+"/content", 200, s.pages) }},
			{"GET content/pages", func(s statSpace) int64 { return countREST("GET", "/spaces/"+s.id+"/content/pages", 200, s.pages) }},
			{"GET content/page (top, document)", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/content/page/"+s.top+"?format=document", 200, 0)
			}},
			{"GET content/page (child, document)", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/content/page/"+s.child+"?format=document", 200, 0)
			}},
			{"GET content/page (top, markdown)", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/content/page/"+s.top+"?format=markdown", 200, 0)
			}},
			{"GET change request content", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/change-requests/"+s.cr+"/content", 200, s.pages)
			}},
			{"GET change request content/pages", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/change-requests/"+s.cr+"/content/pages", 200, s.pages)
			}},
			{"GET change request content/page (top, document)", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/change-requests/"+s.cr+"/content/page/"+s.top+"?format=document", 200, 0)
			}},
			{"GET change request content/page (child, document)", func(s statSpace) int64 {
				return countREST("GET", "/spaces/"+s.id+"/change-requests/"+s.cr+"/content/page/"+s.child+"?format=document", 200, 0)
			}},
			{"GraphQL space content tree", func(s statSpace) int64 { return countGQL(treeQuery, s) }},
			{"GraphQL change request content tree", func(s statSpace) int64 { return countGQL(crTreeQuery, s) }},
		}
		for _, r := range reads {
			few, many := r.count(small), r.count(large)
			if few != many {
				t.Errorf("%s: statements grew from %d (5 pages) to %d (50 pages)", r.name, few, many)
			}
			if few == 0 {
				t.Errorf("%s: counted no statements", r.name)
			}
		}

		// Opening a change request copies nothing: a small fixed number of statements.
		openCounted := func(s statSpace) int64 {
			var n atomic.Int64
			e.callCounted(admin.Token, "POST", "/spaces/"+s.id+"/change-requests", `{"subject":"Counted open"}`, &n).want(http.StatusCreated)
			return n.Load()
		}
		few, many := openCounted(small), openCounted(large)
		if few != many {
			t.Errorf("opening a change request: statements grew from %d (5 pages) to %d (50 pages)", few, many)
		}
		const maxOpen = 15
		if many > maxOpen {
			t.Errorf("opening a change request ran %d statements, want at most %d", many, maxOpen)
		}

		// Editing one page in a change request, and merging it, cost the same whatever the size.
		editAndMerge := func(s statSpace) (edit, merge int64) {
			cr := e.openChangeRequest(admin.Token, s.id, "Counted merge")
			var ne, nm atomic.Int64
			e.gqlCounted(admin.Token, `mutation($t: ContentTarget!, $p: ID!) { updatePage(target: $t, pageId: $p, input: {markdown: "counted"}) { revision { id } } }`,
				map[string]any{"t": target(s.id, cr), "p": s.child}, &ne).ok(nil)
			// The space moves on (another page), so the merge checks for conflicts.
			e.updatePage(admin.Token, target(s.id, ""), s.top, map[string]any{"title": "Moved on"}).ok(nil)
			e.callCounted(admin.Token, "POST", "/spaces/"+s.id+"/change-requests/"+cr+"/merge", nil, &nm).want(http.StatusOK)
			return ne.Load(), nm.Load()
		}
		fewEdit, fewMerge := editAndMerge(small)
		manyEdit, manyMerge := editAndMerge(large)
		if fewEdit != manyEdit {
			t.Errorf("editing a page in a change request: statements grew from %d (5 pages) to %d (50 pages)", fewEdit, manyEdit)
		}
		if fewMerge != manyMerge {
			t.Errorf("merging a one-page change request: statements grew from %d (5 pages) to %d (50 pages)", fewMerge, manyMerge)
		}
		t.Logf("statements: open %d, edit %d, merge %d", many, manyEdit, manyMerge)
	})
}

// countPages counts the pages of a tree.
func countPages(pages []restPage) int {
	n := 0
	for _, p := range pages {
		n += 1 + countPages(p.Pages)
	}
	return n
}

// Deleting a page removes its whole subtree in a fixed number of statements: the statement count
// of a request is bounded by what it reads, never by the number of items (docs/performance.md).
func TestContentStatementsDeletePageDoesNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		orgID, admin := e.org("Deletes", "admin@deletes.test")
		count := func(children int) int64 {
			t.Helper()
			space := e.call(admin.Token, "POST", "/orgs/"+orgID+"/spaces", fmt.Sprintf(`{"title":"Delete %d"}`, children)).want(http.StatusCreated).object()["id"].(string)
			to := target(space, "")
			p := e.createPage(admin.Token, to, map[string]any{"title": "Parent", "markdown": "parent"})
			for i := range children {
				c := e.createPage(admin.Token, to, map[string]any{"title": fmt.Sprintf("Child %d", i), "parent": p, "markdown": "child"})
				e.createPage(admin.Token, to, map[string]any{"title": fmt.Sprintf("Grandchild %d", i), "parent": c, "markdown": "grandchild"})
			}
			cr := e.openChangeRequest(admin.Token, space, "Delete")
			var n atomic.Int64
			e.gqlCounted(admin.Token, `mutation($t: ContentTarget!, $p: ID!) { deletePage(target: $t, pageId: $p) { revision { id } } }`,
				map[string]any{"t": target(space, cr), "p": p}, &n).ok(nil)
			var listed struct{ Pages []restPage }
			e.call(admin.Token, "GET", "/spaces/"+space+"/change-requests/"+cr+"/content/pages", nil).want(http.StatusOK).decode(&listed)
			if len(listed.Pages) != 0 {
				t.Fatalf("after deleting the only top page the change request still lists %d pages", countPages(listed.Pages))
			}
			return n.Load()
		}
		few, many := count(2), count(12)
		if few != many {
			t.Errorf("deleting a page: statements grew from %d (5-page subtree) to %d (25-page subtree)", few, many)
		}
	})
}
