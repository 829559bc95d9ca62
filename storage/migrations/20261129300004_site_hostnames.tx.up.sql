-- A site's own host name (docs.example.com): the reader serves the site at its root once its DNS
-- points at this server (active), and the site's published URLs are built from it. One per site.
CREATE TABLE site_hostnames (
    hostname        TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    status          TEXT NOT NULL,
    active          BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      {{.Timestamp}} NOT NULL,
    checked_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX site_hostnames_site ON site_hostnames (site_id);
