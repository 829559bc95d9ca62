// Package metrics is Bindery's Prometheus instrumentation: HTTP requests by route pattern, status
// and door, their latency, the database pool, the background jobs (read from the database at
// scrape time, and failed attempts counted by the job runner) and GraphQL operations by name and
// complexity. One Registry per server, so tests do not
// share counters.
package metrics

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bindery/bindery/storage"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors of one server.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	gqlOps      *prometheus.CounterVec
	gqlCost     *prometheus.HistogramVec
	jobFailures *prometheus.CounterVec
	// jobs, when set, reads the background work's state at every scrape.
	jobs func(context.Context) (*storage.JobStats, error)
}

// New registers Bindery's collectors, the Go runtime's and the process's, and db's pool stats
// (when db is not nil).
func New(db *sql.DB) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bindery_http_requests_total",
		Help: "HTTP requests answered, by door (rest, graphql, files, other), method, route pattern and status.",
	}, []string{"door", "method", "route", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "bindery_http_request_duration_seconds",
		Help:    "Time to answer HTTP requests, by door, method and route pattern.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"door", "method", "route"})
	m.gqlOps = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bindery_graphql_operations_total",
		Help: "GraphQL operations run, by operation type and name (\"\" for anonymous) and whether they answered errors.",
	}, []string{"type", "name", "result"})
	m.gqlCost = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "bindery_graphql_operation_complexity",
		Help:    "Computed complexity of GraphQL operations, by operation type and name.",
		Buckets: prometheus.ExponentialBuckets(1, 4, 10),
	}, []string{"type", "name"})
	m.jobFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bindery_job_failures_total",
		Help: "Background job attempts that failed, by job kind.",
	}, []string{"kind"})
	m.reg.MustRegister(m.requests, m.latency, m.gqlOps, m.gqlCost, m.jobFailures, jobCollector{m},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if db != nil {
		m.reg.MustRegister(collectors.NewDBStatsCollector(db, "bindery"))
	}
	return m
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is where the collectors live, for callers that add their own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// SetJobSource installs the read of the background work's state (storage's JobStats), made at
// every scrape: the queue by kind and state, its depth and oldest due job, Git Sync and
// translation outcomes.
func (m *Metrics) SetJobSource(fn func(context.Context) (*storage.JobStats, error)) { m.jobs = fn }

// JobFailed counts a failed attempt of a job of that kind; the job runner calls it.
func (m *Metrics) JobFailed(kind string) { m.jobFailures.WithLabelValues(kind).Inc() }

// Middleware counts and times every request by its chi route pattern (never the raw path: ids
// would explode the label set). Mount it on the root router. A request refused before its route
// was matched (no token) counts under the mount's pattern, e.g. "/v1/*".
func (m *Metrics) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		route := "unmatched"
		if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
			route = rc.RoutePattern()
		}
		door := Door(r.URL.Path)
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		m.requests.WithLabelValues(door, r.Method, route, strconv.Itoa(status)).Inc()
		m.latency.WithLabelValues(door, r.Method, route).Observe(time.Since(start).Seconds())
	})
}

// Door names the way a request came in.
func Door(path string) string {
	switch {
	case path == "/v1" || strings.HasPrefix(path, "/v1/"):
		return "rest"
	case path == "/graphql":
		return "graphql"
	case strings.HasPrefix(path, "/files/"):
		return "files"
	}
	return "other"
}

// ObserveGraphQL counts one GraphQL operation of kind (query, mutation…) and name, and records
// its complexity when the complexity limit computed one (cost < 0: none).
func (m *Metrics) ObserveGraphQL(kind, name string, failed bool, cost int) {
	if len(name) > 64 { // client-chosen: bound the label
		name = name[:64]
	}
	result := "ok"
	if failed {
		result = "error"
	}
	m.gqlOps.WithLabelValues(kind, name, result).Inc()
	if cost >= 0 {
		m.gqlCost.WithLabelValues(kind, name).Observe(float64(cost))
	}
}

// The background work's gauges, read from the database at scrape time.
var (
	jobsDesc = prometheus.NewDesc("bindery_jobs",
		"Background jobs by kind, queue and state (finished ones until the queue deletes them, a day after).", []string{"kind", "queue", "state"}, nil)
	queueDepthDesc = prometheus.NewDesc("bindery_job_queue_depth",
		"Background jobs waiting to run (available, pending, retryable or scheduled), by queue.", []string{"queue"}, nil)
	oldestDueDesc = prometheus.NewDesc("bindery_job_queue_oldest_due_seconds",
		"How long the oldest job due to run has waited since it became due, by queue (0: none waits).", []string{"queue"}, nil)
	gitSyncDesc = prometheus.NewDesc("bindery_git_sync_jobs",
		"Git Sync jobs recorded, by operation and state (queued, running, succeeded, failed, skipped).", []string{"operation", "state"}, nil)
	translationRunsDesc = prometheus.NewDesc("bindery_translation_runs",
		"Translation runs recorded, by status (queued, running, completed, failed).", []string{"status"}, nil)
)

// jobCollector reads the background work's state at scrape time.
type jobCollector struct{ m *Metrics }

func (c jobCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{jobsDesc, queueDepthDesc, oldestDueDesc, gitSyncDesc, translationRunsDesc} {
		ch <- d
	}
}

func (c jobCollector) Collect(ch chan<- prometheus.Metric) {
	if c.m.jobs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	st, err := c.m.jobs(ctx)
	if err != nil {
		slog.Warn("metrics: read the job queue", "err", err)
		return
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	depth := map[string]int{"default": 0}
	for _, j := range st.Jobs {
		gauge(jobsDesc, float64(j.Count), j.Kind, j.Queue, j.State)
		if _, seen := depth[j.Queue]; !seen {
			depth[j.Queue] = 0 // every queue that holds jobs reports a depth, 0 included
		}
		if slices.Contains(storage.JobWaiting, j.State) {
			depth[j.Queue] += j.Count
		}
	}
	for queue, n := range depth {
		gauge(queueDepthDesc, float64(n), queue)
		gauge(oldestDueDesc, st.OldestDue[queue], queue)
	}
	for _, o := range st.GitSync {
		gauge(gitSyncDesc, float64(o.Count), o.Key, o.State)
	}
	for _, o := range st.TranslationRuns {
		gauge(translationRunsDesc, float64(o.Count), o.State)
	}
}
