package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/bindery/bindery/explorer"
	"github.com/bindery/bindery/graph/apperr"
	"github.com/bindery/bindery/graph/model"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// Limits that reject abusive queries before they run.
const (
	MaxDepth      = 12
	MaxComplexity = 200_000
)

// NewHandler serves GraphQL over GET and POST, with introspection, depth and complexity limits,
// and errors carrying extensions.code. Browsers asking for HTML get the GraphiQL explorer. extra
// extensions (metrics, tracing) run after the built-in ones.
func NewHandler(r *Resolver, extra ...graphql.HandlerExtension) http.Handler {
	return newHandler(r, MaxDepth, extra...)
}

func newHandler(r *Resolver, maxDepth int, extra ...graphql.HandlerExtension) http.Handler {
	srv := handler.New(NewExecutableSchema(Config{Resolvers: r, Complexity: complexity()}))
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.AddTransport(transport.MultipartForm{MaxUploadSize: MaxUploadBytes + 1<<20, MaxMemory: 8 << 20})
	srv.Use(extension.Introspection{})
	srv.Use(depthLimit{max: maxDepth})
	srv.Use(extension.FixedComplexityLimit(MaxComplexity))
	for _, ext := range extra {
		srv.Use(ext)
	}
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		LogPanic(ctx, "graphql resolver panicked", p)
		return &apperr.Error{Kind: apperr.Internal, Msg: "Internal error"}
	})
	page := explorer.Page("/graphql")
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if IsExplorerRequest(req) {
			page.ServeHTTP(w, req)
			return
		}
		srv.ServeHTTP(w, req)
	})
}

// IsExplorerRequest reports whether a request is a browser loading the GraphiQL explorer: a GET
// without a query string that accepts HTML. The explorer page needs no token; its queries do.
func IsExplorerRequest(r *http.Request) bool {
	return r.Method == http.MethodGet && r.URL.RawQuery == "" && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// LogPanic logs a recovered panic with the goroutine's stack, for either door.
func LogPanic(ctx context.Context, msg string, p any) {
	slog.ErrorContext(ctx, msg, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
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

// complexity makes a connection cost its page size times its children, so a nested list of
// lists is priced as what it would read.
func complexity() ComplexityRoot {
	var c ComplexityRoot
	page := func(first *int) int {
		if first == nil || *first == 0 {
			return 100
		}
		return *first
	}
	c.Organization.Members = func(child int, first *int, _ *string, _ *model.ListOrder, _ *model.MemberRoleFilter, _ *string, _ *model.MemberSort) int {
		return 1 + page(first)*child
	}
	c.Organization.InviteLinkList = func(child int, first *int, _ *string, _ *bool) int { return 1 + page(first)*child }
	c.Query.Organizations = func(child int, first *int, _ *string) int { return 1 + page(first)*child }
	c.Organization.Spaces = func(child int, first *int, _ *string) int { return 1 + page(first)*child }
	c.Organization.Sites = func(child int, first *int, _ *string, _ *string, _ *string, _ *bool, _ []model.SiteType) int {
		return 1 + page(first)*child
	}
	return c
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

// depthLimit refuses operations nested deeper than max selections.
type depthLimit struct{ max int }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }

func (d depthLimit) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, oc.Doc.Fragments, 0); depth > d.max {
		err := gqlerror.Errorf("query is nested %d levels deep; the limit is %d", depth, d.max)
		err.Extensions = map[string]any{"code": "DEPTH_LIMIT_EXCEEDED"}
		return err
	}
	return nil
}

func selectionDepth(set ast.SelectionSet, fragments ast.FragmentDefinitionList, seen int) int {
	if seen > 64 { // fragment cycles are rejected by validation; stop early regardless
		return seen
	}
	deepest := 0
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue // introspection has its own fixed shape
			}
			d = 1 + selectionDepth(s.SelectionSet, fragments, seen+1)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, fragments, seen+1)
		case *ast.FragmentSpread:
			if f := fragments.ForName(s.Name); f != nil {
				d = selectionDepth(f.SelectionSet, fragments, seen+1)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}
