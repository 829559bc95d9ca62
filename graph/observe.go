package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/bindery/bindery/metrics"
)

// Metrics is a gqlgen extension counting operations by name and recording their complexity (as
// computed by the complexity limit extension) in m.
func Metrics(m *metrics.Metrics) graphql.HandlerExtension { return gqlMetrics{m} }

type gqlMetrics struct{ m *metrics.Metrics }

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
} = gqlMetrics{}

func (gqlMetrics) ExtensionName() string                   { return "Metrics" }
func (gqlMetrics) Validate(graphql.ExecutableSchema) error { return nil }

func (e gqlMetrics) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
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
	cost := -1
	if stats := extension.GetComplexityStats(ctx); stats != nil {
		cost = stats.Complexity
	}
	e.m.ObserveGraphQL(kind, name, res != nil && len(res.Errors) > 0, cost)
	return res
}
