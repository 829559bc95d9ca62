-- What visitors do on a site (docs/sites.md, "Insights"): one row per event, with the contract's
-- location (URL, section, site space, space, page) and what the event kind carries (a search
-- query, a page rating). Visitors and sessions are kept only as hashes salted with a salt that
-- changes every day and is then forgotten (site_event_salts): no address or user agent is
-- stored, and yesterday's visitor cannot be linked to today's. occurred_unix and occurred_month
-- let every dialect bucket by hour, day, week and month with integer arithmetic.
CREATE TABLE site_events (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id           TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    event_type        TEXT NOT NULL,
    occurred_at       {{.Timestamp}} NOT NULL,
    occurred_unix     BIGINT NOT NULL,
    occurred_month    INTEGER NOT NULL,
    url               TEXT NOT NULL,
    display_context   TEXT NOT NULL,
    site_section      TEXT,
    site_space        TEXT,
    site_share_key    TEXT,
    space             TEXT,
    page              TEXT,
    visitor_hash      TEXT NOT NULL,
    session_hash      TEXT NOT NULL,
    referrer_domain   TEXT,
    search_query      TEXT,
    feedback_rating   TEXT
);
--bun:split
CREATE INDEX site_events_site_time ON site_events (site_id, occurred_unix);
--bun:split
CREATE TABLE site_event_salts (
    day  BIGINT PRIMARY KEY,
    salt TEXT NOT NULL
);
