-- Recommended questions, written by the model in a job and kept per scope: an organization's
-- or a site's, for one set of spaces in reach (scope_key). fingerprint names the revisions the
-- questions were drawn from; pending_fingerprint those a queued job is drawing from.
CREATE TABLE recommended_questions (
    scope_key           TEXT PRIMARY KEY,
    organization_id     TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    fingerprint         TEXT NOT NULL DEFAULT '',
    pending_fingerprint TEXT NOT NULL DEFAULT '',
    questions           TEXT NOT NULL DEFAULT '[]',
    updated_at          {{.Timestamp}} NOT NULL
);
