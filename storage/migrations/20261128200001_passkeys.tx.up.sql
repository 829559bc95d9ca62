-- Passkeys (WebAuthn credentials): a person may hold several. Byte strings are kept base64url
-- encoded, so that both dialects store them alike.
CREATE TABLE passkeys (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    credential_id      TEXT NOT NULL UNIQUE,
    public_key         TEXT NOT NULL,
    sign_count         BIGINT NOT NULL,
    transports         TEXT NOT NULL,
    flags              INTEGER NOT NULL,
    aaguid             TEXT NOT NULL,
    attestation_format TEXT NOT NULL,
    name               TEXT NOT NULL,
    created_at         {{.Timestamp}} NOT NULL,
    last_used_at       {{.Timestamp}}
);
--bun:split
CREATE INDEX passkeys_user_id ON passkeys (user_id);
--bun:split
-- A ceremony in progress (registration or sign-in): its challenge, kept server-side under the hash
-- of a token the browser holds in a short-lived cookie, and deleted by the first finish.
CREATE TABLE passkey_ceremonies (
    token_hash TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    user_id    TEXT REFERENCES users (id) ON DELETE CASCADE,
    data       TEXT NOT NULL,
    expires_at {{.Timestamp}} NOT NULL
);
