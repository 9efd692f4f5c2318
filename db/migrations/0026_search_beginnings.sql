CREATE TABLE "search_beginnings" (
	"beginning" text PRIMARY KEY NOT NULL,
	"registered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_beginnings_length" CHECK (char_length("search_beginnings"."beginning") between 3 and 8)
);
--> statement-breakpoint

-- A word's terms gain `b:<beginning>` for every registered beginning one of its lexemes starts
-- with (docs/discovery.md, "Wide beginnings"). A lexeme's beginnings are its first 3 to 8
-- letters, looked up in the table, so the cost per site does not grow with the number of
-- beginnings. Reading a table makes the function STABLE: a site's terms now depend on the
-- registered beginnings, which change only under the lock taken below.
CREATE OR REPLACE FUNCTION search_terms(vector tsvector, tags text[], category text, signal_bits smallint) RETURNS text[]
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
	SELECT array(
		SELECT 'w:' || lexeme FROM unnest(vector) AS lexemes(lexeme)
		UNION SELECT 't:' || tag FROM unnest(tags) AS tag
		UNION SELECT 'c:' || category || ':' || signal_bits
		UNION SELECT 'p:' || signal_bits
		UNION SELECT 'b:' || b.beginning
			FROM unnest(vector) AS lexemes(lexeme)
			CROSS JOIN LATERAL generate_series(3, least(char_length(lexemes.lexeme), 8)) AS lengths(length)
			JOIN search_beginnings AS b ON b.beginning = left(lexemes.lexeme, lengths.length)
	)
$$;--> statement-breakpoint

-- The trigger on sites deletes a site's old postings by recomputing its terms, registered
-- beginnings included: that is exact only when the site's writer sees the beginnings as they
-- were when the postings were written. A registration waits for every writer of sites and holds
-- the next ones off until it commits (below), and a writer in READ COMMITTED takes its snapshot
-- after that wait. One in REPEATABLE READ may hold an older snapshot, so it is refused.
CREATE OR REPLACE FUNCTION search_postings_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND (OLD.domain, OLD.agentic_score, OLD.category, OLD.tags, OLD.search_vector,
		OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt)
		IS NOT DISTINCT FROM (NEW.domain, NEW.agentic_score, NEW.category, NEW.tags, NEW.search_vector,
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

-- Registering a beginning writes its list; unregistering deletes it, in the same transaction.
-- The SHARE lock on sites waits for every transaction writing sites and holds new writers off
-- until this one commits (searches read on), so the list is exactly the sites of that moment and
-- every later write of a site sees the beginning. The list is copied from the postings of the
-- lexemes in the beginning's range, which carry everything a posting holds but the term.
CREATE FUNCTION search_beginnings_lists() RETURNS trigger
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
		SELECT DISTINCT ON (p.audit, p.site_key)
			p.organic_tiebreak, p.signature_0, p.signature_1, p.signature_2, p.signature_3, p.site_key,
			p.agentic_score, p.signal_bits, p.audit, 'b:' || NEW.beginning, p.category
		FROM search_postings AS p
		WHERE p.audit = ANY (ARRAY[false, true])
			AND p.term >= 'w:' || NEW.beginning
			AND p.term < 'w:' || NEW.beginning || U&'\+10FFFF'
		ORDER BY p.audit, p.site_key;
	ELSE
		DELETE FROM search_postings AS p
		WHERE p.audit = ANY (ARRAY[false, true]) AND p.term = 'b:' || OLD.beginning;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

CREATE TRIGGER "search_beginnings_lists" AFTER INSERT OR UPDATE OR DELETE ON "search_beginnings"
FOR EACH ROW EXECUTE FUNCTION search_beginnings_lists();--> statement-breakpoint

-- TRUNCATE fires no row trigger: it would leave the lists behind.
CREATE FUNCTION search_beginnings_truncate() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	RAISE EXCEPTION 'search beginnings are unregistered by DELETE, which deletes their lists'
		USING ERRCODE = 'feature_not_supported';
END
$$;--> statement-breakpoint

CREATE TRIGGER "search_beginnings_truncate" BEFORE TRUNCATE ON "search_beginnings"
FOR EACH STATEMENT EXECUTE FUNCTION search_beginnings_truncate();
--> statement-breakpoint

-- An index-only read of a list visits the table for every entry on a page vacuum has not yet
-- marked all-visible. Registering a beginning appends its whole list at once (50,000 postings
-- for a brand-like beginning at 1,000,000 sites), and autovacuum's default waits for inserts of
-- a fifth of the table (2.8 million postings) before it passes: at a hundredth it passes soon
-- after, and after a busy spell of crawls as well.
ALTER TABLE search_postings SET (autovacuum_vacuum_insert_scale_factor = 0.01);
