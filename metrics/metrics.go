// Package metrics is Bindery's Prometheus instrumentation: HTTP requests by route pattern, status
// and door, their latency, the database pool, the job queue (through a hook the job system fills
// in) and GraphQL operations by name and complexity. One Registry per server, so tests do not
// share counters.
package metrics

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// QueueStats is one job queue's state, as the job system reports it.
type QueueStats struct {
	Queue string
	// Depth is the number of jobs waiting to run (available, scheduled or retrying).
	Depth int
}

// Metrics holds the collectors of one server.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	gqlOps      *prometheus.CounterVec
	gqlCost     *prometheus.HistogramVec
	jobFailures *prometheus.CounterVec
	queueDepth  *prometheus.GaugeVec
	// queues, when set, reports the job queues' depth at every scrape.
	queues func(context.Context) ([]QueueStats, error)
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
	m.queueDepth = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "bindery_job_queue_depth",
		Help: "Background jobs waiting to run, by queue (read at scrape time).",
	}, []string{"queue"})
	m.reg.MustRegister(m.requests, m.latency, m.gqlOps, m.gqlCost, m.jobFailures, queueCollector{m},
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

// SetQueueSource installs the job system's report of its queues, read at every scrape. The job
// system (River) calls it when it starts.
func (m *Metrics) SetQueueSource(fn func(context.Context) ([]QueueStats, error)) { m.queues = fn }

// JobFailed counts a failed attempt of a job of that kind; the job system calls it.
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

// GraphQL is a gqlgen extension counting operations by name and recording their complexity (as
// computed by gqlgen's complexity limit extension).
func (m *Metrics) GraphQL() graphql.HandlerExtension { return gqlExtension{m} }

type gqlExtension struct{ m *Metrics }

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = gqlExtension{}

func (gqlExtension) ExtensionName() string                   { return "Metrics" }
func (gqlExtension) Validate(graphql.ExecutableSchema) error { return nil }

func (e gqlExtension) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	res := next(ctx)
	if !graphql.HasOperationContext(ctx) {
		return res
	}
	oc := graphql.GetOperationContext(ctx)
	kind, name := "unknown", oc.OperationName
	if oc.Operation != nil {
		kind = string(oc.Operation.Operation)
		if name == "" {
			name = oc.Operation.Name
		}
	}
	if len(name) > 64 { // client-chosen: bound the label
		name = name[:64]
	}
	result := "ok"
	if res != nil && len(res.Errors) > 0 {
		result = "error"
	}
	e.m.gqlOps.WithLabelValues(kind, name, result).Inc()
	if stats := extension.GetComplexityStats(ctx); stats != nil {
		e.m.gqlCost.WithLabelValues(kind, name).Observe(float64(stats.Complexity))
	}
	return res
}

// queueCollector asks the job system for its queues at scrape time.
type queueCollector struct{ m *Metrics }

func (c queueCollector) Describe(ch chan<- *prometheus.Desc) { c.m.queueDepth.Describe(ch) }

func (c queueCollector) Collect(ch chan<- prometheus.Metric) {
	if c.m.queues != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		stats, err := c.m.queues(ctx)
		if err != nil {
			slog.Warn("metrics: read job queues", "err", err)
		}
		c.m.queueDepth.Reset()
		for _, s := range stats {
			c.m.queueDepth.WithLabelValues(s.Queue).Set(float64(s.Depth))
		}
	}
	c.m.queueDepth.Collect(ch)
}
