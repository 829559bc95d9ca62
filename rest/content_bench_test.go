package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindery/bindery/domain/document"
	"github.com/bindery/bindery/storage"
	"github.com/bindery/bindery/storage/storagetest"
)

// Content at scale: a generated space of 10,000 pages (100 top-level pages of 99 children each).
//   go test -run '^$' -bench Content -benchtime 20x ./rest/
// The figures are in bench/results/ (2026-11-22-lists-and-content.md).

const (
	bigTop      = 100
	bigChildren = 99
)

// bigContent is a generated space: its top-level pages and their children, in order.
type bigContent struct {
	space    string
	tops     []string
	children []string
}

// generateBigSpace makes a space of top×(1+children) pages in one edit written straight to the
// store: one revision, every page a document with its own markdown.
func generateBigSpace(tb testing.TB, e *env, admin account, orgID string, top, children int) bigContent {
	tb.Helper()
	var created struct{ ID string }
	if err := json.Unmarshal(contentDo(tb, e, admin.Token, "POST", "/orgs/"+orgID+"/spaces", `{"title":"Big"}`, nil, http.StatusCreated), &created); err != nil {
		tb.Fatal(err)
	}
	big := bigContent{space: created.ID}
	_, err := e.res.Store.EditContent(context.Background(), storage.EditTarget{SpaceID: big.space}, admin.ID, e.res.Now,
		func(ctx context.Context, c *storage.ContentTx) (*storage.Edit, error) {
			edit := &storage.Edit{}
			add := func(parent *string, pos int, title, slug, markdown string) string {
				id := storage.NewID()
				contentID := storage.ContentID(c.OrganizationID, markdown)
				edit.Pages = append(edit.Pages, &storage.PageVersion{
					PageID: id, ParentID: parent, Position: float64(pos), Type: "document", Title: title, Slug: slug,
					ContentID: &contentID, CreatedAt: t0, UpdatedAt: t0,
				})
				edit.Contents = append(edit.Contents, &storage.PageContent{Markdown: markdown})
				return id
			}
			for i := range top {
				p := add(nil, i, fmt.Sprintf("Chapter %d", i), fmt.Sprintf("chapter-%d", i),
					fmt.Sprintf("# Chapter %d\n\nWhat chapter %d is about, with *emphasis* and `code`.\n", i, i))
				big.tops = append(big.tops, p)
				for j := range children {
					big.children = append(big.children, add(&p, j, fmt.Sprintf("Section %d.%d", i, j), fmt.Sprintf("section-%d", j),
						fmt.Sprintf("## Section %d.%d\n\nA paragraph of section %d.%d.\n\n- a list\n- of items\n\n```go\nfmt.Println(%d)\n```\n", i, j, i, j, j)))
				}
			}
			return edit, nil
		})
	if err != nil {
		tb.Fatalf("generate %d pages: %v", top*(1+children), err)
	}
	return big
}

