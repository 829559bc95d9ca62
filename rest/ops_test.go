package rest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bindery/bindery/domain/jobs"
	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/metrics"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage"
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
	e.h = rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{Metrics: m, ServeMetrics: true}))
	orgID, admin := e.org("Metrics", "admin@metrics.test")

	e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK)
	e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK)
	e.call(admin.Token, "GET", "/orgs/nonexistent", nil).wantError(http.StatusNotFound)
	e.call("", "GET", "/user", nil).wantError(http.StatusUnauthorized)
	e.gql(admin.Token, `query OrgTitle($o: ID!) { organization(id: $o) { title members { totalCount } } }`, map[string]any{"o": orgID}).ok(nil)
	e.gql(admin.Token, `{ viewer { id } }`, nil).ok(nil)
	m.JobFailed("git_sync")
	m.SetJobSource(func(context.Context) (*storage.JobStats, error) {
		return &storage.JobStats{Jobs: []storage.JobCount{{Kind: "git_sync", Queue: "default", State: "available", Count: 7}}}, nil
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

	h := rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{CORSOrigins: []string{"https://docs.example.com"}}))
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

// unknownJobArgs is a job of a kind this server does not know, as a newer server queues during a
// rolling upgrade: working it fails.
type unknownJobArgs struct{}

func (unknownJobArgs) Kind() string { return "from_a_newer_version" }

// TestMetricsFromTheJobQueue scrapes /metrics around real background work: a job waiting, then a
// Git Sync import that fails, a translation run that completes and a job that fails in the queue
// itself. Every figure comes from the database (or, for failed attempts, from the runner).
func TestMetricsFromTheJobQueue(t *testing.T) {
	eachDB(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		gitEnv(t, e)
		e.withProvider()
		m := metrics.New(e.store.SQLDB())
		m.SetJobSource(e.store.JobStats)
		e.h = rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{Metrics: m, ServeMetrics: true}))
		orgID, admin := e.org("Metrics", "admin@jobs.test")

		// Waiting for a minute, before any server works the queue.
		if _, err := e.store.InsertJob(ctx, unknownJobArgs{}, &storage.JobOptions{MaxAttempts: 1, ScheduledAt: time.Now().Add(-time.Minute)}); err != nil {
			t.Fatal(err)
		}
		body := scrape(t, e.h)
		for _, want := range []string{
			`bindery_jobs{kind="from_a_newer_version",queue="default",state="scheduled"} 1`,
			`bindery_job_queue_depth{queue="default"} 1`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics with a job waiting lacks %s:\n%s", want, binderyLines(body))
			}
		}
		if age := metricValue(t, body, `bindery_job_queue_oldest_due_seconds{queue="default"}`); age < 59 || age > 600 {
			t.Errorf("oldest due job waited %vs, want about 60", age)
		}

		runner, err := e.res.StartJobs(ctx, jobs.Config{PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { runner.Stop(context.Background()) })
		runner.OnFailed(m.JobFailed)
		e.runner = runner

		space := e.newSpace(admin.Token, orgID, "Synced")
		empty, _ := bareRepo(t) // no branch: the import fails
		e.call(admin.Token, "POST", "/spaces/"+space+"/git/import", map[string]any{"url": empty, "ref": "refs/heads/main"}).want(http.StatusNoContent)
		source := e.newSpace(admin.Token, orgID, "Handbook")
		e.createPage(admin.Token, target(source, ""), map[string]any{"title": "Intro", "markdown": "Hello."})
		tr := e.call(admin.Token, "POST", "/orgs/"+orgID+"/translations", `{"language":"fr","source":{"space":"`+source+`","language":"en"}}`).want(http.StatusCreated).object()["id"].(string)
		if run := e.runTranslation(admin.Token, orgID, tr); run.Status != "COMPLETED" {
			t.Fatalf("translation run = %+v", run)
		}
		if state, msg := e.lastJob(admin.Token, space); state != "failed" {
			t.Fatalf("import from an empty repository: %s %s", state, msg)
		}

		wants := []string{
			`bindery_git_sync_jobs{operation="import",state="failed"} 1`,
			`bindery_translation_runs{status="completed"} 1`,
			`bindery_jobs{kind="git_sync",queue="default",state="completed"} 1`,
			`bindery_jobs{kind="translation_run",queue="default",state="completed"} 1`,
			`bindery_jobs{kind="from_a_newer_version",queue="default",state="discarded"} 1`,
			`bindery_job_failures_total{kind="from_a_newer_version"} 1`,
			`bindery_job_queue_depth{queue="default"} 0`,
			`bindery_job_queue_oldest_due_seconds{queue="default"} 0`,
		}
		// Failure events reach the counter a moment later. The scrape is polled, so a bound that a
		// loaded machine stays within costs nothing when the counter is on time.
		deadline := time.Now().Add(30 * time.Second)
		for {
			body = scrape(t, e.h)
			var missing []string
			for _, want := range wants {
				if !strings.Contains(body, want) {
					missing = append(missing, want)
				}
			}
			if len(missing) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("/metrics lacks:\n%s\nbindery lines:\n%s", strings.Join(missing, "\n"), binderyLines(body))
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

// metricValue is the value of one sample line of a scrape.
func metricValue(t *testing.T, body, sample string) float64 {
	t.Helper()
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, sample+" "); ok {
			v, err := strconv.ParseFloat(rest, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return v
		}
	}
	t.Fatalf("no sample %s in:\n%s", sample, binderyLines(body))
	return 0
}

func binderyLines(body string) string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "bindery_j") || strings.HasPrefix(line, "bindery_git") || strings.HasPrefix(line, "bindery_tr") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
