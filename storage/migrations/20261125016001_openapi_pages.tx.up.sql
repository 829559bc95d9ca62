-- API-reference pages: a page computed from an OpenAPI specification keeps its source (JSON:
-- the contract's ComputedContentSourceDocument, with the specification version it pins).
ALTER TABLE page_versions ADD COLUMN computed TEXT;
--bun:split
-- Multi-file specifications: the files the document references by relative $ref (JSON object:
-- path relative to the document → the file as fetched). NULL for a single-file document.
ALTER TABLE openapi_spec_versions ADD COLUMN files TEXT;
