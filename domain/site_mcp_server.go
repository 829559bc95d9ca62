package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bindery/bindery/domain/apperr"
	"github.com/bindery/bindery/domain/gitsync"
	"github.com/bindery/bindery/domain/model"
	"github.com/bindery/bindery/storage"
)

// Site MCP servers (docs/mcp.md): external MCP servers a site's Ask may call as tools. Only
// organization admins see or change them. Their URLs pass the safe outbound fetcher's checks
// (https, no credentials; every address is checked again when dialled); their headers, which
// usually carry credentials, are sealed with the server's secret key and are never shown: every
// value reads as model.SiteMcpServerHeaderMask.

const (
	maxMcpServerName    = 100
	maxMcpServerURL     = 2048
	maxMcpServerHeaders = 20
	maxMcpHeaderName    = 100
	maxMcpHeaderValue   = 512
)

// mcpHeaderSealer seals MCP server headers; nil when the server has no secret key.
func (r *App) mcpHeaderSealer() *gitsync.Sealer {
	return gitsync.NewSealerFor("bindery site mcp server headers", r.GitSync.SecretKey)
}

// reservedMcpHeaders are set by the HTTP client itself.
var reservedMcpHeaders = map[string]bool{
	"host": true, "content-length": true, "content-type": true, "transfer-encoding": true, "connection": true,
	"upgrade": true, "te": true, "trailer": true, "keep-alive": true, "proxy-authorization": true, "proxy-connection": true,
	"accept": true, "mcp-session-id": true, "mcp-protocol-version": true,
}

// isToken reports whether s is an HTTP header name (RFC 9110 token).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// validMcpHeaders checks headers. Errors: Invalid naming headers or one header.
func validMcpHeaders(h model.SiteMcpServerHeaders) error {
	if len(h) > maxMcpServerHeaders {
		return apperr.Invalidf("headers", "at most %d headers", maxMcpServerHeaders)
	}
	seen := map[string]bool{}
	for _, x := range h {
		field := "headers." + x.Name
		switch lower := strings.ToLower(x.Name); {
		case !isToken(x.Name) || len(x.Name) > maxMcpHeaderName:
			return apperr.Invalidf("headers", "%q is not a header name (letters, digits and !#$%%&'*+-.^_`|~, at most %d)", x.Name, maxMcpHeaderName)
		case reservedMcpHeaders[lower]:
			return apperr.Invalidf(field, "is set by the server itself")
		case seen[lower]:
			return apperr.Invalidf(field, "is given twice")
		default:
			seen[lower] = true
		}
		if x.Value == "" || utf8.RuneCountInString(x.Value) > maxMcpHeaderValue {
			return apperr.Invalidf(field, "must be 1 to %d characters", maxMcpHeaderValue)
		}
		if strings.ContainsAny(x.Value, "\r\n\x00") || !utf8.ValidString(x.Value) {
			return apperr.Invalidf(field, "must be one line of text")
		}
	}
	return nil
}

// validMcpServer checks the given fields of an input. Errors: Invalid.
func (r *App) validMcpServer(in model.SiteMcpServerInput) error {
	if in.Name != nil {
		if n := utf8.RuneCountInString(*in.Name); strings.TrimSpace(*in.Name) == "" || n > maxMcpServerName {
			return apperr.Invalidf("name", "must be 1 to %d characters", maxMcpServerName)
		}
	}
	if in.URL != nil {
		if len(*in.URL) > maxMcpServerURL {
			return apperr.Invalidf("url", "must be at most %d characters", maxMcpServerURL)
		}
		if err := r.Settings.Fetch.Check(*in.URL); err != nil {
			return apperr.Invalidf("url", "%s", err.Error())
		}
	}
	if in.Headers != nil {
		return validMcpHeaders(in.Headers)
	}
	return nil
}

