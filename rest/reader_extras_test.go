package rest_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
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

// "Was this page helpful?": shown where the site turned feedback on, a plain form post that
// works without the script, counted by the site's insights.
func TestReaderPageFeedback(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "rated")
		o := p.o
		const pageURL = "https://bindery.test/sites/rated/installation"
		post := func(rating string, headers ...string) *httptest.ResponseRecorder {
			form := url.Values{"url": {pageURL}, "rating": {rating}}
			req := httptest.NewRequest("POST", "/sites/rated/~feedback", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			for i := 0; i+1 < len(headers); i += 2 {
				req.Header.Set(headers[i], headers[i+1])
			}
			_, rec := e.serve(req, "", nil)
			return rec
		}
		// Off by default: no form, and a post is refused.
		e.read("/sites/rated/installation", nil).want(http.StatusOK).lacks(`action="https://bindery.test/sites/rated/~feedback"`)
		if rec := post("good"); rec.Code != http.StatusNotFound {
			t.Errorf("feedback while off: %d", rec.Code)
		}
		e.call(o.admin.Token, "PUT", p.path+"/customization", map[string]any{"feedback": map[string]any{"enabled": true}}).want(http.StatusOK)
		e.read("/sites/rated/installation", nil).want(http.StatusOK).
			has(`<form class="feedback" id="feedback" method="post" action="https://bindery.test/sites/rated/~feedback">`, `value="`+pageURL+`"`, `name="rating" value="bad"`, `id="feedback-thanks"`)

		for _, r := range []struct{ rating, dnt string }{{"good", ""}, {"good", "1"}, {"bad", ""}} {
			rec := post(r.rating, "DNT", r.dnt)
			if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != pageURL+"#feedback-thanks" {
				t.Errorf("feedback %s: %d %q", r.rating, rec.Code, rec.Header().Get("Location"))
			}
		}
		if rec := post("great"); rec.Code != http.StatusBadRequest {
			t.Errorf("a bad rating: %d", rec.Code)
		}
		form := url.Values{"url": {"https://bindery.test/sites/rated/nowhere"}, "rating": {"good"}}
		req := httptest.NewRequest("POST", "/sites/rated/~feedback", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if _, rec := e.serve(req, "", nil); rec.Code != http.StatusNotFound {
			t.Errorf("feedback on no page: %d", rec.Code)
		}

		// The ratings count in the site's insights: two visitors (the one who asked not to be
		// tracked counts apart).
		var res struct {
			Columns []struct {
				Column string
				Values []any
			}
		}
		e.call(o.admin.Token, "POST", p.path+"/insights/events/aggregate", map[string]any{"range": "last24Hours",
			"select": []any{map[string]any{"column": "pageFeedbackRating"}, map[string]any{"column": "visitorsCount"}}}).want(http.StatusOK).decode(&res)
		if r, _ := res.Columns[0].Values[0].(map[string]any); r["good"] != 2.0 || r["bad"] != 1.0 || r["ok"] != 0.0 || res.Columns[1].Values[0] != 2.0 {
			t.Errorf("insights = %+v", res)
		}
	})
}

// The reader's page-view beacon: the page names it, a view of a page the visitor sees counts as a
// page_view of that page in the site's insights, and a visitor asking not to be tracked is not
// counted at all.
func TestReaderPageViews(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "viewed")
		o := p.o
		const pageURL = "https://bindery.test/sites/viewed/installation"
		e.read("/sites/viewed/installation", nil).want(http.StatusOK).has(`<body data-beacon="https://bindery.test/sites/viewed/~view">`)
		view := func(u string, headers ...string) int {
			return e.read("/sites/viewed/~view?u="+url.QueryEscape(u)+"&r="+url.QueryEscape("https://search.example/q"), nil, headers...).Status
		}
		if s := view(pageURL); s != http.StatusNoContent {
			t.Errorf("view: %d", s)
		}
		if s := view(pageURL, "DNT", "1"); s != http.StatusNoContent {
			t.Errorf("view with DNT: %d", s)
		}
		if s := view(pageURL, "Sec-GPC", "1"); s != http.StatusNoContent {
			t.Errorf("view with GPC: %d", s)
		}
		if s := view("https://bindery.test/sites/viewed/nowhere"); s != http.StatusNotFound {
			t.Errorf("a view of no page: %d", s)
		}
		if s := view("https://elsewhere.test/x"); s != http.StatusNotFound {
			t.Errorf("a view of another site: %d", s)
		}
		var res struct {
			Columns []struct {
				Column string
				Values []any
			}
		}
		e.call(o.admin.Token, "POST", p.path+"/insights/events/aggregate", map[string]any{"range": "last24Hours",
			"select":  []any{map[string]any{"column": "page"}, map[string]any{"column": "referrerDomain"}, map[string]any{"column": "eventsCount"}},
			"groupBy": []any{map[string]any{"column": "page"}, map[string]any{"column": "referrerDomain"}},
			"where":   []any{map[string]any{"column": "eventType", "values": []string{"page_view"}}}}).want(http.StatusOK).decode(&res)
		if len(res.Columns) != 3 || len(res.Columns[2].Values) != 1 || res.Columns[2].Values[0] != 1.0 || res.Columns[1].Values[0] != "search.example" {
			t.Fatalf("page views = %+v", res)
		}
		if pg, _ := res.Columns[0].Values[0].(map[string]any); pg["page"] != p.page {
			t.Errorf("page views of %v, want page %s", res.Columns[0].Values[0], p.page)
		}
	})
}
