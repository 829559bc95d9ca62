-- How a browser session signed in ("password", "passkey", "oidc", …): organizations that enforce
-- single sign-on admit only sessions that came through it.
ALTER TABLE sessions ADD COLUMN method TEXT NOT NULL DEFAULT '';
--bun:split
-- An organization's mapping of an identity provider's claim to its members' roles, applied at
-- each single sign-on (kept apart from organizations, whose row every request reads).
CREATE TABLE organization_sso_roles (
    organization_id TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    claim           TEXT NOT NULL,
    roles           TEXT NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
-- The identity provider's stable subject for an account: people are matched by it first, so that
-- a changed or reassigned e-mail address at the provider cannot sign in as someone else.
CREATE TABLE user_identities (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at {{.Timestamp}} NOT NULL,
    PRIMARY KEY (issuer, subject)
);
--bun:split
CREATE INDEX user_identities_user_id ON user_identities (user_id);
--bun:split
-- An organization's SAML identity providers: members sign in through them at
-- /auth/saml/{id}/start, and join with the provider's default role and team.
CREATE TABLE saml_providers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    certificate     TEXT NOT NULL,
    sso_url         TEXT NOT NULL,
    default_team_id TEXT,
    default_role    TEXT,
    created_at      {{.Timestamp}} NOT NULL,
    updated_at      {{.Timestamp}} NOT NULL
);
--bun:split
CREATE INDEX saml_providers_organization ON saml_providers (organization_id, created_at, id);
