package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// A dead link of a site answers 404 in the site's chrome: its header with the search box, and
// the navigation of the site space the path falls in, so the visitor finds their way. A site
// that does not exist (or that the visitor may not see) shows nothing of any site.
func TestReaderNotFoundShowsNavigation(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		newPublishingSite(e, "lost")
		p := e.read("/sites/lost/no/such/page", nil).want(http.StatusNotFound).
			has("Page not found", `action="https://bindery.test/sites/lost/~search"`, `id="q-not-found"`, `href="https://bindery.test/sites/lost/installation"`,
				`class="sidebar"`, `data-menu-toggle`, `<meta name="robots" content="noindex">`)
		if strings.Count(p.Body, `name="q"`) != 2 {
			t.Errorf("want the header's and the page's search boxes")
		}
		// No inline script: the page runs under the reader's policy.
		if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(p.Body, "<script>") {
			t.Errorf("CSP %q, or an inline script", csp)
		}
		e.read("/sites/nothing-here/setup", nil).want(http.StatusNotFound).has("Page not found").lacks(`class="sidebar"`, `q-not-found`)
	})
}

// The reader's script carries the keyboard shortcuts, the phone menu and the copy buttons; pages
// work without it (the menu button is hidden until the script shows it).
func TestReaderScriptExtras(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		newPublishingSite(e, "extras")
		page := e.read("/sites/extras/installation", nil).want(http.StatusOK).has(`data-menu-toggle aria-controls="sidebar" aria-expanded="false" hidden`, `aria-keyshortcuts="Control+K Meta+K /"`)
		i := strings.Index(page.Body, "/~static/reader.js")
		if i < 0 {
			t.Fatal("no reader.js")
		}
		src := page.Body[strings.LastIndex(page.Body[:i], `"`)+1 : i+len("/~static/reader.js")]
		e.read(src, nil).want(http.StatusOK).has(`e.ctrlKey || e.metaKey`, `data-menu-toggle`, `copy-code`, `navigator.clipboard.writeText`)
	})
}
