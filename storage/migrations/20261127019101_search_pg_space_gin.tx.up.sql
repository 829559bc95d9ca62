-- PostgreSQL: the full-text GIN indexes hold each page's organization and space beside its words
-- (btree_gin), so a search in one space (or one organization) intersects a word's pages with the
-- space's inside the index, skipping through the space's entries. With the words alone the space
-- filter was a second index (search_pages_page) whose 100,000 entries for a big space were read
-- and AND-ed with the word's few matches on every search (17–230 ms), or else a filter on the heap
-- that read every other organization's matches first. SQLite restricts its FTS5 scans by space
-- itself (the space_id column), so nothing changes there.
{{if eq .Dialect "postgres"}}
CREATE EXTENSION IF NOT EXISTS btree_gin;
--bun:split
CREATE INDEX search_pages_space_tsv ON search_pages USING GIN (organization_id, space_id, tsv);
--bun:split
CREATE INDEX search_pages_space_title_tsv ON search_pages USING GIN (organization_id, space_id, title_tsv);
--bun:split
DROP INDEX search_pages_tsv;
--bun:split
DROP INDEX search_pages_title_tsv;
{{else}}
SELECT 1;
{{end}}
