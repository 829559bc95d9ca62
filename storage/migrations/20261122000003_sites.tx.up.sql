CREATE TABLE sites (
    id               TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title            TEXT NOT NULL,
    title_key        TEXT NOT NULL,
    type             TEXT NOT NULL,
    visibility       TEXT NOT NULL,
    basename         TEXT,
    agents_context   TEXT NOT NULL,
    adaptive_content BOOLEAN NOT NULL DEFAULT FALSE,
    created_at       {{.Timestamp}} NOT NULL,
    updated_at       {{.Timestamp}} NOT NULL,
    UNIQUE (organization_id, basename)
);
--bun:split
CREATE INDEX sites_org ON sites (organization_id, created_at, id);
--bun:split
CREATE TABLE site_spaces (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    path            TEXT NOT NULL,
    condition       TEXT,
    is_default      BOOLEAN NOT NULL DEFAULT FALSE,
    position        INTEGER NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
-- An index rather than a table constraint, so that sections can widen it to (site, section, path).
CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, path);
--bun:split
CREATE INDEX site_spaces_site ON site_spaces (site_id, position);
--bun:split
CREATE TABLE site_share_links (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name            TEXT NOT NULL,
    share_key       TEXT NOT NULL UNIQUE,
    active          BOOLEAN NOT NULL DEFAULT TRUE,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX site_share_links_site ON site_share_links (site_id, created_at, id);
