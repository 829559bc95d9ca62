-- Git Sync. A space's sync set-up (JSON: url without credentials, ref, provider, project
-- directory, redirects, the timestamp of the last operation applied) sits on the space row, so
-- reading spaces costs nothing more. Revisions and files record the commit and blob they came
-- from or went to (JSON {oid, message, ref, url} and {oid, path}).
ALTER TABLE spaces ADD COLUMN git_sync TEXT;
--bun:split
ALTER TABLE revisions ADD COLUMN git TEXT;
--bun:split
ALTER TABLE file_versions ADD COLUMN git TEXT;
--bun:split
-- One row per import or export asked for. A job's credentials are kept only while it may still
-- run, encrypted with the server's key, and erased when it ends.
CREATE TABLE git_sync_jobs (
    id                  TEXT PRIMARY KEY,
    organization_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id            TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    -- import or export.
    operation           TEXT NOT NULL,
    -- queued, running, succeeded, failed, skipped.
    state               TEXT NOT NULL,
    error               TEXT,
    -- The request, credentials removed (JSON).
    request             TEXT NOT NULL,
    credentials         TEXT,
    -- The ordering timestamp: the request's, else the time it was asked for.
    ordered_at          {{.Timestamp}} NOT NULL,
    revision_id         TEXT,
    commit_oid          TEXT,
    created_by          TEXT REFERENCES users (id),
    created_at          {{.Timestamp}} NOT NULL,
    started_at          {{.Timestamp}},
    finished_at         {{.Timestamp}}
);
--bun:split
CREATE INDEX git_sync_jobs_space ON git_sync_jobs (space_id, created_at, id);
