-- The postings name their site by a 4-byte key instead of its domain (docs/discovery.md, "What the
-- index costs"). The domain, 31 bytes on average, was in every posting twice (row and list
-- index), about 14 postings per site, and served only to find the site again and to break ties
-- of (agentic_score, organic_tiebreak), which are 64-bit hash ties between different domains. The
-- columns are also ordered so that a row has no alignment padding. The table is rebuilt: a
-- search meanwhile waits for the migration's transaction, and finds the same sites after it.
ALTER TABLE "sites" ADD COLUMN "site_key" integer GENERATED ALWAYS AS IDENTITY NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_site_key_unique" UNIQUE("site_key");--> statement-breakpoint

DROP TRIGGER "sites_search_postings" ON "sites";--> statement-breakpoint
DROP FUNCTION search_postings_sync();--> statement-breakpoint
DROP FUNCTION search_postings_of(sites);--> statement-breakpoint
DROP TABLE "search_postings";--> statement-breakpoint

CREATE TABLE "search_postings" (
	"organic_tiebreak" bigint NOT NULL,
	"signature_0" bigint NOT NULL,
	"signature_1" bigint NOT NULL,
	"signature_2" bigint NOT NULL,
	"signature_3" bigint NOT NULL,
	"site_key" integer NOT NULL,
	"agentic_score" smallint NOT NULL,
	"signal_bits" smallint NOT NULL,
	"audit" boolean NOT NULL,
	"term" text COLLATE "C" NOT NULL,
	"category" text NOT NULL
);--> statement-breakpoint

-- The postings of one site, in the table's column order (as in migration 0005 otherwise).
CREATE FUNCTION search_postings_of(site sites) RETURNS SETOF search_postings
LANGUAGE plpgsql STABLE
AS $$
DECLARE
	bits smallint := search_signal_bits(site.has_structured_api, site.has_mcp_server, site.has_openapi, site.has_llms_txt);
	signature bigint[] := search_signature(search_signature_items(site.search_vector, site.tags));
BEGIN
	RETURN QUERY
		SELECT site.organic_tiebreak, signature[1], signature[2], signature[3], signature[4], site.site_key,
			site.agentic_score, bits, search_is_audit(site.category), term, site.category
		FROM unnest(search_terms(site.search_vector, site.tags, site.category, bits)) AS term;
END
$$;--> statement-breakpoint

-- Keeps search_postings in step with sites, in the statement that changes the site (as in
-- migration 0005, the old postings found by the site's key).
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
			AND p.site_key = OLD.site_key;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		INSERT INTO search_postings SELECT * FROM search_postings_of(NEW);
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

INSERT INTO search_postings SELECT p.* FROM sites, LATERAL search_postings_of(sites) AS p;--> statement-breakpoint

-- Each term's list in organic order, with what a search checks on the way (as in migration 0005).
CREATE INDEX "search_postings_list" ON "search_postings" ("audit", "term", "agentic_score" DESC, "organic_tiebreak", "site_key") INCLUDE ("signal_bits", "category", "signature_0", "signature_1", "signature_2", "signature_3");--> statement-breakpoint
ALTER TABLE "search_postings" ALTER COLUMN "term" SET STATISTICS 2000;--> statement-breakpoint

CREATE TRIGGER "sites_search_postings" AFTER INSERT OR UPDATE OR DELETE ON "sites"
FOR EACH ROW EXECUTE FUNCTION search_postings_sync();--> statement-breakpoint

ANALYZE search_postings;
