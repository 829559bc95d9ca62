package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/bindery/bindery/graph/apperr"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// NewHandler serves GraphQL over GET and POST, with introspection, depth and complexity limits,
// and errors carrying extensions.code. Browsers asking for HTML get the GraphiQL explorer.
func NewHandler(r *Resolver) http.Handler { return newHandler(r, MaxDepth) }

func newHandler(r *Resolver, maxDepth int) http.Handler {
	schema := NewExecutableSchema(Config{Resolvers: r})
	srv := handler.New(schema)
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: MaxUploadBytes + 1<<20, MaxMemory: 8 << 20})
	srv.SetParserTokenLimit(MaxTokens)
	srv.Use(extension.Introspection{})
	srv.Use(documentLimits{})
	srv.Use(queryLimits{maxDepth: maxDepth, schema: schema.Schema()})
	srv.Use(textInput{})
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		slog.ErrorContext(ctx, "graphql resolver panicked", "panic", fmt.Sprint(p))
		return &apperr.Error{Kind: apperr.Internal, Msg: "Internal error"}
	})
	explorer := playground.Handler("Bindery GraphQL", "/graphql")
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet && req.URL.RawQuery == "" && strings.Contains(req.Header.Get("Accept"), "text/html") {
			explorer.ServeHTTP(w, req)
			return
		}
		if !boundRequest(w, req) {
			return
		}
		srv.ServeHTTP(w, req)
	})
}

// presentError shows typed errors as they are and hides everything else behind "internal error",
// logging the original with the request id.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae):
		gqlErr.Message = apperr.Message(err)
	case gqlErr.Err == nil:
		return gqlErr // parse and validation errors are already safe
	case apperr.KindOf(err) != apperr.Internal:
		gqlErr.Message = apperr.Message(err)
	default:
		slog.ErrorContext(ctx, "resolver failed", "path", gqlErr.Path.String(), "err", err)
		gqlErr.Message = apperr.Message(err)
	}
	if gqlErr.Extensions == nil {
		gqlErr.Extensions = map[string]any{}
	}
	gqlErr.Extensions["code"] = apperr.KindOf(err)
	if ae != nil && ae.Field != "" {
		gqlErr.Extensions["field"] = ae.Field
	}
	return gqlErr
}
