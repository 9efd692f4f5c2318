-- Ranked retrieval (docs/discovery.md, "Ranking"): every word of a query is optional, and a site's
-- relevance is a BM25F score. Each word posting carries `impact`, the site's query-independent
-- BM25F weight for the term, quantised to 0-1000; the one list index reads every term's list in
-- impact order (then organic order), so that a search reads each of its words' lists from the
-- most relevant site down and stops as soon as no site further down can reach its page
-- (ranked-search.ts). Lists that are not words (tags, categories, signal patterns) have impact 0, so
-- the same index reads them in organic order, as before.
-- Hand-written below the column: drizzle-kit has no functions.
ALTER TABLE "search_postings" ADD COLUMN "impact" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint

-- The text of what a site's own agent documents say it does (migration 0036), as a vector.
CREATE FUNCTION search_capabilities_vector(site sites) RETURNS tsvector
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
	SELECT CASE WHEN site.capabilities_text = '' THEN ''::tsvector
		ELSE to_tsvector('english'::regconfig, search_text_words('', site.capabilities_text, '{}')) END
$$;--> statement-breakpoint

-- The words a site is listed under: those of its search vector (name, description, tags, domain),
-- of its capabilities and of its category's name.
CREATE FUNCTION search_word_vector(site sites) RETURNS tsvector
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
	SELECT site.search_vector || strip(search_capabilities_vector(site))
		|| strip(to_tsvector('english'::regconfig, translate(site.category, '-', ' ')))
$$;--> statement-breakpoint

-- A site's BM25F weight for each of its lexemes, 0-1000: per field, the term's frequency over
-- the field's length normalised by a typical length (b), times the field's weight, summed over
-- the fields and saturated (k1 = 1.2). The typical lengths are constants, not the index's
-- averages, so that a site's weights never change when other sites do. The name (weight A of the
-- tier vector), the tags with the domain's labels (B) and the description's opening sentence (C,
-- a small extra weight beside the whole description) are read off `tier_vector`, which keeps
-- their positions; the description, capabilities and category are stemmed here. (PL/pgSQL, so
-- that its plan is kept across the rows of a session rather than made per site.)
CREATE FUNCTION search_impacts(site sites) RETURNS TABLE(lexeme text, impact smallint)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
BEGIN
	RETURN QUERY
	WITH frequencies(field, weight, typical, b, lexeme, tf) AS (
		-- A tag or a domain label counts once, however many times the domain's two stemmings (simple
		-- and English) repeat it.
		SELECT CASE w.weight WHEN 'A' THEN 1 WHEN 'B' THEN 2 ELSE 6 END,
			CASE w.weight WHEN 'A' THEN 3.0 WHEN 'B' THEN 2.0 ELSE 0.5 END,
			CASE w.weight WHEN 'A' THEN 3.0 WHEN 'B' THEN 4.0 ELSE 10.0 END, 0.5, l.lexeme,
			CASE w.weight WHEN 'B' THEN 1 ELSE count(*) END
		FROM unnest(site.tier_vector) AS l(lexeme, positions, weights)
		CROSS JOIN LATERAL unnest(l.weights) AS w(weight)
		GROUP BY 1, 2, 3, 4, l.lexeme, w.weight
		UNION ALL
		SELECT f.field, f.weight, f.typical, f.b, l.lexeme, coalesce(array_length(l.positions, 1), 1)
		FROM (VALUES
			(3, 1.0, 1.0, 0.0, to_tsvector('english'::regconfig, translate(site.category, '-', ' '))),
			(4, 1.0, 25.0, 0.75, to_tsvector('english'::regconfig, search_text_words('', site.description, '{}'))),
			(5, 1.5, 40.0, 0.75, search_capabilities_vector(site))
		) AS f(field, weight, typical, b, vector)
		CROSS JOIN LATERAL unnest(f.vector) AS l(lexeme, positions, weights)
	),
	normalised AS (
		SELECT f.lexeme, f.weight * f.tf / (1 - f.b + f.b * sum(f.tf) OVER (PARTITION BY f.field) / f.typical) AS tf
		FROM frequencies AS f
	)
	SELECT n.lexeme, round(1000 * sum(n.tf) / (1.2 + sum(n.tf)))::smallint FROM normalised AS n GROUP BY n.lexeme;
END
$$;--> statement-breakpoint

-- A site's terms with their impact: a word's, its lexeme's weight (1 for a lexeme no single field
-- holds, as a spelling met across two fields); a beginning's, the highest of the site's lexemes it
-- stands for; other lists 0.
CREATE FUNCTION search_term_impacts(site sites, bits smallint) RETURNS TABLE(term text, impact smallint)
LANGUAGE plpgsql STABLE
AS $$
BEGIN
	RETURN QUERY
		WITH impacts AS MATERIALIZED (SELECT * FROM search_impacts(site))
		SELECT t.term, (CASE left(t.term, 2)
				WHEN 'w:' THEN coalesce(i.impact, 1)
				WHEN 'b:' THEN coalesce((SELECT max(x.impact) FROM impacts AS x WHERE starts_with(x.lexeme, substr(t.term, 3))), 1)
				ELSE 0
			END)::smallint
		FROM unnest(search_terms(search_word_vector(site), site.tags, site.category, bits)) AS t(term)
		LEFT JOIN impacts AS i ON left(t.term, 2) = 'w:' AND i.lexeme = substr(t.term, 3);
