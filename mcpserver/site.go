package mcpserver

import (
	"context"
	"net/http"
	"strings"

	"github.com/bindery/bindery/domain"
	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/model"
	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Site answers MCP at /sites/{name}/~gitbook/mcp: the published site name as the visitor the
// request names sees it (share key, visitor token, claims; docs/mcp.md). A site the visitor may
// not open answers as the reader does: 404, or 401 for a visitor-auth site without a token.
func (s *Server) Site() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ps, err := s.res.OpenPublishedSite(r.Context(), chi.URLParam(r, "name"), visitorOf(r))
		if err != nil {
			status := map[apperr.Kind]int{apperr.NotFound: http.StatusNotFound, apperr.Unauthenticated: http.StatusUnauthorized}[apperr.KindOf(err)]
			if status == 0 {
				status = http.StatusInternalServerError
			}
			http.Error(w, http.StatusText(status), status)
			return
		}
		ctx := r.Context() // the request's state (loaders, visitor) serves every tool call of it
		handler(func(*http.Request) *mcp.Server { return s.siteServer(ctx, ps) }).ServeHTTP(w, r)
	})
}

// visitorOf reads a visitor's credentials from an MCP request: a share key (?share= or the
// X-Share-Key header) and a visitor token (Authorization: Bearer), the claims a site accepts
// unsigned as ?visitor.claim=value... are not read here: agents send a signed token.
func visitorOf(r *http.Request) *model.SiteVisitorInput {
	in := &model.SiteVisitorInput{}
	if k := firstNonEmpty(r.URL.Query().Get("share"), r.Header.Get("X-Share-Key")); k != "" {
		in.ShareKey = &k
	}
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && t != "" {
		in.Token = &t
	}
	return in
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if s != "" {
			return s
		}
	}
	return ""
}

type siteSearchIn struct {
	Query string `json:"query" jsonschema:"the words or question to look for"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many pages at most (1 to 50, default 10)"`
}

type pageIn struct {
	URL string `json:"url" jsonschema:"the page's published URL, or its path in the site"`
}

// siteServer is the MCP server of one visitor's view of a site.
func (s *Server) siteServer(ctx context.Context, ps *domain.PublishedSite) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bindery-site", Title: ps.Title, Version: version},
		&mcp.ServerOptions{Instructions: "Documentation of " + ps.Title + ". Search it with search_documentation, read a page as markdown with get_page."})
	mcp.AddTool(srv, &mcp.Tool{Name: "search_documentation", Description: "Search " + ps.Title + "'s documentation; returns matching pages with their URL and the sections that match."},
		func(_ context.Context, _ *mcp.CallToolRequest, in siteSearchIn) (*mcp.CallToolResult, any, error) {
			var first *int
			if in.Limit != 0 {
				first = &in.Limit
			}
			results, err := s.res.PublishedSearch(ctx, ps, in.Query, first)
			if err != nil {
				return failed(ctx, err)
			}
			return text(results)
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "get_page", Description: "Read a page of " + ps.Title + " as markdown, by its URL."},
		func(_ context.Context, _ *mcp.CallToolRequest, in pageIn) (*mcp.CallToolResult, any, error) {
			pp, md, err := s.res.PublishedPageMarkdown(ctx, ps, in.URL)
			if err != nil {
				return failed(ctx, err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "# " + pp.Title + "\n\n" + md}}}, nil, nil
		})
	// Resources: every document page the visitor sees, by its published URL.
	pages, err := s.res.PublishedDocuments(ctx, ps)
	if err == nil {
		for _, p := range pages {
			desc := ""
			if p.Description != nil {
				desc = *p.Description
			}
			srv.AddResource(&mcp.Resource{URI: p.URL, Name: p.Title, Title: p.Title, Description: desc, MIMEType: "text/markdown"},
				func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					_, md, err := s.res.PublishedPageMarkdown(ctx, ps, req.Params.URI)
					if err != nil {
						return nil, mcp.ResourceNotFoundError(req.Params.URI)
					}
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: md}}}, nil
				})
		}
	}
	return srv
}
