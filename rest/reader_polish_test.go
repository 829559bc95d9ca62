package rest_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// Each page says when it last changed, the sitemap carries it, and the search box's script gets
// the pages found as the visitor types.
func TestReaderLastUpdatedAndSearchAsYouType(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "polished")
		page := e.read("/sites/polished/installation", nil).want(http.StatusOK)
		m := regexp.MustCompile(`Last updated <time datetime="([0-9TZ:-]+)">([A-Z][a-z]+ [0-9]{1,2}, [0-9]{4})</time>`).FindStringSubmatch(page.Body)
		if m == nil {
			t.Fatalf("no last updated date on the page:\n%s", page.Body)
		}
		// No Git Sync: no edit link.
		page.lacks("Edit on Git")

		sitemap := e.read("/sites/polished/sitemap.xml", nil).want(http.StatusOK)
		if !strings.Contains(sitemap.Body, "<loc>https://bindery.test/sites/polished/installation</loc>\n    <lastmod>"+m[1]+"</lastmod>") {
			t.Errorf("sitemap lacks the page's lastmod %s:\n%s", m[1], sitemap.Body)
		}

		// A page whose layout hides its metadata shows no date.
		e.updatePage(p.o.admin.Token, target(p.space, ""), p.page, map[string]any{"layout": map[string]any{"width": "default", "cover": true, "coverSize": "hero", "title": true, "description": true, "tableOfContents": true, "outline": true, "pagination": true, "metadata": false}}).ok(nil)
		e.read("/sites/polished/installation", nil).want(http.StatusOK).lacks("Last updated")

		res := e.read("/sites/polished/~search?q=installer&format=json", nil).want(http.StatusOK)
		if ct := res.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Content-Type = %q", ct)
		}
		var found struct {
			Results []struct{ Title, Where, URL string }
		}
		if err := json.Unmarshal([]byte(res.Body), &found); err != nil {
			t.Fatal(err)
		}
		if len(found.Results) != 1 || found.Results[0].Title != "Installation" || found.Results[0].URL != "https://bindery.test/sites/polished/installation" || found.Results[0].Where != "Handbook" {
			t.Errorf("suggestions = %+v", found)
		}
		if res.Header.Get("Cache-Control") != "private, no-cache" {
			t.Errorf("suggestions are cacheable: %q", res.Header.Get("Cache-Control"))
		}
		e.read("/sites/polished/~search?q=nothingmatches&format=json", nil).want(http.StatusOK).has(`{"results":[]}`)
		// Without the script, the form still answers a page of results.
		e.read("/sites/polished/~search?q=installer", nil).want(http.StatusOK).has(`<a class="result-title" href="https://bindery.test/sites/polished/installation">Installation</a>`)
		// The script is the reader's own file: no inline script on the page.
		if strings.Contains(page.Body, "<script>") || !strings.Contains(page.Body, `<input id="q" name="q" type="search"`) {
			t.Errorf("page has inline script or no search box")
		}
	})
}
