-- Search over posting lists (docs/discovery.md, "How a search runs"). Every searchable term of a
-- site gets a row in search_postings, and one btree keeps each term's sites in organic order
-- (agentic_score descending, then the domain's hash, then the domain), so a search reads the
-- shortest list of its terms from the top and stops after the sites it needs. It replaces the GIN
-- search of migrations 0002-0003, whose cost grew with the number of matches.

-- The GIN search goes: its index, column and helper.
DROP INDEX "sites_search";--> statement-breakpoint
ALTER TABLE "sites" DROP COLUMN "facets";--> statement-breakpoint
DROP FUNCTION site_facets(text, text[], boolean, boolean, boolean, boolean, boolean, boolean, boolean);--> statement-breakpoint

-- Organic order breaks ties of agentic_score by a hash of the domain, not by its spelling: a name
-- chosen to sort first ("aaa-…") gains nothing, and sites named alike are not bunched together.
-- The domain itself decides between equal hashes, in byte order on every server whatever its
-- locale. The vector is rebuilt around the collation change (a generated column pins the type of
-- what it reads), now without positions: nothing ranks by them.
DROP INDEX "sites_score_order";--> statement-breakpoint
DROP INDEX "sites_category_score_order";--> statement-breakpoint
ALTER TABLE "sites" DROP COLUMN "search_vector";--> statement-breakpoint
ALTER TABLE "sites" ALTER COLUMN "domain" TYPE text COLLATE "C";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (strip(to_tsvector('english'::regconfig, name || ' ' || description) || to_tsvector('simple'::regconfig, translate(domain, '.-_', '   ')))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "organic_tiebreak" bigint GENERATED ALWAYS AS (('x' || left(encode(sha256("domain"::bytea), 'hex'), 16))::bit(64)::bigint) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "sites_score_order" ON "sites" USING btree ("agentic_score" DESC NULLS LAST,"organic_tiebreak","domain");--> statement-breakpoint
CREATE INDEX "sites_category_score_order" ON "sites" USING btree ("category","agentic_score" DESC NULLS LAST,"organic_tiebreak","domain");--> statement-breakpoint

CREATE TABLE "search_postings" (
	"audit" boolean NOT NULL,
	"term" text COLLATE "C" NOT NULL,
	"agentic_score" smallint NOT NULL,
	"organic_tiebreak" bigint NOT NULL,
	"domain" text COLLATE "C" NOT NULL,
	"signal_bits" smallint NOT NULL,
	"category" text NOT NULL,
	"signature_0" bigint NOT NULL,
	"signature_1" bigint NOT NULL,
	"signature_2" bigint NOT NULL,
	"signature_3" bigint NOT NULL
);--> statement-breakpoint
-- The audit-only buckets; they mirror AUDIT_ONLY_CATEGORIES in src/domain/sites/site-fields.ts.
CREATE FUNCTION search_is_audit(category text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT category IN ('other', 'spam') $$;--> statement-breakpoint

-- The four filterable signals as bits: has_structured_api 8, has_mcp_server 4, has_openapi 2,
-- has_llms_txt 1 (SIGNAL_BITS in src/domain/search/search-terms.ts).
CREATE FUNCTION search_signal_bits(has_structured_api boolean, has_mcp_server boolean, has_openapi boolean, has_llms_txt boolean) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT (CASE WHEN has_structured_api THEN 8 ELSE 0 END
		+ CASE WHEN has_mcp_server THEN 4 ELSE 0 END
		+ CASE WHEN has_openapi THEN 2 ELSE 0 END
		+ CASE WHEN has_llms_txt THEN 1 ELSE 0 END)::smallint
$$;--> statement-breakpoint

-- The items a signature holds: each lexeme's prefixes of 3 to 6 letters (a shorter lexeme whole),
-- and each tag behind '#'. The items of a query word (search_query_items) are then among the items
-- of every site it matches, so a signature never rules out a match.
CREATE FUNCTION search_signature_items(vector tsvector, tags text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT array(
		SELECT CASE WHEN length(lexeme) < 3 THEN lexeme ELSE left(lexeme, size) END
		FROM unnest(vector) AS lexemes(lexeme), generate_series(3, 6) AS size
		WHERE size <= greatest(length(lexeme), 3)
		UNION ALL
		SELECT '#' || tag FROM unnest(tags) AS tag
	)
$$;--> statement-breakpoint

-- The items a query word requires, from its stem: its prefixes of 3 to 6 letters; a short word
-- matched exactly requires itself; a prefix shorter than 3 letters requires nothing.
CREATE FUNCTION search_query_items(stem text, prefix boolean) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT CASE
		WHEN length(stem) >= 3 THEN array(SELECT left(stem, size) FROM generate_series(3, least(length(stem), 6)) AS size)
		WHEN prefix THEN '{}'::text[]
		ELSE array[stem]
	END
$$;--> statement-breakpoint

-- A 256-bit Bloom signature of items, as four bigints: each item sets one bit in each part, taken
-- from successive 6-bit slices of its hash.
CREATE FUNCTION search_signature(items text[]) RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT array[
		coalesce(bit_or(1::bigint << (hash & 63)), 0),
		coalesce(bit_or(1::bigint << ((hash >> 6) & 63)), 0),
		coalesce(bit_or(1::bigint << ((hash >> 12) & 63)), 0),
		coalesce(bit_or(1::bigint << ((hash >> 18) & 63)), 0)
	]
	FROM (SELECT hashtext(item) AS hash FROM unnest(items) AS item) AS hashes
$$;--> statement-breakpoint

-- The terms a site is listed under.
CREATE FUNCTION search_terms(vector tsvector, tags text[], category text, signal_bits smallint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
	SELECT array(
		SELECT 'w:' || lexeme FROM unnest(vector) AS lexemes(lexeme)
		UNION SELECT 't:' || tag FROM unnest(tags) AS tag
		UNION SELECT 'c:' || category
		UNION SELECT 'p:' || signal_bits
	)
$$;--> statement-breakpoint

-- The postings of one site, as the trigger writes them and the backfill below. In PL/pgSQL so
-- that the signature is computed once per site, not once per posting.
CREATE FUNCTION search_postings_of(site sites) RETURNS SETOF search_postings
LANGUAGE plpgsql STABLE
AS $$
DECLARE
	bits smallint := search_signal_bits(site.has_structured_api, site.has_mcp_server, site.has_openapi, site.has_llms_txt);
	signature bigint[] := search_signature(search_signature_items(site.search_vector, site.tags));
BEGIN
	RETURN QUERY
		SELECT search_is_audit(site.category), term, site.agentic_score, site.organic_tiebreak, site.domain, bits, site.category,
			signature[1], signature[2], signature[3], signature[4]
		FROM unnest(search_terms(site.search_vector, site.tags, site.category, bits)) AS term;
END
$$;--> statement-breakpoint

-- Keeps search_postings in step with sites, in the statement that changes the site. An update
-- that changes nothing searchable (a recrawl with the same findings) writes nothing here.
CREATE FUNCTION search_postings_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	IF TG_OP = 'UPDATE' AND (OLD.domain, OLD.agentic_score, OLD.category, OLD.tags, OLD.search_vector,
		OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt)
		IS NOT DISTINCT FROM (NEW.domain, NEW.agentic_score, NEW.category, NEW.tags, NEW.search_vector,
		NEW.has_structured_api, NEW.has_mcp_server, NEW.has_openapi, NEW.has_llms_txt) THEN
		RETURN NULL;
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		DELETE FROM search_postings AS p
		WHERE p.audit = search_is_audit(OLD.category)
			AND p.term = ANY (search_terms(OLD.search_vector, OLD.tags, OLD.category,
				search_signal_bits(OLD.has_structured_api, OLD.has_mcp_server, OLD.has_openapi, OLD.has_llms_txt)))
			AND p.agentic_score = OLD.agentic_score
			AND p.organic_tiebreak = OLD.organic_tiebreak
			AND p.domain = OLD.domain;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO search_postings SELECT * FROM search_postings_of(NEW);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

INSERT INTO search_postings SELECT p.* FROM sites, LATERAL search_postings_of(sites) AS p;--> statement-breakpoint

-- Each term's list in organic order, with what a search checks on the way: the signal bits, the
-- category and the signature are read from the index alone.
CREATE INDEX "search_postings_list" ON "search_postings" ("audit", "term", "agentic_score" DESC, "organic_tiebreak", "domain") INCLUDE ("signal_bits", "category", "signature_0", "signature_1", "signature_2", "signature_3");--> statement-breakpoint
-- A search picks its shortest list from the planner's statistics of this column.
ALTER TABLE "search_postings" ALTER COLUMN "term" SET STATISTICS 2000;--> statement-breakpoint

CREATE TRIGGER "sites_search_postings" AFTER INSERT OR UPDATE OR DELETE ON "sites"
FOR EACH ROW EXECUTE FUNCTION search_postings_sync();--> statement-breakpoint

-- TRUNCATE fires no row trigger: the postings go with the sites.
CREATE FUNCTION search_postings_truncate() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	TRUNCATE search_postings;
	RETURN NULL;
END
$$;--> statement-breakpoint

CREATE TRIGGER "sites_search_postings_truncate" AFTER TRUNCATE ON "sites"
FOR EACH STATEMENT EXECUTE FUNCTION search_postings_truncate();
