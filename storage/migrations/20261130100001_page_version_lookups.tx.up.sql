-- What a revision changed (its line's versions that started at its sequence; page_versions_current
-- covers those that ended there) and the page that holds a content id (documents by id): index
-- lookups, not scans of a line's pages.
CREATE INDEX page_versions_started ON page_versions (line, from_seq);
CREATE INDEX page_versions_content ON page_versions (content_id);
