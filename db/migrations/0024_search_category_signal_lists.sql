-- A category's sites are listed per signal pattern, `c:<category>:<signal bits>`, in place of one
-- list per category (docs/discovery.md, "How a search runs"). A search with a category and flags
-- then reads only the lists of the patterns its flags allow, as long as that pair is rare, where
-- one category list walked with a flag check read every site of the category (80,000 entries for
-- 620 matches at 1,000,000 sites). A category alone reads its 16 lists merged, as the signal
-- lists are. The index keeps the same number of postings.
CREATE OR REPLACE FUNCTION search_terms(vector tsvector, tags text[], category text, signal_bits smallint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT array(
		SELECT 'w:' || lexeme FROM unnest(vector) AS lexemes(lexeme)
		UNION SELECT 't:' || tag FROM unnest(tags) AS tag
		UNION SELECT 'c:' || category || ':' || signal_bits
		UNION SELECT 'p:' || signal_bits
	)
$$;--> statement-breakpoint

-- Every category posting gets its pattern, which each posting already holds ('c:' to 'c;' is the
-- range of the category terms in byte order).
UPDATE search_postings SET term = term || ':' || signal_bits WHERE term >= 'c:' AND term < 'c;';--> statement-breakpoint

-- A search picks its shortest list from these statistics: the new terms need them at once.
ANALYZE search_postings;
