-- Token scopes (JSON array; NULL: the token may do all its user may) and the integration
-- installation a token belongs to (NULL: a user's own token). See docs/permissions.md.
ALTER TABLE api_tokens ADD COLUMN scopes TEXT;
--bun:split
ALTER TABLE api_tokens ADD COLUMN installation_id TEXT;
--bun:split
-- An organization's OpenAPI specifications: each has a slug and a source (text or url).
CREATE TABLE openapi_specs (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    slug              TEXT NOT NULL,
    source_url        TEXT,
    processing_state  TEXT NOT NULL,
    last_version_id   TEXT,
    last_processed_at {{.Timestamp}},
    last_error_code   TEXT,
    last_errors       TEXT,
    created_at        {{.Timestamp}} NOT NULL,
    updated_at        {{.Timestamp}} NOT NULL,
    UNIQUE (organization_id, slug)
);
--bun:split
-- Immutable versions: one per distinct content (content_hash), newest first by (created_at, id).
CREATE TABLE openapi_spec_versions (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    spec_id         TEXT NOT NULL REFERENCES openapi_specs (id) ON DELETE CASCADE,
    content_hash    TEXT NOT NULL,
    content         TEXT NOT NULL,
    source_url      TEXT,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions (spec_id, created_at, id);
--bun:split
-- The integration catalogue: names are global, each owned by the organization that published it.
CREATE TABLE integrations (
    name            TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    version         INTEGER NOT NULL,
    visibility      TEXT NOT NULL,
    definition      TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE TABLE integration_installations (
    id               TEXT PRIMARY KEY,
    integration_name TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    installed_by     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at       {{.Timestamp}} NOT NULL,
    updated_at       {{.Timestamp}} NOT NULL,
    UNIQUE (integration_name, organization_id)
);
--bun:split
CREATE TABLE integration_space_installations (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    created_at      {{.Timestamp}} NOT NULL,
    PRIMARY KEY (installation_id, space_id)
);
--bun:split
CREATE INDEX integration_space_installations_space ON integration_space_installations (space_id);
