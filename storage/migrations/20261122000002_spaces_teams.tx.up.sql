CREATE TABLE collections (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES collections (id) ON DELETE SET NULL,
    title           TEXT NOT NULL,
    description     TEXT,
    default_level   TEXT,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX collections_org ON collections (organization_id, created_at, id);
--bun:split
CREATE TABLE spaces (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    collection_id   TEXT REFERENCES collections (id) ON DELETE SET NULL,
    title           TEXT NOT NULL,
    emoji           TEXT NOT NULL DEFAULT '',
    icon_url        TEXT,
    edit_mode       TEXT NOT NULL,
    language        TEXT,
    default_level   TEXT,
    merge_rules     TEXT NOT NULL,
    revision_id     TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL,
    deleted_at      {{.Timestamp}}
);
--bun:split
CREATE INDEX spaces_org ON spaces (organization_id, created_at, id);
--bun:split
CREATE INDEX spaces_collection ON spaces (collection_id);
--bun:split
CREATE TABLE revisions (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX revisions_space ON revisions (space_id, created_at);
--bun:split
CREATE TABLE teams (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title           TEXT NOT NULL,
    title_key       TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX teams_org ON teams (organization_id, title, id);
--bun:split
CREATE TABLE team_members (
    team_id         TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
--bun:split
CREATE INDEX team_members_user ON team_members (organization_id, user_id);
--bun:split
CREATE TABLE content_grants (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    target_kind     TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    principal_kind  TEXT NOT NULL,
    principal_id    TEXT NOT NULL,
    role            TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    PRIMARY KEY (target_kind, target_id, principal_kind, principal_id)
);
--bun:split
CREATE INDEX content_grants_principal ON content_grants (organization_id, principal_kind, principal_id);
