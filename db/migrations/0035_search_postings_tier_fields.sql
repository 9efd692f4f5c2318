-- Each posting says where its site carries the term, for the relevance tiers (docs/discovery.md,
-- "Relevance tiers"): a search whose one word drives its lists reads every match's tier from the
-- postings it already reads, instead of fetching each match's site for its tier vector (at most
-- 1,001 rows of `sites`, most of the time of a search of a common word at 1,000,000 sites).
-- Hand-written below the column: drizzle-kit has no functions.
ALTER TABLE "search_postings" ADD COLUMN "tier_fields" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint

-- The fields of a tier vector's lexemes: 1 the name (weight A), 2 the tags or domain (B), 4 the
-- description's opening sentence (C), or-ed over the lexeme's positions.
CREATE FUNCTION search_tier_fields(vector tsvector) RETURNS TABLE(lexeme text, fields smallint)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
	SELECT l.lexeme, bit_or(CASE w.weight WHEN 'A' THEN 1 WHEN 'B' THEN 2 WHEN 'C' THEN 4 ELSE 0 END)::smallint
	FROM unnest(vector) AS l(lexeme, positions, weights)
	CROSS JOIN LATERAL unnest(l.weights) AS w(weight)
	GROUP BY l.lexeme
$$;--> statement-breakpoint

-- A site's postings gain their fields: a word's, those of its lexeme; a beginning's, those of
-- every lexeme of the site that begins with it (the lexemes its list stands for); other lists 0.
CREATE OR REPLACE FUNCTION search_postings_of(site sites) RETURNS SETOF search_postings
LANGUAGE plpgsql STABLE
AS $$
DECLARE
	bits smallint := search_signal_bits(site.has_structured_api, site.has_mcp_server, site.has_openapi, site.has_llms_txt);
	signature bigint[] := search_signature(search_signature_items(site.search_vector, site.tags));
BEGIN
	RETURN QUERY
		WITH tiers AS MATERIALIZED (SELECT * FROM search_tier_fields(site.tier_vector))
		SELECT site.organic_tiebreak, signature[1], signature[2], signature[3], signature[4], site.site_key,
			site.agentic_score, bits, search_is_audit(site.category), t.term, site.category,
			coalesce((
				SELECT bit_or(tiers.fields) FROM tiers
				WHERE CASE left(t.term, 2)
					WHEN 'w:' THEN tiers.lexeme = substr(t.term, 3)
					WHEN 'b:' THEN left(tiers.lexeme, char_length(t.term) - 2) = substr(t.term, 3)
					ELSE false
				END
			), 0)::smallint
		FROM unnest(search_terms(site.search_vector, site.tags, site.category, bits)) AS t(term);
END
$$;--> statement-breakpoint

-- A site's postings are rewritten when its tier vector changes too: a description can keep its
-- words and change its opening sentence.
CREATE OR REPLACE FUNCTION search_postings_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND (OLD.domain, OLD.agentic_score, OLD.category, OLD.tags, OLD.search_vector, OLD.tier_vector,
		OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt)
		IS NOT DISTINCT FROM (NEW.domain, NEW.agentic_score, NEW.category, NEW.tags, NEW.search_vector, NEW.tier_vector,
		NEW.has_structured_api, NEW.has_mcp_server, NEW.has_openapi, NEW.has_llms_txt) THEN
		RETURN NULL;
	END IF;
	IF current_setting('transaction_isolation') <> 'read committed' THEN
		RAISE EXCEPTION 'sites are written in READ COMMITTED transactions only (the search index depends on it)'
			USING ERRCODE = 'feature_not_supported';
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		DELETE FROM search_postings AS p
		WHERE p.audit = search_is_audit(OLD.category)
			AND p.term = ANY (search_terms(OLD.search_vector, OLD.tags, OLD.category,
				search_signal_bits(OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt)))
			AND p.agentic_score = OLD.agentic_score
			AND p.organic_tiebreak = OLD.organic_tiebreak
			AND p.site_key = OLD.site_key;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO search_postings SELECT * FROM search_postings_of(NEW);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

-- A registered beginning's list: one posting a site, its fields those of all the site's lexemes
-- in the beginning's range (as search_postings_of writes it).
CREATE OR REPLACE FUNCTION search_beginnings_lists() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		RAISE EXCEPTION 'a search beginning is registered or unregistered, never changed'
			USING ERRCODE = 'feature_not_supported';
	END IF;
	LOCK TABLE sites IN SHARE MODE;
	IF TG_OP = 'INSERT' THEN
		INSERT INTO search_postings
		SELECT p.organic_tiebreak, p.signature_0, p.signature_1, p.signature_2, p.signature_3, p.site_key,
			p.agentic_score, p.signal_bits, p.audit, 'b:' || NEW.beginning, p.category, bit_or(p.tier_fields)::smallint
		FROM search_postings AS p
		WHERE p.audit = ANY (ARRAY[false, true])
			AND p.term >= 'w:' || NEW.beginning
			AND p.term < 'w:' || NEW.beginning || U&'\+10FFFF'
		-- Everything but the term and the fields is the site's own: one group a site.
		GROUP BY p.audit, p.site_key, p.organic_tiebreak, p.signature_0, p.signature_1, p.signature_2, p.signature_3,
			p.agentic_score, p.signal_bits, p.category;
	ELSE
		DELETE FROM search_postings AS p
		WHERE p.audit = ANY (ARRAY[false, true]) AND p.term = 'b:' || OLD.beginning;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

-- Every site's postings are rewritten with their fields (at most 8.5 minutes at 1,000,000 sites
-- on a 2-core machine, holding writes of sites off meanwhile: longer than an HTTP request may
-- wait, so `npm run migrate -- --direct`), and the list index carries the fields, so that reading
-- them stays an index-only scan.
DROP INDEX "search_postings_list";--> statement-breakpoint
TRUNCATE search_postings;--> statement-breakpoint
INSERT INTO search_postings SELECT p.* FROM sites, LATERAL search_postings_of(sites) AS p;--> statement-breakpoint
CREATE INDEX "search_postings_list" ON "search_postings" ("audit", "term", "agentic_score" DESC, "organic_tiebreak", "site_key") INCLUDE ("signal_bits", "category", "signature_0", "signature_1", "signature_2", "signature_3", "tier_fields");--> statement-breakpoint
ANALYZE search_postings;
