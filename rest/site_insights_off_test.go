package rest_test

import (
	"net/http"
	"net/url"
	"testing"
)

// A site whose managers turn insights off sends no beacon and keeps no event, from the reader or
// from trackEventsInSiteById; turned on again, it counts.
func TestSiteInsightsOff(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "quiet")
		o := p.o
		const pageURL = "https://bindery.test/sites/quiet/installation"
		setInsights := func(on bool) {
			var g struct {
				UpdateSiteReaderSettings struct{ Insights bool }
			}
			e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $on: Boolean) { updateSiteReaderSettings(organizationId: $o, siteId: $s, input: {insights: $on}) { insights } }`,
				map[string]any{"o": o.id, "s": p.site, "on": on}).ok(&g)
			if g.UpdateSiteReaderSettings.Insights != on {
				t.Fatalf("insights = %v, want %v", g.UpdateSiteReaderSettings.Insights, on)
			}
		}
		count := func() float64 {
			var r struct{ Columns []struct{ Values []any } }
			e.call(o.admin.Token, "POST", p.path+"/insights/events/aggregate", map[string]any{"range": "last24Hours", "select": []any{map[string]any{"column": "eventsCount"}}}).want(http.StatusOK).decode(&r)
			if len(r.Columns) == 0 || len(r.Columns[0].Values) == 0 {
				return 0
			}
			return r.Columns[0].Values[0].(float64)
		}
		track := func() {
			e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{map[string]any{"type": "page_view",
				"session":  map[string]any{"visitorId": "v", "sessionId": "s"},
				"location": map[string]any{"url": pageURL, "siteSection": nil, "siteSpace": p.ss, "siteShareKey": nil, "space": p.space, "revision": nil, "page": p.page}}}}).want(http.StatusNoContent)
		}
		view := func() { e.read("/sites/quiet/~view?u="+url.QueryEscape(pageURL), nil).want(http.StatusNoContent) }

		var g struct {
			Organization struct {
				Site struct{ ReaderSettings struct{ Insights bool } }
			}
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { readerSettings { insights } } } }`, map[string]any{"o": o.id, "s": p.site}).ok(&g)
		if !g.Organization.Site.ReaderSettings.Insights {
			t.Errorf("insights are off by default")
		}

		setInsights(false)
		e.read("/sites/quiet/installation", nil).want(http.StatusOK).lacks("data-beacon")
		view()
		track()
		// Still checked: a malformed event is refused.
		e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{map[string]any{"type": "page_scroll"}}}).wantError(http.StatusBadRequest)
		if n := count(); n != 0 {
			t.Errorf("%v events kept with insights off", n)
		}

		setInsights(true)
		e.read("/sites/quiet/installation", nil).want(http.StatusOK).has(`<body data-beacon="https://bindery.test/sites/quiet/~view">`)
		view()
		track()
		if n := count(); n != 2 {
			t.Errorf("%v events with insights on, want 2", n)
		}
	})
}
