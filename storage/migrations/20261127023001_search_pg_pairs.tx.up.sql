-- PostgreSQL: a GIN index of each page's adjacent-word pairs, so that a phrase is matched
-- through the pages holding its words side by side rather than every page holding its words.
-- GIN keeps no positions: `tsv @@ 'palomo <-> rukezesa'` took every page holding both words
-- from the words' index and rechecked each on the heap (18,925 candidates, 13,000 buffers, for
-- 484 matches in a space of 100,000 pages). search_pairs pairs the lexemes at neighbouring
-- positions of a tsvector into one token ('palomo rukezesa'; lexemes hold no space), and
-- search_phrase_pairs gives the pairs a phrase must hold (the adjacent lexemes of its own
-- tsvector, the same analyser), or NULL when it has none (stop words between every two words):
-- every page matching the phrase holds its pairs, so the pair condition beside the exact
-- `tsv @@ phrase` changes no result (storage/search_query.go, pgMatch). The index holds the
-- organization and the space beside the pairs (btree_gin), as the words' index does. Its cost:
-- about 187 MB for 200,000 pages of ~60 words (the words' index: 38 MB), 70 s to build on them,
-- and ~0.5 ms more per page written. SQLite's FTS5 index keeps positions: nothing to do.
{{if eq .Dialect "postgres"}}
CREATE OR REPLACE FUNCTION search_pairs(v tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT coalesce(array_to_tsvector(array_agg(DISTINCT a.lexeme || ' ' || b.lexeme)), ''::tsvector)
FROM (SELECT u.lexeme, unnest(u.positions) AS pos FROM unnest(v) AS u) AS a
JOIN (SELECT u.lexeme, unnest(u.positions) AS pos FROM unnest(v) AS u) AS b ON b.pos = a.pos + 1
$$;
--bun:split
CREATE OR REPLACE FUNCTION search_phrase_pairs(phrase text) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT string_agg('''' || replace(replace(p, '\', '\\'), '''', '''''') || '''', ' & ')::tsquery
FROM unnest(tsvector_to_array(search_pairs(to_tsvector('english', phrase)))) AS p
$$;
--bun:split
CREATE INDEX search_pages_space_pairs ON search_pages USING GIN (organization_id, space_id, search_pairs(tsv));
{{else}}
SELECT 1;
{{end}}
