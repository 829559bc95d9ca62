-- Reusable content: blocks of content kept once in a space and shown wherever a page includes
-- them (GitBook's .gitbook/includes/ files). Versioned on the space's lines like pages and
-- files; the body is a page content (markdown stored once, shared by every version holding it).
CREATE TABLE reusable_content_versions (
    id                  TEXT PRIMARY KEY,
    organization_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id            TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    line                TEXT NOT NULL,
    from_seq            BIGINT NOT NULL,
    to_seq              BIGINT,
    reusable_content_id TEXT NOT NULL,
    origin_id           TEXT,
    deleted             BOOLEAN NOT NULL DEFAULT FALSE,
    title               TEXT NOT NULL,
    git                 TEXT,
    content_id          TEXT REFERENCES page_contents (id),
    created_at          {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX reusable_content_versions_line ON reusable_content_versions (line, reusable_content_id, from_seq);
--bun:split
CREATE INDEX reusable_content_versions_current ON reusable_content_versions (line, to_seq);
