package rest_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var dayStart = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T00:00:00Z$`)

// Site insights: events recorded through trackEventsInSiteById are counted by
// aggregateSiteEvents, through both doors; visitors are told apart without being kept.
func TestSiteInsights(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "insights")
		o := p.o
		const pageURL = "https://bindery.test/sites/insights/installation"
		event := func(kind, visitor, session string, extra map[string]any) map[string]any {
			ev := map[string]any{"type": kind,
				"session":  map[string]any{"visitorId": visitor, "sessionId": session, "referrer": "https://search.example/?q=x"},
				"location": map[string]any{"url": pageURL, "siteSection": nil, "siteSpace": p.ss, "siteShareKey": nil, "space": p.space, "revision": nil, "page": p.page},
			}
			for k, v := range extra {
				ev[k] = v
			}
			return ev
		}
		e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{
			event("page_view", "ann", "ann-1", nil),
			event("page_view", "ann", "ann-2", nil),
			event("page_view", "bob", "bob-1", nil),
			event("search_type_query", "bob", "bob-1", map[string]any{"query": "install"}),
			event("page_post_feedback", "ann", "ann-2", map[string]any{"feedback": map[string]any{"rating": "good"}}),
			event("page_post_feedback", "bob", "bob-1", map[string]any{"feedback": map[string]any{"rating": "bad"}}),
		}}).want(http.StatusNoContent)

		type result struct {
			Columns []struct {
				Column string
				Values []any
			}
		}
		agg := func(q map[string]any) result {
			var r result
			e.call(o.admin.Token, "POST", p.path+"/insights/events/aggregate", q).want(http.StatusOK).decode(&r)
			return r
		}
		col := func(n string) map[string]any { return map[string]any{"column": n} }

		totals := agg(map[string]any{"range": "last24Hours", "select": []any{col("eventsCount"), col("sessionsCount"), col("visitorsCount")}})
		if len(totals.Columns) != 3 || totals.Columns[0].Values[0] != 6.0 || totals.Columns[1].Values[0] != 3.0 || totals.Columns[2].Values[0] != 2.0 {
			t.Errorf("totals = %+v", totals)
		}
		byType := agg(map[string]any{"range": "last7Days", "select": []any{col("eventType"), col("eventsCount")}, "groupBy": []any{col("eventType")},
			"order": map[string]any{"by": col("eventsCount"), "direction": "desc"}})
		if v := byType.Columns[0].Values; len(v) != 3 || v[0] != "page_view" || byType.Columns[1].Values[0] != 3.0 {
			t.Errorf("by type = %+v", byType)
		}
		views := agg(map[string]any{"range": "last30Days", "select": []any{col("visitorsCount")},
			"where": []any{map[string]any{"column": "eventType", "values": []string{"page_view"}}}})
		if views.Columns[0].Values[0] != 2.0 {
			t.Errorf("page view visitors = %+v", views)
		}
		feedback := agg(map[string]any{"range": "lastYear", "select": []any{col("page"), col("pageFeedbackRating")}, "groupBy": []any{col("page")},
			"where": []any{map[string]any{"column": "eventType", "values": []string{"page_post_feedback"}}}})
		if pg, _ := feedback.Columns[0].Values[0].(map[string]any); pg["page"] != p.page || pg["space"] != p.space {
			t.Errorf("feedback page = %+v", feedback)
		}
		if r, _ := feedback.Columns[1].Values[0].(map[string]any); r["good"] != 1.0 || r["bad"] != 1.0 || r["ok"] != 0.0 {
			t.Errorf("feedback ratings = %+v", feedback)
		}
		daily := agg(map[string]any{"range": map[string]any{"from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z"},
			"select": []any{map[string]any{"column": "datetime", "interval": "day"}, col("eventsCount")}, "groupBy": []any{map[string]any{"column": "datetime", "interval": "day"}}})
		if v := daily.Columns[0].Values; len(v) != 1 || !dayStart.MatchString(v[0].(string)) || daily.Columns[1].Values[0] != 6.0 {
			t.Errorf("daily = %+v", daily)
		}
		// Months are named by their first day.
		monthly := agg(map[string]any{"range": "lastYear", "select": []any{map[string]any{"column": "datetime", "interval": "month"}},
			"groupBy": []any{map[string]any{"column": "datetime", "interval": "month"}}})
		if v := monthly.Columns[0].Values; len(v) != 1 || !strings.HasSuffix(v[0].(string), "-01T00:00:00Z") || v[0].(string)[:7] != daily.Columns[0].Values[0].(string)[:7] {
			t.Errorf("monthly = %+v", monthly)
		}
		queries := agg(map[string]any{"range": "last24Hours", "select": []any{col("eventSearchQuery"), col("eventsCount")}, "groupBy": []any{col("eventSearchQuery")},
			"where": []any{map[string]any{"column": "eventType", "values": []string{"search_type_query"}}}})
		if v := queries.Columns[0].Values; len(v) != 1 || v[0] != "install" {
			t.Errorf("queries = %+v", queries)
		}

		// Refused: what this server does not record, malformed queries and events.
		aggPath := p.path + "/insights/events/aggregate"
		e.call(o.admin.Token, "POST", aggPath, map[string]any{"range": "last24Hours", "select": []any{col("visitorGeoCountry")}, "groupBy": []any{col("visitorGeoCountry")}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", aggPath, map[string]any{"select": []any{col("eventsCount")}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", aggPath, map[string]any{"range": "yesterday", "select": []any{col("eventsCount")}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", aggPath, map[string]any{"range": "last24Hours", "select": []any{col("url")}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{event("page_scroll", "ann", "s", nil)}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{
			event("page_view", "ann", "s", map[string]any{"timestamp": time.Now().Add(-time.Hour)})}}).wantError(http.StatusBadRequest)
		e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{
			event("page_post_feedback", "ann", "s", map[string]any{"feedback": map[string]any{"rating": "great"}})}}).wantError(http.StatusBadRequest)

		// Another organization learns nothing.
		e.call(p.other.Token, "POST", p.path+"/insights/events", map[string]any{"events": []any{event("page_view", "x", "x", nil)}}).wantError(http.StatusNotFound)
		e.call(p.other.Token, "POST", aggPath, map[string]any{"range": "last24Hours", "select": []any{col("eventsCount")}}).wantError(http.StatusNotFound)

		// GraphQL: the same events and counts. Without ids, a visitor is their address and user
		// agent: two events of one client are one visitor.
		anon := event("page_view", "", "", nil)
		anon["session"] = map[string]any{}
		var ok struct{ TrackSiteEvents bool }
		e.gql(o.admin.Token, `mutation($o: ID!, $s: ID!, $ev: JSON!) { trackSiteEvents(organizationId: $o, siteId: $s, events: $ev) }`,
			map[string]any{"o": o.id, "s": p.site, "ev": []any{anon, anon}}).ok(&ok)
		var g struct {
			Organization struct{ Site struct{ Insights result } }
		}
		e.gql(o.admin.Token, `query($o: ID!, $s: ID!, $q: JSON!) { organization(id: $o) { site(id: $s) { insights(query: $q) } } }`,
			map[string]any{"o": o.id, "s": p.site, "q": map[string]any{"range": "last24Hours", "select": []any{col("eventsCount"), col("visitorsCount")}}}).ok(&g)
		if c := g.Organization.Site.Insights.Columns; !ok.TrackSiteEvents || len(c) != 2 || c[0].Values[0] != 8.0 || c[1].Values[0] != 3.0 {
			t.Errorf("GraphQL insights = %+v", g.Organization.Site.Insights)
		}
		if c := e.gql(p.other.Token, `query($o: ID!, $s: ID!, $q: JSON!) { organization(id: $o) { site(id: $s) { insights(query: $q) } } }`,
			map[string]any{"o": o.id, "s": p.site, "q": map[string]any{"range": "last24Hours", "select": []any{col("eventsCount")}}}).code(); c != "NOT_FOUND" {
			t.Errorf("another organization's insights: %q, want NOT_FOUND", c)
		}
	})
}

// aggregates reports whether a matrix case is a POST that reads: an aggregation of site events,
// a published URL's look-up.
func aggregates(c matrixCase) bool {
	return c.method == "POST" && (strings.HasSuffix(c.path, "/insights/events/aggregate") || c.path == "/urls/published")
}

// An aggregation is one statement whatever the number of events: 5 events cost what 200 do.
func TestSiteInsightsStatementsDoNotGrow(t *testing.T) {
	eachDBCounting(t, func(t *testing.T, e *env) {
		p := newPublishingSite(e, "counted")
		o := p.o
		track := func(n int) {
			for n > 0 {
				batch := min(n, 100)
				events := make([]any, batch)
				for i := range events {
					events[i] = map[string]any{"type": "page_view", "session": map[string]any{"visitorId": fmt.Sprint("v", n, i)},
						"location": map[string]any{"url": "https://bindery.test/sites/counted/installation", "siteSection": nil, "siteSpace": p.ss, "siteShareKey": nil, "space": p.space, "revision": nil, "page": p.page}}
				}
				e.call(o.admin.Token, "POST", p.path+"/insights/events", map[string]any{"events": events}).want(http.StatusNoContent)
				n -= batch
			}
		}
		query := map[string]any{"range": "last24Hours", "select": []any{map[string]any{"column": "page"}, map[string]any{"column": "eventsCount"}, map[string]any{"column": "visitorsCount"}},
			"groupBy": []any{map[string]any{"column": "page"}}}
		count := func(want float64) int64 {
			var n atomic.Int64
			var g struct {
				Organization struct {
					Site struct {
						Insights struct {
							Columns []struct{ Values []any }
						}
					}
				}
			}
			e.gqlCounted(o.admin.Token, `query($o: ID!, $s: ID!, $q: JSON!) { organization(id: $o) { site(id: $s) { insights(query: $q) } } }`,
				map[string]any{"o": o.id, "s": p.site, "q": query}, &n).ok(&g)
			if c := g.Organization.Site.Insights.Columns; len(c) != 3 || c[1].Values[0] != want {
				t.Fatalf("insights = %+v, want %v events", g.Organization.Site.Insights, want)
			}
			return n.Load()
		}
		track(5)
		few := count(5)
		track(195)
		if many := count(200); many != few {
			t.Errorf("statements grew with events: %d → %d", few, many)
		}
	})
}
