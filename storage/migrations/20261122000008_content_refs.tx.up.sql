-- What each markdown body points at (links, images, files, embeds), as written. Bodies are shared
-- and immutable, so their references are extracted once, when the body is first stored, and
-- resolved against a revision's pages and files when read.
CREATE TABLE content_refs (
    content_id      TEXT NOT NULL REFERENCES page_contents (id) ON DELETE CASCADE,
    ord             INTEGER NOT NULL,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    node            TEXT NOT NULL,
    type            TEXT NOT NULL,
    target          TEXT NOT NULL,
    PRIMARY KEY (content_id, ord)
);
