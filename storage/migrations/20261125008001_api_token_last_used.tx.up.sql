ALTER TABLE api_tokens ADD COLUMN last_used_at {{.Timestamp}};
