CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    display_name   TEXT NOT NULL,
    email          TEXT NOT NULL UNIQUE,
    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
    photo_url      TEXT,
    search_key     TEXT NOT NULL,
    created_at     {{.Timestamp}} NOT NULL
);
--bun:split
CREATE TABLE api_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at {{.Timestamp}} NOT NULL,
    expires_at {{.Timestamp}}
);
--bun:split
CREATE INDEX api_tokens_user_id ON api_tokens (user_id);
--bun:split
CREATE TABLE organizations (
    id                   TEXT PRIMARY KEY,
    title                TEXT NOT NULL,
    type                 TEXT NOT NULL,
    use_case             TEXT,
    community_type       TEXT,
    hostname             TEXT UNIQUE,
    email_domains        TEXT NOT NULL,
    default_role         TEXT,
    default_content_site TEXT,
    logo_url             TEXT,
    sso                  BOOLEAN NOT NULL DEFAULT FALSE,
    ai                   BOOLEAN NOT NULL DEFAULT FALSE,
    invite_links         BOOLEAN NOT NULL DEFAULT TRUE,
    plan                 TEXT NOT NULL,
    merge_rules          TEXT NOT NULL,
    created_at           {{.Timestamp}} NOT NULL,
    updated_at           {{.Timestamp}} NOT NULL
);
--bun:split
CREATE TABLE organization_members (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT,
    disabled        BOOLEAN NOT NULL DEFAULT FALSE,
    sso             BOOLEAN NOT NULL DEFAULT FALSE,
    joined_at       {{.Timestamp}} NOT NULL,
    last_seen_at    {{.Timestamp}},
    PRIMARY KEY (organization_id, user_id)
);
--bun:split
CREATE INDEX organization_members_user_id ON organization_members (user_id);
--bun:split
CREATE INDEX organization_members_joined_at ON organization_members (organization_id, joined_at, user_id);
--bun:split
CREATE INDEX organization_members_last_seen_at ON organization_members (organization_id, last_seen_at, user_id);
--bun:split
CREATE TABLE organization_invite_links (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    role            TEXT,
    target_kind     TEXT,
    target_id       TEXT,
    created_by      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX organization_invite_links_org ON organization_invite_links (organization_id, created_at, id);
--bun:split
CREATE TABLE organization_agent_instructions (
    organization_id TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    instructions    TEXT NOT NULL,
    updated_by      TEXT NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
