-- Visibility decided in SQL (docs/permissions.md, "Deciding in SQL"). open_to_members says
-- whether a member with a role and no grant reads the content: its own default level, or, when
-- it inherits, its parent collection's answer (true at the organization's root). It is kept in
-- step by storage (refreshOpen) in the transaction of every change to a default level or to the
-- collection tree; grants, teams and roles are joined when a list is read, never copied.
ALTER TABLE collections ADD COLUMN open_to_members BOOLEAN NOT NULL DEFAULT FALSE;
--bun:split
ALTER TABLE spaces ADD COLUMN open_to_members BOOLEAN NOT NULL DEFAULT FALSE;
--bun:split
WITH RECURSIVE tree (id, is_open) AS (
    SELECT id, CASE WHEN default_level = 'inherit' THEN TRUE WHEN default_level IS NULL THEN FALSE ELSE TRUE END
    FROM collections WHERE parent_id IS NULL
    UNION
    SELECT c.id, CASE WHEN c.default_level = 'inherit' THEN t.is_open WHEN c.default_level IS NULL THEN FALSE ELSE TRUE END
    FROM collections c JOIN tree t ON c.parent_id = t.id
)
UPDATE collections SET open_to_members = (SELECT t.is_open FROM tree t WHERE t.id = collections.id)
WHERE id IN (SELECT id FROM tree);
--bun:split
UPDATE spaces SET open_to_members = CASE
    WHEN default_level = 'inherit' THEN COALESCE((SELECT c.open_to_members FROM collections c WHERE c.id = spaces.collection_id), TRUE)
    WHEN default_level IS NULL THEN FALSE ELSE TRUE END;
--bun:split
-- Counting an organization's live spaces, and those open to members, reads this index alone.
CREATE INDEX spaces_open ON spaces (organization_id, open_to_members, deleted_at);
--bun:split
-- Grants flow down the tree: a collection's children.
CREATE INDEX collections_parent ON collections (parent_id);
--bun:split
-- The grants on given content (a space's chain, a list's page).
CREATE INDEX content_grants_target ON content_grants (target_id);
