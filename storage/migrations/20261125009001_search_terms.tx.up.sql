-- Search that finds (docs/search.md): the organization's vocabulary, for completing the word being
-- typed and correcting words no page holds; titles matched on their own, so the pages whose title
-- holds a searched word are ranked first whatever the number of matches. On SQLite the space id
-- becomes an FTS5 column, so a search is restricted to its spaces inside the full-text index.
CREATE TABLE search_terms (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    term            TEXT NOT NULL,
    PRIMARY KEY (organization_id, term)
);
--bun:split
{{if eq .Dialect "postgres"}}
-- PostgreSQL's parser reads "sync/atomic", "example.com" or "pg_dump" as one token (a path, a
-- host, a word with an underscore) where SQLite's unicode61 reads two words: index both the way
-- SQLite does, so a query finds the same pages on both.
ALTER TABLE search_pages DROP COLUMN tsv;
--bun:split
ALTER TABLE search_pages ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', translate(title, '/.@:_-', '      ')), 'A') ||
    setweight(to_tsvector('english', translate(body, '/.@:_-', '      ')), 'B')) STORED;
--bun:split
CREATE INDEX search_pages_tsv ON search_pages USING GIN (tsv);
--bun:split
ALTER TABLE search_pages ADD COLUMN title_tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english', translate(title, '/.@:_-', '      '))) STORED;
--bun:split
CREATE INDEX search_pages_title_tsv ON search_pages USING GIN (title_tsv);
{{else}}
DROP TRIGGER search_pages_insert;
--bun:split
DROP TRIGGER search_pages_delete;
--bun:split
DROP TABLE search_pages_fts;
--bun:split
CREATE VIRTUAL TABLE search_pages_fts USING fts5(
    title, body, space_id,
    content = 'search_pages', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
--bun:split
CREATE TRIGGER search_pages_insert AFTER INSERT ON search_pages BEGIN
    INSERT INTO search_pages_fts (rowid, title, body, space_id) VALUES (new.id, new.title, new.body, new.space_id);
END;
--bun:split
CREATE TRIGGER search_pages_delete AFTER DELETE ON search_pages BEGIN
    INSERT INTO search_pages_fts (search_pages_fts, rowid, title, body, space_id) VALUES ('delete', old.id, old.title, old.body, old.space_id);
END;
--bun:split
INSERT INTO search_pages_fts (search_pages_fts) VALUES ('rebuild');
{{end}}
