-- The event outbox: every committed change writes its event in the same transaction. seq is the
-- cursor subscribers read by (monotonic per database: on PostgreSQL, writers of events take
-- turns on a transaction lock, so seqs commit in order); id is the event's public id (a UUID),
-- for webhooks' de-duplication and the audit log.
CREATE TABLE events (
    seq                {{if eq .Dialect "postgres"}}BIGSERIAL{{else}}INTEGER{{end}} PRIMARY KEY,
    id                 TEXT NOT NULL UNIQUE,
    type               TEXT NOT NULL,
    organization_id    TEXT,
    space_id           TEXT,
    change_request_id  TEXT,
    comment_id         TEXT,
    site_id            TEXT,
    collection_id      TEXT,
    subject_user_id    TEXT,
    team_id            TEXT,
    revision_id        TEXT,
    target_type        TEXT NOT NULL,
    target_id          TEXT NOT NULL,
    target_label       TEXT NOT NULL,
    actor_type         TEXT NOT NULL,
    actor_id           TEXT NOT NULL,
    actor_label        TEXT NOT NULL,
    token_id           TEXT,
    source             TEXT NOT NULL,
    payload            TEXT NOT NULL,
    created_at         {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX events_organization_seq ON events (organization_id, seq);
--bun:split
CREATE INDEX events_created_at ON events (created_at);
