-- Site sections and section groups. Sections and groups of one parent (a group, or the site's
-- root when group_id / parent_id is NULL) share one position space.
CREATE TABLE site_section_groups (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES site_section_groups (id) ON DELETE SET NULL,
    title           TEXT NOT NULL,
    icon            TEXT,
    position        INTEGER NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX site_section_groups_site ON site_section_groups (site_id, position);
--bun:split
CREATE TABLE site_sections (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    group_id        TEXT REFERENCES site_section_groups (id) ON DELETE SET NULL,
    title           TEXT NOT NULL,
    path            TEXT NOT NULL,
    description     TEXT,
    icon            TEXT,
    condition       TEXT,
    is_default      BOOLEAN NOT NULL DEFAULT FALSE,
    position        INTEGER NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
-- A section's path is the first segment of its URLs: unique on the site, whatever its group.
CREATE UNIQUE INDEX site_sections_path ON site_sections (site_id, path);
--bun:split
CREATE INDEX site_sections_site ON site_sections (site_id, position);
--bun:split
ALTER TABLE site_spaces ADD COLUMN section_id TEXT REFERENCES site_sections (id) ON DELETE CASCADE;
--bun:split
-- Site-space paths are unique within their section (or the root); NULLs are distinct in a
-- unique index, hence the COALESCE.
DROP INDEX site_spaces_path;
--bun:split
CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, (COALESCE(section_id, '')), path);
