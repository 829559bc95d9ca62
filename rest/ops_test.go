package rest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/bindery/bindery/metrics"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage/storagetest"
)

func scrape(t *testing.T, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// TestMetrics scrapes /metrics after requests through both doors: counts by route pattern (not
// the raw path), status and door, latency histograms, the pool, GraphQL operations by name and
// complexity, and the job hooks.
func TestMetrics(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, "sqlite"))
	m := metrics.New(e.store.SQLDB())
	e.h = rest.NewServerWith(e.res, rest.Options{Metrics: m, ServeMetrics: true})
	orgID, admin := e.org("Metrics", "admin@metrics.test")

	e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK)
	e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK)
	e.call(admin.Token, "GET", "/orgs/nonexistent", nil).wantError(http.StatusNotFound)
	e.call("", "GET", "/user", nil).wantError(http.StatusUnauthorized)
	e.gql(admin.Token, `query OrgTitle($o: ID!) { organization(id: $o) { title members { totalCount } } }`, map[string]any{"o": orgID}).ok(nil)
	e.gql(admin.Token, `{ viewer { id } }`, nil).ok(nil)
	m.JobFailed("git_sync")
	m.SetQueueSource(func(context.Context) ([]metrics.QueueStats, error) {
		return []metrics.QueueStats{{Queue: "default", Depth: 7}}, nil
	})
	body := scrape(t, e.h)

	for _, want := range []string{
		`bindery_http_requests_total{door="rest",method="GET",route="/v1/orgs/{organizationId}",status="200"} 2`,
		`bindery_http_requests_total{door="rest",method="GET",route="/v1/orgs/{organizationId}",status="404"} 1`,
		`bindery_http_requests_total{door="rest",method="GET",route="/v1/*",status="401"} 1`,
		`bindery_http_requests_total{door="graphql",method="POST",route="/graphql",status="200"} 2`,
		`bindery_http_request_duration_seconds_bucket{door="rest",method="GET",route="/v1/orgs/{organizationId}",le="+Inf"} 3`,
		`bindery_graphql_operations_total{name="OrgTitle",result="ok",type="query"} 1`,
		`bindery_graphql_operations_total{name="",result="ok",type="query"} 1`,
		`bindery_graphql_operation_complexity_count{name="OrgTitle",type="query"} 1`,
		`bindery_job_failures_total{kind="git_sync"} 1`,
		`bindery_job_queue_depth{queue="default"} 7`,
		`go_sql_max_open_connections{db_name="bindery"} `,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if strings.Contains(body, "nonexistent") || strings.Contains(body, orgID) {
		t.Error("/metrics labels carry raw paths")
	}
}

// TestCORS: off by default (no header at all); when on, a preflight is answered before
// authentication and only listed origins are allowed.
func TestCORS(t *testing.T) {
	e := newEnv(t, storagetest.Open(t, "sqlite"))
	preflight := func(h http.Handler, origin string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("OPTIONS", "/v1/orgs", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := preflight(e.h, "https://docs.example.com"); rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS is on by default: %v", rec.Header())
	}

	h := rest.NewServerWith(e.res, rest.Options{CORSOrigins: []string{"https://docs.example.com"}})
	rec := preflight(h, "https://docs.example.com")
	if rec.Code >= 300 || rec.Header().Get("Access-Control-Allow-Origin") != "https://docs.example.com" ||
		!strings.Contains(strings.ToLower(rec.Header().Get("Access-Control-Allow-Headers")), "authorization") {
		t.Errorf("preflight from an allowed origin: %d %v", rec.Code, rec.Header())
	}
	if rec := preflight(h, "https://evil.example"); rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight from another origin allowed: %v", rec.Header())
	}

	// The actual request still needs its token, and carries the CORS header either way.
	_, admin := e.org("CORS", "admin@cors.test")
	for token, status := range map[string]int{"": http.StatusUnauthorized, admin.Token: http.StatusOK} {
		req := httptest.NewRequest("GET", "/v1/user", nil)
		req.Header.Set("Origin", "https://docs.example.com")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != status || rec.Header().Get("Access-Control-Allow-Origin") != "https://docs.example.com" {
			t.Errorf("GET /v1/user with token %q: %d %v", token, rec.Code, rec.Header())
		}
	}
	// GraphQL too.
	req := httptest.NewRequest("POST", "/graphql", io.NopCloser(bytes.NewBufferString(`{"query":"{ viewer { id } }"}`)))
	req.Header.Set("Origin", "https://docs.example.com")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+admin.Token)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Access-Control-Allow-Origin") == "" {
		t.Errorf("GraphQL with CORS: %d %v", rec.Code, rec.Header())
	}
}
