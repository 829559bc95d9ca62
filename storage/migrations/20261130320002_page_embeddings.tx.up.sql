-- Retrieval by meaning (docs/ask.md): the vectors of the chunks (a section each) of the current
-- pages of spaces, for one embedding model, with the content they were computed from; a vector
-- is used only while its page's current content (search_pages.content_id) is that content.
-- space_embeddings says which revision of a space was last queued for embedding.
CREATE TABLE page_embeddings (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id        TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    page_id         TEXT NOT NULL,
    chunk           INTEGER NOT NULL,
    content_id      TEXT NOT NULL,
    model           TEXT NOT NULL,
    anchor          TEXT NOT NULL,
    vector          TEXT NOT NULL,
    PRIMARY KEY (space_id, page_id, chunk)
);
--bun:split
CREATE TABLE space_embeddings (
    space_id        TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    model           TEXT NOT NULL,
    queued_revision TEXT NOT NULL,
    embedded_revision TEXT NOT NULL DEFAULT ''
);
