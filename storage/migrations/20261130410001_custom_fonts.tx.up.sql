-- Files uploaded through a signed upload URL (generateStorageUploadURL): the key the client was
-- given, what the bytes are (their blob) and what they are for. A custom font's faces name them.
CREATE TABLE storage_uploads (
    storage_key     TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    name            TEXT NOT NULL,
    content_type    TEXT NOT NULL,
    size            BIGINT NOT NULL,
    blob_key        TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX storage_uploads_org ON storage_uploads (organization_id, created_at);
--bun:split
-- An organization's custom fonts: a family and its faces (weight, upload key, blob, format, as
-- JSON), drawn by the reader for the sites whose customization names the font.
CREATE TABLE custom_fonts (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    font_family     TEXT NOT NULL,
    faces           TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX custom_fonts_org ON custom_fonts (organization_id, font_family, id);
