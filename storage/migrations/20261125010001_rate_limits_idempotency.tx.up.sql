-- Rate-limit counts shared by every server on this database (docs/security.md): one row per limit
-- key (a token or a client address, prefixed by the limit's name) and window, whose start and
-- expiry are Unix seconds. Expired rows are purged by the periodic purge job.
CREATE TABLE rate_limit_counters (
    counter_key  TEXT   NOT NULL,
    window_start BIGINT NOT NULL,
    hits         BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    PRIMARY KEY (counter_key, window_start)
);
--bun:split
CREATE INDEX rate_limit_counters_expires_at ON rate_limit_counters (expires_at);
--bun:split
-- Idempotency keys of POST requests: the caller's key, scoped by its token, with a fingerprint of
-- the request and, once it has run, its answer (status NULL while it runs).
CREATE TABLE idempotency_keys (
    scope           TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint     TEXT NOT NULL,
    status          INTEGER,
    header          TEXT,
    body            {{if eq .Dialect "postgres"}}BYTEA{{else}}BLOB{{end}},
    created_at      {{.Timestamp}} NOT NULL,
    locked_until    {{.Timestamp}} NOT NULL,
    expires_at      {{.Timestamp}} NOT NULL,
    PRIMARY KEY (scope, idempotency_key)
);
--bun:split
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
