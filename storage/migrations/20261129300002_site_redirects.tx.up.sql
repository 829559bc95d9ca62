-- A site's redirects: a path under the site that no longer leads anywhere, and where it now
-- leads (a section, a site space or a page, as JSON). The reader follows them before answering
-- 404. One source per site.
CREATE TABLE site_redirects (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    source          TEXT NOT NULL,
    destination     TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX site_redirects_source ON site_redirects (site_id, source);
