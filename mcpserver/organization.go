package mcpserver

import (
	"context"
	"net/http"

	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/domain/opt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Organization answers MCP at /mcp for an API token (authenticated before, as /v1 is): the
// organizations, spaces and pages the token's owner may read within the token's scopes, and
// changes proposed as change requests for people to review.
func (s *Server) Organization() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context() // the caller and the request's state serve every tool call of it
		handler(func(*http.Request) *mcp.Server { return s.orgServer(ctx) }).ServeHTTP(w, r)
	})
}

type orgIn struct {
	OrganizationID string `json:"organizationId" jsonschema:"the organization's id (list_organizations)"`
}

type orgSearchIn struct {
	OrganizationID string `json:"organizationId" jsonschema:"the organization's id (list_organizations)"`
	Query          string `json:"query" jsonschema:"the words or question to look for"`
}

type readPageIn struct {
	SpaceID         string `json:"spaceId"`
	PageID          string `json:"pageId,omitempty" jsonschema:"the page's id; or give path"`
	Path            string `json:"path,omitempty" jsonschema:"the page's path in the space, e.g. guides/install"`
	ChangeRequestID string `json:"changeRequestId,omitempty" jsonschema:"read the page as a change request has it"`
}

type openChangeRequestIn struct {
	SpaceID string `json:"spaceId"`
	Subject string `json:"subject" jsonschema:"what the change request is about"`
}

type editPageIn struct {
	SpaceID         string  `json:"spaceId"`
	ChangeRequestID string  `json:"changeRequestId" jsonschema:"the change request to edit in (open_change_request)"`
	PageID          string  `json:"pageId"`
	Markdown        string  `json:"markdown" jsonschema:"the page's whole new content, as markdown"`
	Title           *string `json:"title,omitempty"`
}

type commentIn struct {
	SpaceID         string `json:"spaceId"`
	ChangeRequestID string `json:"changeRequestId"`
	Markdown        string `json:"markdown" jsonschema:"the comment, as markdown"`
	PageID          string `json:"pageId,omitempty" jsonschema:"the page the comment is about"`
}

// orgServer is the MCP server of one caller.
func (s *Server) orgServer(ctx context.Context) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "bindery", Version: version}, &mcp.ServerOptions{
		Instructions: "Bindery documentation. Find organizations with list_organizations, then search, list spaces and read pages. " +
			"Propose changes by opening a change request, editing pages in it and commenting; people review and merge them."})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	mcp.AddTool(srv, &mcp.Tool{Name: "list_organizations", Description: "List the organizations you belong to.", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			c, err := s.res.Organizations(ctx, nil, nil)
			if err != nil {
				return failed(ctx, err)
			}
			out := []map[string]string{}
			for _, o := range c.Nodes {
				out = append(out, map[string]string{"id": o.ID, "title": o.Title})
			}
			return text(out)
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "search", Description: "Search the spaces of an organization you can read; returns spaces with their matching pages and sections.", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in orgSearchIn) (*mcp.CallToolResult, any, error) {
			c, err := s.res.SearchOrganization(ctx, in.OrganizationID, model.SearchInput{Query: in.Query})
			if err != nil {
				return failed(ctx, err)
			}
			return text(c.Nodes)
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "list_spaces", Description: "List the spaces of an organization you can read.", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in orgIn) (*mcp.CallToolResult, any, error) {
			org, err := s.res.OrganizationByID(ctx, in.OrganizationID)
			if err != nil {
				return failed(ctx, err)
			}
			c, err := s.res.OrganizationSpaces(ctx, org, nil, nil)
			if err != nil {
				return failed(ctx, err)
			}
			out := []map[string]string{}
			for _, sp := range c.Nodes {
				out = append(out, map[string]string{"id": sp.ID, "title": sp.Title})
			}
			return text(out)
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "read_page", Description: "Read a page of a space (or of a change request) as markdown.", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in readPageIn) (*mcp.CallToolResult, any, error) {
			src, err := s.res.SpaceContent(ctx, in.SpaceID)
			if in.ChangeRequestID != "" {
				src, err = s.res.ChangeRequestContent(ctx, in.SpaceID, in.ChangeRequestID)
			}
			if err != nil {
				return failed(ctx, err)
			}
			var page *model.RevisionPage
			if in.PageID != "" {
				page, err = s.res.Page(ctx, src, in.PageID, model.PageFormatMarkdown)
			} else {
				page, err = s.res.EvaluatedPageByPath(ctx, src, in.Path, model.PageFormatMarkdown, "")
			}
			if err != nil {
				return failed(ctx, err)
			}
			md := ""
			if page.Markdown != nil {
				md = *page.Markdown
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "# " + page.Title + "\n\n" + md}}}, nil, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "open_change_request", Description: "Open a change request on a space: a draft of changes people review before merging."},
		func(_ context.Context, _ *mcp.CallToolRequest, in openChangeRequestIn) (*mcp.CallToolResult, any, error) {
			cr, err := s.res.CreateChangeRequest(ctx, in.SpaceID, model.CreateChangeRequestInput{Subject: &in.Subject})
			if err != nil {
				return failed(ctx, err)
			}
			return text(map[string]any{"id": cr.ID, "number": cr.Number, "urls": cr.URLs})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "edit_page", Description: "Replace a page's content (and optionally its title) in a change request."},
		func(_ context.Context, _ *mcp.CallToolRequest, in editPageIn) (*mcp.CallToolResult, any, error) {
			edit := model.UpdatePageInput{Markdown: opt.Of(&in.Markdown)}
			if in.Title != nil {
				edit.Title = opt.Of(in.Title)
			}
			cr := in.ChangeRequestID
			if cr == "" {
				return failed(ctx, errChangeRequestRequired)
			}
			res, err := s.res.UpdatePage(ctx, model.ContentTarget{SpaceID: in.SpaceID, ChangeRequestID: &cr}, in.PageID, edit)
			if err != nil {
				return failed(ctx, err)
			}
			return text(map[string]any{"pageId": res.Page.ID, "title": res.Page.Title, "path": res.Page.Path})
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "comment", Description: "Comment on a change request (optionally about one of its pages)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in commentIn) (*mcp.CallToolResult, any, error) {
			post := model.PostCommentInput{Body: &model.CommentBody{Markdown: &in.Markdown}}
			if in.PageID != "" {
				post.Page = &in.PageID
			}
			c, err := s.res.PostComment(ctx, in.SpaceID, in.ChangeRequestID, post, nil)
			if err != nil {
				return failed(ctx, err)
			}
			return text(map[string]any{"id": c.ID})
		})
	return srv
}