func (r *App) toSiteMcpServer(row *storage.SiteMcpServer) *model.SiteMcpServer {
	var names []string
	_ = json.Unmarshal([]byte(row.HeaderNames), &names)
	out := &model.SiteMcpServer{Object: "site-mcp-server", ID: row.ID, Name: row.Name, URL: row.URL, Headers: model.SiteMcpServerHeaders{},
		URLs: model.SiteMcpServerURLs{Location: fmt.Sprintf("%s/v1/orgs/%s/sites/%s/mcp-servers/%s", r.Settings.PublicURL, row.OrganizationID, row.SiteID, row.ID)}}
	for _, n := range names {
		out.Headers = append(out.Headers, &model.SiteMcpServerHeader{Name: n, Value: model.SiteMcpServerHeaderMask})
	}
	return out
}

// mcpServerSite finds a site of an organization the caller administers. Errors: NotFound,
// Forbidden.
func (r *App) mcpServerSite(ctx context.Context, orgID, siteID string) (*storage.Site, error) {
	org, err := r.adminOf(ctx, orgID)
	if err != nil {
		return nil, err
	}
	site, err := r.Store.FindSite(ctx, org.ID, siteID)
	return site, notFound(err, "site")
}

// SiteMcpServers lists a site's MCP servers by name (organization admins). Errors: Invalid,
// NotFound, Forbidden.
func (r *App) SiteMcpServers(ctx context.Context, orgID, siteID string, first *int, after *string) (*model.SiteMcpServerConnection, error) {
	page, err := windowOf(first, after)
	if err != nil {
		return nil, err
	}
	site, err := r.mcpServerSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	page.NoTotal = !Wants(ctx, WantTotal)
	list, err := r.Store.FindSiteMcpServers(ctx, site.OrganizationID, site.ID, page)
	if err != nil {
		return nil, err
	}
	return connectionOf(list, r.toSiteMcpServer), nil
}

// SiteMcpServer reads one MCP server of a site (organization admins). Errors: NotFound,
// Forbidden.
func (r *App) SiteMcpServer(ctx context.Context, orgID, siteID, id string) (*model.SiteMcpServer, error) {
	site, err := r.mcpServerSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSiteMcpServer(ctx, site.OrganizationID, site.ID, id)
	if err != nil {
		return nil, notFound(err, "MCP server")
	}
	return r.toSiteMcpServer(row), nil
}

// CreateSiteMcpServer adds an MCP server to a site (organization admins). Errors: Invalid
// (a missing field, a bad name, URL or header, headers on a server without a secret key),
// NotFound, Forbidden.
func (r *App) CreateSiteMcpServer(ctx context.Context, orgID, siteID string, in model.SiteMcpServerInput) (*model.SiteMcpServer, error) {
	switch {
	case in.Name == nil:
		return nil, apperr.Invalidf("name", "is required")
	case in.URL == nil:
		return nil, apperr.Invalidf("url", "is required")
	case in.Headers == nil:
		return nil, apperr.Invalidf("headers", "is required (an empty object for none)")
	}
	if err := r.validMcpServer(in); err != nil {
		return nil, err
	}
	for _, h := range in.Headers {
		if h.Value == model.SiteMcpServerHeaderMask {
			return nil, apperr.Invalidf("headers."+h.Name, "is the placeholder of a stored value: give the value itself")
		}
	}
	site, err := r.mcpServerSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	now := r.Now()
	row := &storage.SiteMcpServer{OrganizationID: site.OrganizationID, SiteID: site.ID, Name: strings.TrimSpace(*in.Name), URL: *in.URL, CreatedAt: now, UpdatedAt: now}
	if err := r.sealMcpHeaders(row, in.Headers); err != nil {
		return nil, err
	}
	row.ID = storage.NewID()
	if err := r.Store.CreateSiteMcpServer(r.emit(ctx, mcpServerEvent(EventSiteMcpServerCreated, row), nil), row); err != nil {
		return nil, err
	}
	return r.toSiteMcpServer(row), nil
}

