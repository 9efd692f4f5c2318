-- Search ranks by relevance tiers, readiness within them (docs/discovery.md, "Relevance tiers"),
-- and finds words as agents type them. Hand-written: drizzle-kit has no functions.

-- The canonical spelling of each variant a text uses, as words to append to it: "e-mail" adds
-- "email", "text message" adds "sms". The text keeps its own words, so "mail" and "text" still
-- find it. The query side (src/domain/search/spellings.ts) rewrites a query's variants to the
-- same canonical words; test/unit/search-spellings.test.ts checks that both agree.
CREATE FUNCTION search_spellings(words text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
	SELECT ''
		|| CASE WHEN words ~* '(^|[^[:alnum:]])e[-[:space:]]+mail' THEN ' email' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])sign[-[:space:]]+up($|[^[:alnum:]])' THEN ' signup' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])sign[-[:space:]]+in($|[^[:alnum:]])' THEN ' signin' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])log[-[:space:]]+in($|[^[:alnum:]])' THEN ' login' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])web[-[:space:]]+hook' THEN ' webhook' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])text[-[:space:]]+messag' THEN ' sms' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])e[-[:space:]]+commerce' THEN ' ecommerce' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])chat[-[:space:]]+bot' THEN ' chatbot' ELSE '' END
		|| CASE WHEN words ~* '(^|[^[:alnum:]])real[-[:space:]]+time($|[^[:alnum:]])' THEN ' realtime' ELSE '' END
$$;--> statement-breakpoint

-- The text of a site's words: name, description and its tags split at hyphens, then the
-- canonical spellings of what they say.
CREATE FUNCTION search_text_words(name text, description text, tags text[]) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
	SELECT name || ' ' || description || ' ' || words.tag_words || search_spellings(name || ' ' || description || ' ' || words.tag_words)
	FROM (SELECT coalesce((SELECT string_agg(translate(tag, '-', ' '), ' ') FROM unnest(tags) AS tag), '') AS tag_words) AS words
$$;--> statement-breakpoint

-- A domain's labels as words both as they are spelt (`weather.example` by "weather") and stemmed
-- as English like every other word (`happy.example` by "happy", whose stem is "happi").
CREATE FUNCTION search_domain_vector(domain text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
	SELECT to_tsvector('simple'::regconfig, search_domain_words(domain))
		|| to_tsvector('english'::regconfig, search_domain_words(domain))
$$;--> statement-breakpoint

-- Postgres 15 cannot change a generated column's expression: the column is rebuilt, which fires
-- no trigger, so every site's postings are rewritten below (3–4 minutes at 1,000,000 sites,
-- holding writes of sites off meanwhile).
ALTER TABLE "sites" DROP COLUMN "search_vector";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (strip(to_tsvector('english'::regconfig, search_text_words(name, description, tags)) || search_domain_vector(domain))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "name_vector" "tsvector" GENERATED ALWAYS AS (strip(to_tsvector('english'::regconfig, search_text_words(name, '', tags)) || search_domain_vector(domain))) STORED NOT NULL;--> statement-breakpoint

DELETE FROM search_postings;--> statement-breakpoint
INSERT INTO search_postings SELECT p.* FROM sites, LATERAL search_postings_of(sites) AS p;