END
$$;--> statement-breakpoint

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
			), 0)::smallint,
			t.impact
		FROM search_term_impacts(site, bits) AS t;
END
$$;--> statement-breakpoint

-- A site's postings are rewritten when anything they hold changes (its capabilities too). The old
-- ones are deleted one by one by their whole key, impact included: each a probe of the list index.
CREATE OR REPLACE FUNCTION search_postings_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
	old_term text;
	old_impact smallint;
	old_audit boolean;
BEGIN
	IF TG_OP = 'UPDATE' AND (OLD.domain, OLD.agentic_score, OLD.category, OLD.tags, OLD.search_vector, OLD.tier_vector,
		OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt, OLD.name, OLD.description,
		OLD.capabilities_text)
		IS NOT DISTINCT FROM (NEW.domain, NEW.agentic_score, NEW.category, NEW.tags, NEW.search_vector, NEW.tier_vector,
		NEW.has_structured_api, NEW.has_mcp_server, NEW.has_openapi, NEW.has_llms_txt, NEW.name, NEW.description,
		NEW.capabilities_text) THEN
		RETURN NULL;
	END IF;
	IF current_setting('transaction_isolation') <> 'read committed' THEN
		RAISE EXCEPTION 'sites are written in READ COMMITTED transactions only (the search index depends on it)'
			USING ERRCODE = 'feature_not_supported';
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		old_audit := search_is_audit(OLD.category);
		FOR old_term, old_impact IN
			SELECT * FROM search_term_impacts(OLD,
				search_signal_bits(OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt))
		LOOP
			DELETE FROM search_postings AS p
			WHERE p.audit = old_audit AND p.term = old_term AND p.impact = old_impact
				AND p.agentic_score = OLD.agentic_score AND p.organic_tiebreak = OLD.organic_tiebreak
				AND p.site_key = OLD.site_key;
		END LOOP;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO search_postings SELECT * FROM search_postings_of(NEW);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

-- A registered beginning's list: one posting a site, its impact the highest of the site's
-- lexemes in the beginning's range (as search_postings_of writes it).
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
			p.agentic_score, p.signal_bits, p.audit, 'b:' || NEW.beginning, p.category, bit_or(p.tier_fields)::smallint,
			max(p.impact)::smallint
		FROM search_postings AS p
		WHERE p.audit = ANY (ARRAY[false, true])
			AND p.term >= 'w:' || NEW.beginning
			AND p.term < 'w:' || NEW.beginning || U&'\+10FFFF'
		GROUP BY p.audit, p.site_key, p.organic_tiebreak, p.signature_0, p.signature_1, p.signature_2, p.signature_3,
			p.agentic_score, p.signal_bits, p.category;
	ELSE
		DELETE FROM search_postings AS p
		WHERE p.audit = ANY (ARRAY[false, true]) AND p.term = 'b:' || OLD.beginning;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

-- The closest lexeme of the index to a word it does not hold: of the words one edit away from it
-- (a letter or digit deleted, inserted, replaced, or two neighbours swapped), stemmed, those with
-- a list, the longest list first (counted up to 1,000), then byte order. Null when none has one.
CREATE FUNCTION search_correction(word text, audit boolean) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
	WITH characters(c) AS (
		SELECT chr(code) FROM generate_series(97, 122) AS code UNION ALL SELECT chr(code) FROM generate_series(48, 57) AS code
	),
	places(i) AS (SELECT generate_series(0, char_length(word))),
	variants(variant) AS (
		SELECT left(word, i) || substr(word, i + 2) FROM places WHERE i < char_length(word)
		UNION SELECT left(word, i) || substr(word, i + 2, 1) || substr(word, i + 1, 1) || substr(word, i + 3)
			FROM places WHERE i < char_length(word) - 1
		UNION SELECT left(word, i) || c || substr(word, i + 2) FROM places, characters WHERE i < char_length(word)
		UNION SELECT left(word, i) || c || substr(word, i + 1) FROM places, characters
	),
	lexemes AS (
		SELECT DISTINCT v.lexeme FROM variants, unnest(to_tsvector('english'::regconfig, variant)) AS v(lexeme)
	)
	SELECT l.lexeme FROM lexemes AS l
	CROSS JOIN LATERAL (
		SELECT count(*) AS sites FROM (
			SELECT 1 FROM search_postings AS p WHERE p.audit = search_correction.audit AND p.term = 'w:' || l.lexeme LIMIT 1000
		) AS listed
	) AS n
	WHERE n.sites > 0
	ORDER BY n.sites DESC, l.lexeme COLLATE "C"
	LIMIT 1
$$;--> statement-breakpoint

-- Every site's postings are rewritten with their impact, and the one list index reads each list
-- in impact order (organic order among equal impacts, and so for every list that is not a word's);
-- `npm run migrate -- --direct` at scale, as for migration 0035.
DROP INDEX "search_postings_list";--> statement-breakpoint
TRUNCATE search_postings;--> statement-breakpoint
INSERT INTO search_postings SELECT p.* FROM sites, LATERAL search_postings_of(sites) AS p;--> statement-breakpoint
CREATE INDEX "search_postings_list" ON "search_postings" ("audit", "term", "impact" DESC, "agentic_score" DESC, "organic_tiebreak", "site_key") INCLUDE ("signal_bits", "category", "signature_0", "signature_1", "signature_2", "signature_3", "tier_fields");--> statement-breakpoint
ANALYZE search_postings;
