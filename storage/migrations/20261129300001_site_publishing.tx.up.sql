-- Publishing a site is a decision of its managers, not only a consequence of holding site spaces:
-- an unpublished site keeps its structure but the reader answers it as absent.
ALTER TABLE sites ADD COLUMN unpublished BOOLEAN NOT NULL DEFAULT FALSE;
--bun:split
-- The JSON schema of the claims a site's visitors carry (adaptive content): conditions are checked
-- against it. One row per site, created when first set.
CREATE TABLE site_adaptive_schemas (
    site_id         TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    json_schema     TEXT NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
-- A site's look and feel (the contract's SiteCustomizationSettings, as JSON): one row per site,
-- created when first set; absent means the defaults.
CREATE TABLE site_customizations (
    site_id         TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    settings        TEXT NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
-- A site space's overrides of its site's customization (a partial document, as JSON).
CREATE TABLE site_space_customizations (
    site_space_id   TEXT PRIMARY KEY REFERENCES site_spaces (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    settings        TEXT NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX site_space_customizations_site ON site_space_customizations (site_id);
