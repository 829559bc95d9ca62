-- A webhook an integration installation registers through its token: it receives the events of
-- the spaces the installation is on, and goes when the installation does.
ALTER TABLE webhooks ADD COLUMN installation_id TEXT REFERENCES integration_installations (id) ON DELETE CASCADE;
--bun:split
CREATE INDEX webhooks_installation ON webhooks (installation_id);
