-- Accounts: people sign in with a password and hold browser sessions. Only hashes are kept: the
-- password's (argon2id, encoded with its parameters), a session's id, a one-time link's token.
CREATE TABLE user_passwords (
    user_id    TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    hash       TEXT NOT NULL,
    updated_at {{.Timestamp}} NOT NULL
);
--bun:split
CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   {{.Timestamp}} NOT NULL,
    last_seen_at {{.Timestamp}} NOT NULL,
    expires_at   {{.Timestamp}} NOT NULL,
    user_agent   TEXT NOT NULL,
    address      TEXT NOT NULL
);
--bun:split
CREATE INDEX sessions_user_id ON sessions (user_id);
--bun:split
-- One-time links: set-up (first start) and password reset. Used once, then kept with used_at so
-- that a second use is told apart from a forged link only in the log.
CREATE TABLE account_links (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at {{.Timestamp}} NOT NULL,
    expires_at {{.Timestamp}} NOT NULL,
    used_at    {{.Timestamp}}
);
--bun:split
CREATE INDEX account_links_user_id ON account_links (user_id);