// UpdateSiteMcpServer changes an MCP server's name, URL or headers (organization admins).
// Headers given replace the stored ones; a value equal to the mask keeps the value stored under
// that name. Errors: as CreateSiteMcpServer.
func (r *App) UpdateSiteMcpServer(ctx context.Context, orgID, siteID, id string, in model.SiteMcpServerInput) (*model.SiteMcpServer, error) {
	if err := r.validMcpServer(in); err != nil {
		return nil, err
	}
	site, err := r.mcpServerSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	row, err := r.Store.FindSiteMcpServer(ctx, site.OrganizationID, site.ID, id)
	if err != nil {
		return nil, notFound(err, "MCP server")
	}
	if in.Name != nil {
		row.Name = strings.TrimSpace(*in.Name)
	}
	if in.URL != nil {
		row.URL = *in.URL
	}
	if in.Headers != nil {
		var kept map[string]string
		for _, h := range in.Headers {
			if h.Value != model.SiteMcpServerHeaderMask {
				continue
			}
			if kept == nil {
				if kept, err = r.openMcpHeaders(row); err != nil {
					return nil, err
				}
			}
			old, ok := kept[h.Name]
			if !ok {
				return nil, apperr.Invalidf("headers."+h.Name, "is the placeholder of a stored value, but no value is stored under this name")
			}
			h.Value = old
		}
		if err := r.sealMcpHeaders(row, in.Headers); err != nil {
			return nil, err
		}
	}
	row.UpdatedAt = r.Now()
	if err := r.Store.UpdateSiteMcpServer(r.emit(ctx, mcpServerEvent(EventSiteMcpServerUpdated, row), nil), row); err != nil {
		return nil, notFound(err, "MCP server")
	}
	return r.toSiteMcpServer(row), nil
}

// DeleteSiteMcpServer removes an MCP server; it reports whether there was one. Errors:
// NotFound (the site), Forbidden.
func (r *App) DeleteSiteMcpServer(ctx context.Context, orgID, siteID, id string) (bool, error) {
	site, err := r.mcpServerSite(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	ev := mcpServerEvent(EventSiteMcpServerDeleted, &storage.SiteMcpServer{OrganizationID: site.OrganizationID, SiteID: site.ID, ID: id})
	return r.Store.DeleteSiteMcpServer(r.emit(ctx, ev, nil), site.OrganizationID, site.ID, id)
}

// mcpServerEvent is an event about a site's MCP server: the site's, naming the server (never its
// headers).
func mcpServerEvent(typ string, row *storage.SiteMcpServer) *storage.Event {
	ev := siteEvent(typ, row.OrganizationID, row.SiteID, "")
	ev.TargetType, ev.TargetID, ev.TargetLabel = "site-mcp-server", row.ID, row.Name
	return ev
}

// sealMcpHeaders stores headers on row: their names in clear, names and values sealed.
// Errors: Invalid (headers without a secret key).
func (r *App) sealMcpHeaders(row *storage.SiteMcpServer, headers model.SiteMcpServerHeaders) error {
	names := make([]string, 0, len(headers))
	values := make(map[string]string, len(headers))
	for _, h := range headers {
		names = append(names, h.Name)
		values[h.Name] = h.Value
	}
	sort.Strings(names)
	rawNames, _ := json.Marshal(names)
	row.HeaderNames, row.HeadersSealed = string(rawNames), ""
	if len(headers) == 0 {
		return nil
	}
	sealer := r.mcpHeaderSealer()
	if sealer == nil {
		return apperr.Invalidf("headers", "this server cannot store headers: it has no secret key (--secret-key)")
	}
	raw, _ := json.Marshal(values)
	row.HeadersSealed = sealer.Seal(string(raw))
	return nil
}

// openMcpHeaders are a stored server's headers in clear, for calling it.
func (r *App) openMcpHeaders(row *storage.SiteMcpServer) (map[string]string, error) {
	out := map[string]string{}
	if row.HeadersSealed == "" {
		return out, nil
	}
	sealer := r.mcpHeaderSealer()
	if sealer == nil {
		return nil, apperr.Invalidf("headers", "this server cannot read the stored headers: it has no secret key (--secret-key)")
	}
	plain, err := sealer.Open(row.HeadersSealed)
	if err != nil {
		return nil, fmt.Errorf("open the headers of MCP server %s: %w", row.ID, err)
	}
	if err := json.Unmarshal([]byte(plain), &out); err != nil {
		return nil, fmt.Errorf("read the headers of MCP server %s: %w", row.ID, err)
	}
	return out, nil
}
