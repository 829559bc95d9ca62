// Package tracing is Bindery's OpenTelemetry instrumentation: a span per HTTP request (otelhttp,
// named by route pattern), per GraphQL operation and per SQL statement. Spans are exported over
// OTLP/HTTP only when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set;
// otherwise nothing is installed and tracing costs nothing.
package tracing

import (
	"context"
	"net/http"
	"os"

	"github.com/99designs/gqlgen/graphql"
	"github.com/go-chi/chi/v5"
	"github.com/uptrace/bun"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
)

const instrumentation = "github.com/bindery/bindery"

// Enabled reports whether the environment asks for traces to be exported.
func Enabled() bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Setup installs an OTLP/HTTP exporter configured by the standard OTEL_* variables and returns the
// provider and its shutdown (which flushes pending spans). Call it only when Enabled.
func Setup(ctx context.Context, version string) (trace.TracerProvider, func(context.Context) error, error) {
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, err
	}
	res, err := resource.Merge(resource.Default(), resource.NewWithAttributes(semconv.SchemaURL,
		semconv.ServiceName("bindery"), semconv.ServiceVersion(version)))
	if err != nil {
		return nil, nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return tp, tp.Shutdown, nil
}

// Middleware starts a span per request (continuing the caller's trace from traceparent) and,
// once chi has routed it, names it by method and route pattern: never the raw path.
func Middleware(tp trace.TracerProvider) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		named := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r)
			if rc := chi.RouteContext(r.Context()); rc != nil && rc.RoutePattern() != "" {
				span := trace.SpanFromContext(r.Context())
				span.SetName(r.Method + " " + rc.RoutePattern())
				span.SetAttributes(semconv.HTTPRoute(rc.RoutePattern()))
			}
		})
		return otelhttp.NewHandler(named, "http.request", otelhttp.WithTracerProvider(tp),
			otelhttp.WithPropagators(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})))
	}
}

// QueryHook is a Bun hook with a span per SQL statement, a child of the request's span.
func QueryHook(tp trace.TracerProvider, system string) bun.QueryHook {
	return queryHook{tracer: tp.Tracer(instrumentation), system: system}
}

type queryHook struct {
	tracer trace.Tracer
	system string
}

type spanKey struct{}

func (h queryHook) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if !trace.SpanFromContext(ctx).SpanContext().IsValid() {
		return ctx // statements outside a traced request (migrations, jobs) make no orphan spans
	}
	ctx, span := h.tracer.Start(ctx, "db."+e.Operation(), trace.WithSpanKind(trace.SpanKindClient))
	stmt := e.Query
	if len(stmt) > 2000 {
		stmt = stmt[:2000]
	}
	span.SetAttributes(attribute.String("db.system", h.system), attribute.String("db.operation", e.Operation()),
		attribute.String("db.statement", stmt))
	return context.WithValue(ctx, spanKey{}, span)
}

func (h queryHook) AfterQuery(ctx context.Context, e *bun.QueryEvent) {
	span, ok := ctx.Value(spanKey{}).(trace.Span)
	if !ok {
		return
	}
	if e.Err != nil && e.Err.Error() != "sql: no rows in result set" {
		span.RecordError(e.Err)
		span.SetStatus(codes.Error, e.Err.Error())
	}
	span.End()
}

// GraphQL is a gqlgen extension with a span per operation, named by type and operation name.
func GraphQL(tp trace.TracerProvider) graphql.HandlerExtension {
	return gqlTracer{tracer: tp.Tracer(instrumentation)}
}

type gqlTracer struct{ tracer trace.Tracer }

func (gqlTracer) ExtensionName() string                   { return "Tracing" }
func (gqlTracer) Validate(graphql.ExecutableSchema) error { return nil }

func (g gqlTracer) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	if !graphql.HasOperationContext(ctx) {
		return next(ctx)
	}
	oc := graphql.GetOperationContext(ctx)
	kind, name := "operation", oc.OperationName
	if oc.Operation != nil {
		kind = string(oc.Operation.Operation)
		if name == "" {
			name = oc.Operation.Name
		}
	}
	spanName := "graphql." + kind
	if name != "" {
		spanName += " " + name
	}
	ctx, span := g.tracer.Start(ctx, spanName)
	defer span.End()
	span.SetAttributes(attribute.String("graphql.operation.type", kind), attribute.String("graphql.operation.name", name))
	res := next(ctx)
	if res != nil && len(res.Errors) > 0 {
		span.SetStatus(codes.Error, res.Errors.Error())
	}
	return res
}
