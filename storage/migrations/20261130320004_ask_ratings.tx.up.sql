-- Ratings readers give the answers of a published site's Ask panel: the question, whether the
-- answer helped, and the pages it cited (JSON), for the site's insights.
CREATE TABLE ask_ratings (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    site_id         TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    question        TEXT NOT NULL,
    helpful         BOOLEAN NOT NULL,
    sources         TEXT NOT NULL,
    created_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX ask_ratings_site ON ask_ratings (site_id, created_at);
