-- A site's managers may turn its insights off: the reader sends no beacon and the server keeps
-- none of the site's visitor events.
ALTER TABLE site_reader_settings ADD COLUMN insights_off BOOLEAN NOT NULL DEFAULT FALSE;
