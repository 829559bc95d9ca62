-- Content history as lines of sequence numbers. A space's main content is the line named by the
-- space id; each change request is a line named by its id, layered over the space line at a base
-- sequence. A page or file version is visible on its line from from_seq until to_seq (exclusive;
-- NULL while current), so any revision reads in one statement and a write touches only the
-- versions it changes.
ALTER TABLE revisions ADD COLUMN line TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE revisions ADD COLUMN seq BIGINT NOT NULL DEFAULT 1;
--bun:split
ALTER TABLE revisions ADD COLUMN base_seq BIGINT;
--bun:split
ALTER TABLE revisions ADD COLUMN type TEXT NOT NULL DEFAULT 'edits';
--bun:split
ALTER TABLE revisions ADD COLUMN parents TEXT NOT NULL DEFAULT '[]';
--bun:split
ALTER TABLE revisions ADD COLUMN change_request_id TEXT;
--bun:split
ALTER TABLE revisions ADD COLUMN merged_from TEXT;
--bun:split
ALTER TABLE revisions ADD COLUMN created_by TEXT;
--bun:split
UPDATE revisions SET line = space_id;
--bun:split
CREATE UNIQUE INDEX revisions_line_seq ON revisions (line, seq);
--bun:split
CREATE INDEX revisions_change_request_author ON revisions (change_request_id, created_by);
--bun:split
ALTER TABLE spaces ADD COLUMN revision_seq BIGINT NOT NULL DEFAULT 1;
--bun:split
CREATE TABLE change_requests (
    id                       TEXT PRIMARY KEY,
    organization_id          TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id                 TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    number                   BIGINT NOT NULL,
    status                   TEXT NOT NULL,
    subject                  TEXT NOT NULL,
    description              TEXT,
    created_by               TEXT NOT NULL REFERENCES users (id),
    base_seq                 BIGINT NOT NULL,
    head_seq                 BIGINT NOT NULL,
    revision_id              TEXT NOT NULL,
    revision_initial_id      TEXT NOT NULL,
    revision_merged_ancestor TEXT,
    revision_merged          TEXT,
    created_at               {{.Timestamp}} NOT NULL,
    updated_at               {{.Timestamp}} NOT NULL
);
--bun:split
CREATE UNIQUE INDEX change_requests_number ON change_requests (space_id, number);
--bun:split
CREATE INDEX change_requests_space ON change_requests (space_id, created_at, id);
--bun:split
-- Markdown is stored once per distinct body and shared by every version that holds it.
CREATE TABLE page_contents (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    markdown        TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE TABLE page_versions (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    line            TEXT NOT NULL,
    from_seq        BIGINT NOT NULL,
    to_seq          BIGINT,
    page_id         TEXT NOT NULL,
    origin_id       TEXT,
    deleted         BOOLEAN NOT NULL DEFAULT FALSE,
    parent_id       TEXT,
    position        DOUBLE PRECISION NOT NULL,
    type            TEXT NOT NULL,
    title           TEXT NOT NULL,
    slug            TEXT NOT NULL,
    emoji           TEXT,
    icon            TEXT,
    description     TEXT,
    hidden          BOOLEAN NOT NULL DEFAULT FALSE,
    no_index        BOOLEAN NOT NULL DEFAULT FALSE,
    no_robots_index BOOLEAN NOT NULL DEFAULT FALSE,
    layout          TEXT,
    cover           TEXT,
    variables       TEXT,
    link_target     TEXT,
    git             TEXT,
    content_id      TEXT REFERENCES page_contents (id),
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX page_versions_line ON page_versions (line, page_id, from_seq);
--bun:split
CREATE INDEX page_versions_current ON page_versions (line, to_seq);
--bun:split
CREATE TABLE file_versions (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    line            TEXT NOT NULL,
    from_seq        BIGINT NOT NULL,
    to_seq          BIGINT,
    file_id         TEXT NOT NULL,
    origin_id       TEXT,
    deleted         BOOLEAN NOT NULL DEFAULT FALSE,
    name            TEXT NOT NULL,
    content_type    TEXT NOT NULL,
    size            BIGINT NOT NULL,
    width           INTEGER,
    height          INTEGER,
    blob_key        TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX file_versions_line ON file_versions (line, file_id, from_seq);
--bun:split
CREATE INDEX file_versions_current ON file_versions (line, to_seq);
