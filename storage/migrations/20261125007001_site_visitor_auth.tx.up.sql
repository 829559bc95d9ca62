-- What the reader needs to know about a site beyond the contract's fields: the key that signs its
-- visitor tokens (HS256), whether visitors may add unsigned claims in the URL, and the site's
-- variables that published pages' expressions read. One row per site, created when first set.
CREATE TABLE site_reader_settings (
    site_id         TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    signing_key     TEXT,
    unsigned_claims BOOLEAN NOT NULL DEFAULT FALSE,
    variables       TEXT,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX sites_basename ON sites (basename, created_at);
