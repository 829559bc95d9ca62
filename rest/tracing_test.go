package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/bindery/bindery/doors"
	"github.com/bindery/bindery/rest"
	"github.com/bindery/bindery/storage/storagetest"
	"github.com/bindery/bindery/tracing"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestTracing sends requests through both doors to an in-process exporter: an HTTP span named by
// route pattern, GraphQL operation spans by name, SQL statement spans as their children.
func TestTracing(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { tp.Shutdown(t.Context()) })

	e := newEnv(t, storagetest.Open(t, "sqlite"))
	orgID, admin := e.org("Traces", "admin@traces.test")
	e.store.AddQueryHook(tracing.QueryHook(tp, "sqlite"))
	e.h = rest.NewServerWith(e.res, doors.Mount(e.res, rest.Options{Middleware: []func(http.Handler) http.Handler{tracing.Middleware(tp)}}, tracing.GraphQL(tp)))

	e.call(admin.Token, "GET", "/orgs/"+orgID, nil).want(http.StatusOK)
	e.gql(admin.Token, `query Who { viewer { id } }`, nil).ok(nil)

	spans := exp.GetSpans()
	byName := map[string]tracetest.SpanStub{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	rest, ok := byName["GET /v1/orgs/{organizationId}"]
	if !ok {
		t.Fatalf("no span named by route pattern; spans: %v", names(spans))
	}
	gqlHTTP, ok := byName["POST /graphql"]
	if !ok {
		t.Fatalf("no GraphQL request span; spans: %v", names(spans))
	}
	op, ok := byName["graphql.query Who"]
	if !ok || op.Parent.SpanID() != gqlHTTP.SpanContext.SpanID() {
		t.Fatalf("GraphQL operation span missing or not the request's child; spans: %v", names(spans))
	}
	var restSQL, gqlSQL int
	for _, s := range spans {
		if !strings.HasPrefix(s.Name, "db.") {
			continue
		}
		switch s.Parent.TraceID() {
		case rest.SpanContext.TraceID():
			restSQL++
		case gqlHTTP.SpanContext.TraceID():
			gqlSQL++
		default:
			t.Errorf("SQL span %s outside any request's trace", s.Name)
		}
	}
	if restSQL == 0 || gqlSQL == 0 {
		t.Errorf("SQL spans: %d in the REST trace, %d in the GraphQL one; spans: %v", restSQL, gqlSQL, names(spans))
	}
	if strings.Contains(strings.Join(names(spans), " "), orgID) {
		t.Error("a span name carries a raw id")
	}
}

func names(spans tracetest.SpanStubs) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name)
	}
	return out
}