// contentDo sends a REST request (path under /v1), counting its statements into n when not nil,
// and fails unless it answers status.
func contentDo(tb testing.TB, e *env, token, method, path, body string, n *atomic.Int64, status int) []byte {
	tb.Helper()
	req := httptest.NewRequest(method, "/v1"+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	_, rec := e.serve(req, token, n)
	if rec.Code != status {
		tb.Fatalf("%s %s: status %d, want %d: %.500s", method, path, rec.Code, status, rec.Body)
	}
	return rec.Body.Bytes()
}

// contentGQL posts a GraphQL operation, counting its statements into n, and fails on errors.
func contentGQL(tb testing.TB, e *env, token, query string, vars map[string]any, n *atomic.Int64) []byte {
	tb.Helper()
	raw, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req := httptest.NewRequest("POST", "/graphql", strings.NewReader(string(raw)))
	req.Header.Set("Content-Type", "application/json")
	_, rec := e.serve(req, token, n)
	if rec.Code != http.StatusOK || strings.Contains(rec.Body.String(), `"errors"`) {
		tb.Fatalf("GraphQL answer %d: %.500s", rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

func createdID(tb testing.TB, body []byte) string {
	tb.Helper()
	var v struct{ ID string }
	if err := json.Unmarshal(body, &v); err != nil || v.ID == "" {
		tb.Fatalf("no id in %.200s", body)
	}
	return v.ID
}

const benchUpdatePage = `mutation($t: ContentTarget!, $p: ID!, $md: String!) { updatePage(target: $t, pageId: $p, input: {markdown: $md}) { revision { id } } }`

// skipUnderShort skips tb under -short: it builds the 10,000-page or the 100,000-page data set,
// which takes minutes.
func skipUnderShort(tb testing.TB, dataSet string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("-short: skips the %s data set", dataSet)
	}
}

func BenchmarkContent(b *testing.B) {
	skipUnderShort(b, "10,000-page")
	for _, d := range storagetest.Dialects {
		b.Run(string(d), func(b *testing.B) {
			e, orgID, admin := benchEnv(b, d, 0)
			big := generateBigSpace(b, e, admin, orgID, bigTop, bigChildren)
			space := "/spaces/" + big.space
			leaf := big.children[len(big.children)/2]
			run := func(name string, op func(b *testing.B, i int, n *atomic.Int64)) {
				b.Run(name, func(b *testing.B) {
					var n atomic.Int64
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						op(b, i, &n)
						i++
					}
					b.ReportMetric(float64(n.Load())/float64(b.N), "stmts/op")
				})
			}
			run("ListPages", func(b *testing.B, _ int, n *atomic.Int64) {
				body := contentDo(b, e, admin.Token, "GET", space+"/content/pages", "", n, http.StatusOK)
				if len(body) < bigTop*(1+bigChildren)*100 {
					b.Fatalf("listing is %d bytes: not every page", len(body))
				}
			})
			run("ReadPage", func(b *testing.B, _ int, n *atomic.Int64) {
				contentDo(b, e, admin.Token, "GET", space+"/content/page/"+leaf, "", n, http.StatusOK)
			})
			run("ReadTopPage", func(b *testing.B, _ int, n *atomic.Int64) { // a page with 99 children
				contentDo(b, e, admin.Token, "GET", space+"/content/page/"+big.tops[len(big.tops)/2], "", n, http.StatusOK)
			})
			run("OpenChangeRequest", func(b *testing.B, _ int, n *atomic.Int64) {
				contentDo(b, e, admin.Token, "POST", space+"/change-requests", `{"subject":"Bench"}`, n, http.StatusCreated)
			})
			cr := createdID(b, contentDo(b, e, admin.Token, "POST", space+"/change-requests", `{"subject":"Bench edits"}`, nil, http.StatusCreated))
			run("EditPage", func(b *testing.B, i int, n *atomic.Int64) {
				contentGQL(b, e, admin.Token, benchUpdatePage, map[string]any{"t": target(big.space, cr), "p": leaf, "md": fmt.Sprintf("edit %d", i)}, n)
			})
			run("Merge", func(b *testing.B, i int, n *atomic.Int64) {
				cr := createdID(b, contentDo(b, e, admin.Token, "POST", space+"/change-requests", `{"subject":"Bench merge"}`, n, http.StatusCreated))
				page := big.children[(i*7919)%len(big.children)]
				contentGQL(b, e, admin.Token, benchUpdatePage, map[string]any{"t": target(big.space, cr), "p": page, "md": fmt.Sprintf("merged %d", i)}, n)
				contentDo(b, e, admin.Token, "POST", space+"/change-requests/"+cr+"/merge", "", n, http.StatusOK)
			})
		})
	}
}

// Opening a change request on a space of 10,000 pages copies nothing: no page version is
// written, in a handful of statements. Editing one page of it writes one version, and merging it
// one more.
// It builds the 10,000-page data set, so -short skips it.
func TestOpenChangeRequestDoesNotCopyTheTree(t *testing.T) {
	skipUnderShort(t, "10,000-page")
	for _, d := range storagetest.Dialects {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := storagetest.DSN(t, d)
			s, err := storage.Open(ctx, dsn, storage.WithSearchText(document.SearchText))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			driver := "pgx"
			if d == storage.SQLite {
				driver = "sqlite"
				if err := s.Migrate(ctx); err != nil {
					t.Fatal(err)
				}
			}
			// The store has no row-count accessor: a second connection to the same database counts.
			raw, err := sql.Open(driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { raw.Close() })
			count := func(table string) int64 {
				t.Helper()
				var n int64
				if err := raw.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
					t.Fatalf("count %s: %v", table, err)
				}
				return n
			}

			e := newEnv(t, s)
			orgID, admin := e.org("Big", "admin@big.test")
			big := generateBigSpace(t, e, admin, orgID, bigTop, bigChildren)
			const pages = bigTop * (1 + bigChildren)
			if got := count("page_versions"); got != pages {
				t.Fatalf("generated %d page versions, want %d", got, pages)
			}

			versions, contents, revisions := count("page_versions"), count("page_contents"), count("revisions")
			var n atomic.Int64
			cr := e.callCounted(admin.Token, "POST", "/spaces/"+big.space+"/change-requests", `{"subject":"Cheap"}`, &n).want(http.StatusCreated).object()["id"].(string)
			if got := count("page_versions"); got != versions {
				t.Errorf("opening a change request wrote %d page versions, want none", got-versions)
			}
			if got := count("page_contents"); got != contents {
				t.Errorf("opening a change request wrote %d page contents, want none", got-contents)
			}
			if got := count("revisions"); got != revisions {
				t.Errorf("opening a change request wrote %d revisions, want none", got-revisions)
			}
			if n.Load() > 15 {
				t.Errorf("opening a change request on %d pages ran %d statements", pages, n.Load())
			}

			// Read without contract validation, which takes seconds on 10,000 pages (the small
			// content tests validate this shape).
			var listed struct{ Pages []restPage }
			if err := json.Unmarshal(contentDo(t, e, admin.Token, "GET", "/spaces/"+big.space+"/change-requests/"+cr+"/content/pages", "", nil, http.StatusOK), &listed); err != nil {
				t.Fatal(err)
			}
			if got := countPages(listed.Pages); got != pages {
				t.Fatalf("the change request shows %d pages, want %d", got, pages)
			}

			leaf := big.children[len(big.children)/2]
			e.updatePage(admin.Token, target(big.space, cr), leaf, map[string]any{"markdown": "edited in the change request"}).ok(nil)
			if got := count("page_versions"); got != versions+1 {
				t.Errorf("editing one page wrote %d page versions, want 1", got-versions)
			}
			e.call(admin.Token, "POST", "/spaces/"+big.space+"/change-requests/"+cr+"/merge", nil).want(http.StatusOK)
			if got := count("page_versions"); got != versions+2 {
				t.Errorf("merging a one-page change request wrote %d page versions, want 1", got-versions-1)
			}
			var page struct{ Markdown string }
			e.call(admin.Token, "GET", "/spaces/"+big.space+"/content/page/"+leaf+"?format=markdown", nil).want(http.StatusOK).decode(&page)
			if page.Markdown != "edited in the change request" {
				t.Errorf("merged page reads %q", page.Markdown)
			}
		})
	}
}
