-- Machine translations of spaces (issue 15). A translation keeps a result space in step with its
-- source space; each run writes a new revision of the result space. translation_pages is the
-- translation memory: one row per translated page body, keyed by a hash of what was sent (the
-- page's text, the target language, the instructions and the glossary terms that occur in it), so
-- a later run sends only the pages whose key changed, and a resumed run skips pages already done.
CREATE TABLE translations (
    id                  TEXT PRIMARY KEY,
    organization_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source_space_id     TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    source_language     TEXT NOT NULL,
    language            TEXT NOT NULL,
    instructions        TEXT NOT NULL,
    result_space_id     TEXT REFERENCES spaces (id) ON DELETE SET NULL,
    result_revision_id  TEXT,
    status              TEXT NOT NULL,
    runs                BIGINT NOT NULL DEFAULT 0,
    total_words         BIGINT NOT NULL DEFAULT 0,
    total_pages         BIGINT NOT NULL DEFAULT 0,
    total_duration      BIGINT NOT NULL DEFAULT 0,
    latest_run_duration BIGINT NOT NULL DEFAULT 0,
    latest_pages        BIGINT NOT NULL DEFAULT 0,
    latest_words        BIGINT NOT NULL DEFAULT 0,
    created_by          TEXT,
    created_at          {{.Timestamp}} NOT NULL,
    updated_at          {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX translations_org ON translations (organization_id, created_at, id);
--bun:split
CREATE TABLE translation_runs (
    id                 TEXT PRIMARY KEY,
    organization_id    TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    translation_id     TEXT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    status             TEXT NOT NULL,
    previous_status    TEXT NOT NULL,
    progress           INTEGER NOT NULL DEFAULT 0,
    pages_total        INTEGER NOT NULL DEFAULT 0,
    pages_sent         INTEGER NOT NULL DEFAULT 0,
    pages_reused       INTEGER NOT NULL DEFAULT 0,
    words              BIGINT NOT NULL DEFAULT 0,
    failure            TEXT,
    issues             TEXT NOT NULL DEFAULT '[]',
    source_revision_id TEXT,
    result_revision_id TEXT,
    created_by         TEXT,
    created_at         {{.Timestamp}} NOT NULL,
    started_at         {{.Timestamp}},
    finished_at        {{.Timestamp}}
);
--bun:split
CREATE INDEX translation_runs_translation ON translation_runs (translation_id, created_at, id);
--bun:split
CREATE TABLE translation_pages (
    translation_id  TEXT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    source_key      TEXT NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    title           TEXT NOT NULL,
    description     TEXT,
    markdown        TEXT NOT NULL,
    words           BIGINT NOT NULL DEFAULT 0,
    issues          TEXT NOT NULL DEFAULT '[]',
    created_at      {{.Timestamp}} NOT NULL,
    PRIMARY KEY (translation_id, source_key)
);
--bun:split
CREATE TABLE glossary_entries (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    translations    TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX glossary_entries_org ON glossary_entries (organization_id, created_at, id);
