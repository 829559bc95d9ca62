package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/executor"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
)

// NewExecutor runs GraphQL operations in process for first-party clients of the graph (the
// reader): the schema, resolvers, document and query limits and error presenter of /graphql,
// without an HTTP round trip. Parsed and validated documents are cached, so a client's fixed queries are
// parsed once.
func NewExecutor(app *domain.App) *executor.Executor {
	r := &Resolver{App: app}
	schema := NewExecutableSchema(Config{Resolvers: r})
	exec := executor.New(schema)
	exec.SetParserTokenLimit(MaxTokens)
	exec.Use(documentLimits{})
	exec.Use(queryLimits{maxDepth: MaxDepth, schema: schema.Schema()})
	exec.SetQueryCache(lru.New[*ast.QueryDocument](64))
	exec.SetErrorPresenter(presentError)
	exec.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		if !domain.HasRequestState(ctx) { // a caller without a request state: the operation is its own request
			ctx = r.WithRequestState(ctx)
		}
		return next(ctx)
	})
	exec.AroundOperations(withSelection)
	exec.SetRecoverFunc(func(ctx context.Context, p any) error {
		apperr.LogPanic(ctx, "graphql resolver panicked", p)
		return &apperr.Error{Kind: apperr.Internal, Msg: "Internal error"}
	})
	return exec
}

// Run executes one operation with exec and returns its response.
func Run(ctx context.Context, exec *executor.Executor, query string, vars map[string]any) *graphql.Response {
	ctx = graphql.StartOperationTrace(ctx)
	params := &graphql.RawParams{Query: query, Variables: vars, ReadTime: graphql.TraceTiming{Start: graphql.Now(), End: graphql.Now()}}
	oc, errs := exec.CreateOperationContext(ctx, params)
	if errs != nil {
		return exec.DispatchError(graphql.WithOperationContext(ctx, oc), errs)
	}
	responses, ctx := exec.DispatchOperation(ctx, oc)
	return responses(ctx)
}
