-- Webhook endpoints an organization's admins register, and the log of what was delivered to them.
CREATE TABLE webhooks (
    id                   TEXT PRIMARY KEY,
    organization_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    url                  TEXT NOT NULL,
    description          TEXT NOT NULL,
    event_types          TEXT NOT NULL, -- JSON list; empty: every type
    secret               TEXT NOT NULL,
    previous_secret      TEXT,
    previous_expires_at  {{.Timestamp}},
    enabled              BOOLEAN NOT NULL,
    disabled_reason      TEXT,
    failing_since        {{.Timestamp}},
    created_by           TEXT,
    created_at           {{.Timestamp}} NOT NULL,
    updated_at           {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX webhooks_organization ON webhooks (organization_id);
--bun:split
CREATE TABLE webhook_deliveries (
    id                TEXT PRIMARY KEY,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    organization_id   TEXT NOT NULL,
    event_id          TEXT NOT NULL,
    event_seq         BIGINT NOT NULL,
    event_type        TEXT NOT NULL,
    object_id         TEXT NOT NULL,
    status            TEXT NOT NULL, -- pending, delivered, failed
    attempts          INTEGER NOT NULL,
    request_body      TEXT NOT NULL,
    response_status   INTEGER,
    response_excerpt  TEXT,
    error             TEXT,
    duration_ms       BIGINT,
    created_at        {{.Timestamp}} NOT NULL,
    attempted_at      {{.Timestamp}}
);
--bun:split
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);
--bun:split
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, object_id, event_seq);
--bun:split
-- The outbox position up to which events were turned into deliveries: one row, locked by the
-- server that dispatches, so that each event is dispatched once however many servers run.
CREATE TABLE event_cursors (
    name  TEXT PRIMARY KEY,
    seq   BIGINT NOT NULL
);
--bun:split
INSERT INTO event_cursors (name, seq) VALUES ('webhooks', 0);
