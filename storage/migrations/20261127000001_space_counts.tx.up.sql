-- Counting an organization's spaces without reading them (issue 11, growth): how many are live,
-- and how many of those are open to members, per organization, kept in step by triggers in the
-- transaction of every insert, delete and update of spaces, so that no write path can forget
-- them. A member's count adds to open_live only the closed spaces their grants reach.
-- (No foreign key: an organization's deletion cascades to its spaces, whose triggers still
-- update this row.)
CREATE TABLE space_counts (
    organization_id TEXT PRIMARY KEY,
    live            BIGINT NOT NULL DEFAULT 0,
    open_live       BIGINT NOT NULL DEFAULT 0
);
--bun:split
INSERT INTO space_counts (organization_id, live, open_live)
SELECT organization_id, COUNT(*), SUM(CASE WHEN open_to_members THEN 1 ELSE 0 END)
FROM spaces WHERE deleted_at IS NULL GROUP BY organization_id;
{{if eq .Dialect "postgres"}}
--bun:split
-- One trigger per statement, from its transition tables: a bulk update (refreshOpen over a whole
-- organization) writes each organization's row once, and an update that changes no count (a
-- title, a new revision) writes nothing.
CREATE FUNCTION space_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO space_counts AS c (organization_id, live, open_live)
        SELECT organization_id, COUNT(*), COUNT(*) FILTER (WHERE open_to_members)
        FROM new_rows WHERE deleted_at IS NULL GROUP BY organization_id
        ON CONFLICT (organization_id) DO UPDATE SET live = c.live + excluded.live, open_live = c.open_live + excluded.open_live;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE space_counts AS c SET live = c.live - d.live, open_live = c.open_live - d.open_live
        FROM (SELECT organization_id, COUNT(*) AS live, COUNT(*) FILTER (WHERE open_to_members) AS open_live
              FROM old_rows WHERE deleted_at IS NULL GROUP BY organization_id) AS d
        WHERE c.organization_id = d.organization_id;
    ELSE
        INSERT INTO space_counts AS c (organization_id, live, open_live)
        SELECT organization_id, SUM(live), SUM(open_live) FROM (
            SELECT organization_id, 1 AS live, CASE WHEN open_to_members THEN 1 ELSE 0 END AS open_live
            FROM new_rows WHERE deleted_at IS NULL
            UNION ALL
            SELECT organization_id, -1, CASE WHEN open_to_members THEN -1 ELSE 0 END
            FROM old_rows WHERE deleted_at IS NULL
        ) AS d GROUP BY organization_id HAVING SUM(live) <> 0 OR SUM(open_live) <> 0
        ON CONFLICT (organization_id) DO UPDATE SET live = c.live + excluded.live, open_live = c.open_live + excluded.open_live;
    END IF;
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER space_counts_insert AFTER INSERT ON spaces REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION space_counts_apply();
--bun:split
CREATE TRIGGER space_counts_update AFTER UPDATE ON spaces REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION space_counts_apply();
--bun:split
CREATE TRIGGER space_counts_delete AFTER DELETE ON spaces REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION space_counts_apply();
{{else}}
--bun:split
CREATE TRIGGER space_counts_insert AFTER INSERT ON spaces WHEN NEW.deleted_at IS NULL BEGIN
    INSERT INTO space_counts (organization_id, live, open_live) VALUES (NEW.organization_id, 1, NEW.open_to_members <> 0)
    ON CONFLICT (organization_id) DO UPDATE SET live = live + 1, open_live = open_live + excluded.open_live;
END;
--bun:split
CREATE TRIGGER space_counts_delete AFTER DELETE ON spaces WHEN OLD.deleted_at IS NULL BEGIN
    UPDATE space_counts SET live = live - 1, open_live = open_live - (OLD.open_to_members <> 0)
    WHERE organization_id = OLD.organization_id;
END;
--bun:split
-- Only updates that change a count: a new revision or title writes nothing.
CREATE TRIGGER space_counts_update AFTER UPDATE OF organization_id, open_to_members, deleted_at ON spaces
WHEN OLD.organization_id IS NOT NEW.organization_id OR (OLD.open_to_members <> 0) IS NOT (NEW.open_to_members <> 0)
    OR (OLD.deleted_at IS NULL) IS NOT (NEW.deleted_at IS NULL) BEGIN
    UPDATE space_counts SET live = live - 1, open_live = open_live - (OLD.open_to_members <> 0)
    WHERE organization_id = OLD.organization_id AND OLD.deleted_at IS NULL;
    INSERT INTO space_counts (organization_id, live, open_live)
    SELECT NEW.organization_id, 1, NEW.open_to_members <> 0 WHERE NEW.deleted_at IS NULL
    ON CONFLICT (organization_id) DO UPDATE SET live = live + 1, open_live = open_live + excluded.open_live;
END;
{{end}}
