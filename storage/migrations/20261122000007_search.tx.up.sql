-- Full-text search over the current content of spaces: one row per document page of a space's
-- own line (never a change request's), kept in step with the content in the same transaction
-- (storage/search_index.go). PostgreSQL ranks a weighted tsvector (title A, body B) through a GIN
-- index; SQLite mirrors the rows into an FTS5 table (external content) ranked with bm25.
CREATE TABLE search_pages (
    id              {{if eq .Dialect "postgres"}}BIGSERIAL{{else}}INTEGER{{end}} PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id         TEXT NOT NULL,
    content_id      TEXT,
    title           TEXT NOT NULL,
    body            TEXT NOT NULL{{if eq .Dialect "postgres"}},
    tsv             tsvector GENERATED ALWAYS AS (
                        setweight(to_tsvector('english', title), 'A') ||
                        setweight(to_tsvector('english', body), 'B')) STORED{{end}}
);
--bun:split
CREATE UNIQUE INDEX search_pages_page ON search_pages (space_id, page_id);
--bun:split
{{if eq .Dialect "postgres"}}
CREATE INDEX search_pages_tsv ON search_pages USING GIN (tsv);
{{else}}
CREATE VIRTUAL TABLE search_pages_fts USING fts5(
    title, body,
    content = 'search_pages', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
--bun:split
CREATE TRIGGER search_pages_insert AFTER INSERT ON search_pages BEGIN
    INSERT INTO search_pages_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;
--bun:split
CREATE TRIGGER search_pages_delete AFTER DELETE ON search_pages BEGIN
    INSERT INTO search_pages_fts (search_pages_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
END;
{{end}}
--bun:split
-- Content written before this migration: its markdown is indexed as it is (later edits index
-- plain text).
INSERT INTO search_pages (organization_id, space_id, page_id, content_id, title, body)
SELECT pv.organization_id, pv.space_id, pv.page_id, pv.content_id, pv.title, COALESCE(pc.markdown, '')
FROM page_versions pv LEFT JOIN page_contents pc ON pc.id = pv.content_id
WHERE pv.line = pv.space_id AND pv.to_seq IS NULL AND NOT pv.deleted AND pv.type = 'document';
