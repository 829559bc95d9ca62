-- External MCP servers a site's Ask may call as tools: a name, a URL (checked by the safe
-- outbound fetcher) and the HTTP headers sent with each request, encrypted by the API layer
-- (headers_sealed, one sealed JSON object; the names kept in clear for display).
CREATE TABLE site_mcp_servers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    url             TEXT NOT NULL,
    header_names    TEXT NOT NULL,
    headers_sealed  TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX site_mcp_servers_site ON site_mcp_servers (site_id, name, id);
