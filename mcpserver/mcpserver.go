// Package mcpserver is Bindery's Model Context Protocol door (docs/mcp.md), on the official Go
// SDK's streamable HTTP transport: every published site answers at <published URL>/~gitbook/mcp
// with what that visitor may read, and the organization answers at /mcp for API tokens. Like
// rest/, it holds no rule: each tool decodes its arguments, calls the method REST and GraphQL
// call, and encodes the result, so access rules and token scopes apply unchanged.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// version is the implementation version servers announce.
const version = "1"

// Server builds the MCP handlers over the application.
type Server struct {
	res *domain.App
}

// New is the MCP door of res.
func New(res *domain.App) *Server { return &Server{res: res} }

// handler serves MCP statelessly (every request stands alone, as the other doors' do, so any
// server behind a load balancer answers it), with the server build makes for the request.
func handler(build func(*http.Request) *mcp.Server) http.Handler {
	return mcp.NewStreamableHTTPHandler(build, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// text is a tool result holding v as indented JSON.
func text(v any) (*mcp.CallToolResult, any, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
}

// failed is a tool's error as the agent reads it: the domain's message, or "internal error"
// (logged) for what the caller must not see.
func failed(ctx context.Context, err error) (*mcp.CallToolResult, any, error) {
	msg := apperr.Message(err)
	if apperr.KindOf(err) == apperr.Internal && !errors.Is(err, context.Canceled) {
		slog.ErrorContext(ctx, "MCP tool failed", "err", err)
		msg = "internal error"
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil, nil
}

// errChangeRequestRequired refuses an edit outside a change request: agents propose, people merge.
var errChangeRequestRequired = apperr.Invalidf("changeRequestId", "is required: pages are edited in a change request")
