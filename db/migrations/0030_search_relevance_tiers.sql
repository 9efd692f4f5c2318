-- The relevance tiers read three fields, chosen on the relevance benchmark (docs/discovery.md,
-- "Relevance tiers"; docs/benchmarks.md, "Relevance"): the name, the tags and domain, and the
-- description's opening sentence, where a service most often says what it is for. One vector
-- holds them, weighted A, B and C, so that a tier check is one match of a weight-restricted
-- tsquery against one column (`'sms':*AB`: the name, tags or domain carry the word). It replaces
-- migration 0029's name_vector, which held the first two without telling them apart.
-- Hand-written: drizzle-kit has no functions.

-- The opening sentence of a description: up to its first full stop, question or exclamation mark,
-- at most 200 characters.
CREATE FUNCTION search_opening_sentence(description text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
	SELECT coalesce(substring(description from '^[^.!?]{0,200}'), '')
$$;--> statement-breakpoint

ALTER TABLE "sites" DROP COLUMN "name_vector";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "tier_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, search_text_words(name, '', '{}')), 'A') || setweight(to_tsvector('english'::regconfig, search_text_words('', '', tags)) || search_domain_vector(domain), 'B') || setweight(to_tsvector('english'::regconfig, search_text_words('', search_opening_sentence(description), '{}')), 'C')) STORED NOT NULL;
