package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/explorer"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// NewHandler serves GraphQL over GET and POST, with introspection, depth and complexity limits,
// and errors carrying extensions.code. Browsers asking for HTML get the GraphiQL explorer. extra
// extensions (metrics, tracing) run after the built-in ones.
func NewHandler(app *domain.App, extra ...graphql.HandlerExtension) http.Handler {
	return newHandler(&Resolver{App: app}, MaxDepth, extra...)
}

func newHandler(r *Resolver, maxDepth int, extra ...graphql.HandlerExtension) http.Handler {
	schema := NewExecutableSchema(Config{Resolvers: r, Schema: servedSchema()})
	srv := handler.New(schema)
	// Subscriptions over graphql-ws; coder/websocket refuses cross-origin handshakes, and only
	// token-authenticated connections may subscribe (domain: RequireActor).
	srv.AddTransport(transport.Websocket{KeepAlivePingInterval: 25 * time.Second, InitTimeout: 10 * time.Second})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: domain.MaxUploadBytes + 1<<20, MaxMemory: 8 << 20})
	srv.SetParserTokenLimit(MaxTokens)
	srv.Use(extension.Introspection{})
	srv.Use(documentLimits{})
	srv.Use(queryLimits{maxDepth: maxDepth, schema: schema.Schema()})
	srv.Use(textInput{})
	srv.AroundOperations(withSelection)
	for _, ext := range extra {
		srv.Use(ext)
	}
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		apperr.LogPanic(ctx, "graphql resolver panicked", p)
		return &apperr.Error{Kind: apperr.Internal, Msg: "Internal error"}
	})
	page := explorer.Page("/graphql")
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if IsExplorerRequest(req) {
			page.ServeHTTP(w, req)
			return
		}
		if !boundRequest(w, req) {
			return
		}
		if !domain.HasRequestState(req.Context()) { // mounted without a server that installs one
			req = req.WithContext(r.WithRequestState(req.Context()))
		}
		srv.ServeHTTP(w, req)
	})
}

// codegenDirectives are gqlgen's instructions to its code generator (gqlgen.yml, @goField on
// schema fields): they mean nothing to a client.
var codegenDirectives = []string{"goModel", "goField", "goTag", "goExtraField", "goEnum"}

// servedSchema is the schema as clients see it through introspection: the generated one without
// the declarations of the code-generation directives. Their uses on fields stay in the schema's
// definitions, where introspection never shows them.
var servedSchema = sync.OnceValue(func() *ast.Schema {
	full := NewExecutableSchema(Config{}).Schema()
	served := *full
	served.Directives = maps.Clone(full.Directives)
	for _, name := range codegenDirectives {
		delete(served.Directives, name)
	}
	return &served
})

// IsExplorerRequest reports whether a request is a browser loading the GraphiQL explorer: a GET
// without a query string that accepts HTML. The explorer page needs no token; its queries do.
func IsExplorerRequest(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.RawQuery == "" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// WriteUnauthenticated answers a GraphQL request without a valid token: HTTP 401 with err in
// GraphQL's error shape, as the error presenter shows every other error.
func WriteUnauthenticated(w http.ResponseWriter, r *http.Request, err error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the message shows "Bearer <token>"
	if encErr := enc.Encode(map[string]any{"errors": []*gqlerror.Error{presentError(r.Context(), err)}}); encErr != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	w.Write(buf.Bytes()) //nolint:errcheck // the client went away; nothing to do
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
