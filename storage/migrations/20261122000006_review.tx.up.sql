-- Review and discussion: comments (and their replies) on a space or on one of its change
-- requests, emoji reactions, requested reviewers and submitted reviews. Reply counts, repliers and
-- comment counters are computed on read, so nothing here can drift.
CREATE TABLE comments (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    -- NULL for the space's own discussion.
    change_request_id TEXT REFERENCES change_requests (id) ON DELETE CASCADE,
    -- NULL for a comment; the comment a reply answers.
    parent_id         TEXT REFERENCES comments (id) ON DELETE CASCADE,
    review_id         TEXT,
    revision_id       TEXT NOT NULL,
    page_id           TEXT,
    node_id           TEXT,
    table_record      TEXT,
    table_definition  TEXT,
    -- markdown, document (JSON) or empty.
    body_kind         TEXT NOT NULL,
    body              TEXT NOT NULL,
    posted_by         TEXT NOT NULL REFERENCES users (id),
    posted_at         {{.Timestamp}} NOT NULL,
    edited_at         {{.Timestamp}},
    status            TEXT NOT NULL,
    resolved_at       {{.Timestamp}},
    resolved_by       TEXT REFERENCES users (id)
);
--bun:split
CREATE INDEX comments_thread ON comments (space_id, change_request_id, posted_at, id);
--bun:split
CREATE INDEX comments_parent ON comments (parent_id, posted_at, id);
--bun:split
CREATE INDEX comments_change_request ON comments (change_request_id);
--bun:split
CREATE TABLE comment_reactions (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    comment_id      TEXT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id),
    emoji           TEXT NOT NULL,
    reacted_at      {{.Timestamp}} NOT NULL,
    PRIMARY KEY (comment_id, user_id, emoji)
);
--bun:split
CREATE TABLE change_request_reviewers (
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id),
    requested_by      TEXT NOT NULL REFERENCES users (id),
    revision_id       TEXT NOT NULL,
    created_at        {{.Timestamp}} NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
);
--bun:split
CREATE TABLE change_request_reviews (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    reviewer_id       TEXT NOT NULL REFERENCES users (id),
    requested_by      TEXT REFERENCES users (id),
    status            TEXT NOT NULL,
    revision_id       TEXT NOT NULL,
    comment_id        TEXT,
    created_at        {{.Timestamp}} NOT NULL,
    updated_at        {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX change_request_reviews_cr ON change_request_reviews (change_request_id, created_at, id);
