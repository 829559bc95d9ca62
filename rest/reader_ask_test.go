package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// post sends a body to the reader as a visitor, with headers.
func (e *env) readerPost(path, contentType, body string, headers ...string) page {
	e.t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	_, rec := e.serve(req, "", nil)
	return page{t: e.t, Status: rec.Code, Header: rec.Header(), Body: rec.Body.String()}
}

func TestReaderAskPanel(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "asked")
		o := p.o
		// Without a provider: no panel, no route.
		e.read("/sites/asked/", nil).want(http.StatusOK).lacks("data-ask", "ask.js")
		e.read("/sites/asked/~ask?q=installer", nil).want(http.StatusNotFound)

		fake := e.withAnswers()
		home := e.read("/sites/asked/", nil).want(http.StatusOK)
		home.has(`<details class="ask-panel" data-ask>`, `action="https://bindery.test/sites/asked/~ask"`, `/sites/asked/~static/ask.js?v=`)
		if csp := home.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("CSP = %q", csp)
		}
		if strings.Contains(home.Body, "<script>") {
			t.Error("an inline script in the page")
		}
		e.read("/sites/asked/~static/ask.js", nil).want(http.StatusOK)
		e.read("/sites/asked/~search?q=installer", nil).want(http.StatusOK).has(`data-ask-form`)
		e.read("/sites/asked/installation", nil).want(http.StatusOK).has(`data-ask-form`)

		// Streamed: the answer as it grows, then the final one with its sources as links.
		res := e.read("/sites/asked/~ask?q=How+do+I+run+the+installer%3F", nil, "Accept", "text/event-stream").want(http.StatusOK)
		if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("Content-Type = %q", ct)
		}
		evs := events([]byte(res.Body))
		if len(evs) < 2 {
			t.Fatalf("events = %q", evs)
		}
		var last struct {
			Markdown string
			Found    bool
			Done     bool
			Sources  []struct{ Title, URL string }
		}
		if err := json.Unmarshal([]byte(evs[len(evs)-1]), &last); err != nil {
			t.Fatal(err)
		}
		if !last.Done || !last.Found || len(last.Sources) != 1 || last.Sources[0].Title != "Installation" ||
			!strings.HasPrefix(last.Sources[0].URL, "https://bindery.test/sites/asked/installation") {
			t.Errorf("final event = %+v", last)
		}
		// Without JavaScript: a page of its own.
		e.read("/sites/asked/~ask?q=How+do+I+run+the+installer%3F", nil).want(http.StatusOK).
			has(`<h1>How do I run the installer?</h1>`, `<a href="https://bindery.test/sites/asked/installation`, `>Installation</a>`)
		e.read("/sites/asked/~ask?q=", nil).want(http.StatusBadRequest)
		e.read("/sites/asked/~ask?q="+strings.Repeat("x", 600), nil, "Accept", "text/event-stream").want(http.StatusBadRequest)
		if n := len(fake.Prompts()); n != 2 {
			t.Errorf("%d model calls, want 2", n)
		}

		// A rating from the site's own pages is recorded; the site's editors see the counts.
		rating := `{"question":"How do I run the installer?","helpful":true,"sources":["https://bindery.test/sites/asked/installation","https://evil.test/x"]}`
		e.readerPost("/sites/asked/~ask/rating", "application/json", rating, "Sec-Fetch-Site", "same-origin").want(http.StatusNoContent)
		e.readerPost("/sites/asked/~ask/rating", "application/json", rating, "Origin", "https://example.com").want(http.StatusNoContent)
		e.readerPost("/sites/asked/~ask/rating", "application/json", `{"question":"Why?","helpful":false}`, "Sec-Fetch-Site", "same-origin").want(http.StatusNoContent)
		e.readerPost("/sites/asked/~ask/rating", "application/json", rating, "Sec-Fetch-Site", "cross-site").want(http.StatusForbidden)
		e.readerPost("/sites/asked/~ask/rating", "application/json", rating).want(http.StatusForbidden)
		e.readerPost("/sites/asked/~ask/rating", "text/plain", rating, "Sec-Fetch-Site", "same-origin").want(http.StatusUnsupportedMediaType)
		e.readerPost("/sites/asked/~ask/rating", "application/json", `{"question":"","helpful":true}`, "Sec-Fetch-Site", "same-origin").want(http.StatusBadRequest)
		e.readerPost("/sites/asked/~ask/rating", "application/json", `{"question":"Q?"}`, "Sec-Fetch-Site", "same-origin").want(http.StatusBadRequest)
		var g struct {
			Organization struct {
				Site struct {
					AskRatings struct{ Days, Helpful, Unhelpful int }
				}
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { askRatings { days helpful unhelpful } } } }`,
			map[string]any{"o": o.id, "s": p.site}).ok(&g)
		if r := g.Organization.Site.AskRatings; r.Days != 30 || r.Helpful != 2 || r.Unhelpful != 1 {
			t.Errorf("ratings = %+v", r)
		}
		reader := e.member(o.id, "reader@acme.test", "read")
		if g := e.gql(reader.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { askRatings { helpful } } } }`,
			map[string]any{"o": o.id, "s": p.site}); g.code() != "FORBIDDEN" {
			t.Errorf("a reader's ratings: %+v", g.Errors)
		}

		// A site that needs a share key answers nothing to a visitor without it.
		e.call(o.admin.Token, "PATCH", p.path, map[string]any{"visibility": "share-link"}).want(http.StatusOK)
		e.read("/sites/asked/~ask?q=installer", nil, "Accept", "text/event-stream").want(http.StatusNotFound)
		e.readerPost("/sites/asked/~ask/rating", "application/json", rating, "Sec-Fetch-Site", "same-origin").want(http.StatusNotFound)
	})
}
