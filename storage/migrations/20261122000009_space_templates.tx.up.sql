-- An organization may mark spaces as templates: applying one copies its current pages.
ALTER TABLE spaces ADD COLUMN is_template BOOLEAN NOT NULL DEFAULT FALSE;
