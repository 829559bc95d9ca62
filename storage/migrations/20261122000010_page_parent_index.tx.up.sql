-- Children of a page are looked up by parent on its line (subtrees, sibling checks, moves).
CREATE INDEX page_versions_parent ON page_versions (line, parent_id);
