-- A section's site spaces are looked up by section: reading a section's items in order, and the
-- foreign key's ON DELETE CASCADE when a section goes (without it, a scan of every site space).
CREATE INDEX site_spaces_section ON site_spaces (section_id, position);
