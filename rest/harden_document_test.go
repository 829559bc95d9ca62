package rest_test

import (
	"database/sql"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// wideTable is finding 5's markdown: a table of cols × rows cells, about 2·cols·rows bytes.
func wideTable(cols, rows int) string {
	row := strings.Repeat("|a", cols) + "|\n"
	sep := strings.Repeat("|-", cols) + "|\n"
	return row + sep + strings.Repeat(row, rows)
}

// Issue 12, finding 5: a page's content is bounded when written (size, table cells, nesting:
// INVALID naming markdown), and a read bounds what it builds, so that content stored before the
// limits existed cannot make a read build a huge document.
func TestDocumentAmplification(t *testing.T) {
	eachDBRaw(t, func(t *testing.T, e *env, raw *sql.DB) {
		o := newContentOrg(e)
		spaceID := o.space("", "Docs")
		to := target(spaceID, "")
		pageID := e.createPage(o.admin.Token, to, map[string]any{"title": "Small", "markdown": "small page"})
		for name, md := range map[string]string{
			"wide table": wideTable(2000, 200),
			"nesting":    strings.Repeat("> ", 150) + "deep",
			"blocks":     strings.Repeat("p\n\n", 30_000),
		} {
			r := e.gql(o.admin.Token, `mutation($t: ContentTarget!, $in: CreatePageInput!) { createPage(target: $t, input: $in) { page { id } } }`,
				map[string]any{"t": to, "in": map[string]any{"title": "Big", "markdown": md}})
			if r.code() != "INVALID" || r.Errors[0].Extensions["field"] != "markdown" {
				t.Errorf("create %s: %+v", name, r.Errors)
			}
			r = e.updatePage(o.admin.Token, to, pageID, map[string]any{"markdown": md})
			if r.code() != "INVALID" || r.Errors[0].Extensions["field"] != "markdown" {
				t.Errorf("update %s: %+v", name, r.Errors)
			}
		}
		// Within the limits, a table is fine.
		e.updatePage(o.admin.Token, to, pageID, map[string]any{"markdown": wideTable(20, 100)}).ok(nil)

		// Stored behind the application's back (as before the limits): reads refuse to build it,
		// quickly and without holding a huge tree; markdown still reads.
		update := `UPDATE page_contents SET markdown = $1 WHERE organization_id = $2`
		if e.store.Dialect() == "sqlite" {
			update = `UPDATE page_contents SET markdown = ? WHERE organization_id = ?`
		}
		if _, err := raw.Exec(update, wideTable(2500, 200), o.id); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		path := "/spaces/" + spaceID + "/content/page/" + pageID
		msg := e.call(o.admin.Token, "GET", path, nil).wantError(http.StatusBadRequest)
		if !strings.Contains(msg, "too large") {
			t.Errorf("REST read: %s", msg)
		}
		r := e.gql(o.admin.Token, `query($s: ID!, $p: ID!) { space(id: $s) { content { page(id: $p) { document } } } }`, map[string]any{"s": spaceID, "p": pageID})
		if r.code() != "INVALID" {
			t.Errorf("GraphQL read: %+v", r.Errors)
		}
		t.Logf("two reads of the stored table: %v, %d MiB allocated", time.Since(start), func() uint64 {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return (m.TotalAlloc - before.TotalAlloc) >> 20
		}())
		// Each read parses the megabyte of markdown once (a few seconds on a busy machine).
		if d := time.Since(start); d > 40*time.Second {
			t.Errorf("reads took %v", d)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 3<<30 { // process-wide: both databases run at once
			t.Errorf("two reads allocated %d MiB", grew>>20)
		}
		e.call(o.admin.Token, "GET", path+"?format=markdown", nil).want(http.StatusOK)
	})
}
