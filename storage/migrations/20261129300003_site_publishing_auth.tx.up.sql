-- Where a visitor-auth site sends a visitor without a valid token: the site's own sign-in, which
-- comes back with one. Nothing means the reader answers 401.
ALTER TABLE site_reader_settings ADD COLUMN fallback_url TEXT;
