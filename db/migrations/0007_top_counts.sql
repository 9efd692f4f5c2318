-- The top list at any size (docs/discovery.md, "Top, categories and stats"). Its exact `total`
-- counted the matching sites on every cache miss (0.4-1.3 s at 1,000,000 sites), and its list
-- walked the score index past every site the filters refuse (seconds for a pattern that sits at
-- low scores). Now the count is kept per (category, signal pattern) by triggers, and the list
-- reads each allowed pattern's own range of an index, where every entry is a match.

-- How many sites each (category, signal pattern) holds, split into slots by writer backend so
-- that concurrent writers of the same key rarely wait for each other (db/schema/site-counts.ts).
CREATE TABLE "site_counts" (
	"category" text NOT NULL,
	"signal_bits" smallint NOT NULL,
	"slot" smallint NOT NULL,
	"site_count" bigint NOT NULL,
	CONSTRAINT "site_counts_pk" PRIMARY KEY("category","signal_bits","slot")
);--> statement-breakpoint

-- Applies the net change of one statement on sites, one row per key that changed, in key order
-- (so two statements lock their rows in the same order and cannot deadlock each other). An update
-- that moves no site between keys (a recrawl, a new score) nets to nothing and writes nothing.
CREATE FUNCTION site_counts_sync() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	IF TG_OP = 'INSERT' THEN
		INSERT INTO site_counts AS c (category, signal_bits, slot, site_count)
		SELECT category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt) AS bits,
			(pg_backend_pid() % 16)::smallint, count(*)
		FROM new_sites GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT (category, signal_bits, slot) DO UPDATE SET site_count = c.site_count + excluded.site_count;
	ELSIF TG_OP = 'DELETE' THEN
		INSERT INTO site_counts AS c (category, signal_bits, slot, site_count)
		SELECT category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt) AS bits,
			(pg_backend_pid() % 16)::smallint, -count(*)
		FROM old_sites GROUP BY 1, 2 ORDER BY 1, 2
		ON CONFLICT (category, signal_bits, slot) DO UPDATE SET site_count = c.site_count + excluded.site_count;
	ELSE
		INSERT INTO site_counts AS c (category, signal_bits, slot, site_count)
		SELECT category, bits, (pg_backend_pid() % 16)::smallint, sum(change)
		FROM (
			SELECT category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt) AS bits, 1 AS change
			FROM new_sites
			UNION ALL
			SELECT category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt), -1
			FROM old_sites
		) AS changes
		GROUP BY 1, 2 HAVING sum(change) <> 0 ORDER BY 1, 2
		ON CONFLICT (category, signal_bits, slot) DO UPDATE SET site_count = c.site_count + excluded.site_count;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint

-- A trigger with transition tables fires for one kind of event: one per kind. An upsert fires the
-- insert trigger for the rows it inserted and the update trigger for those it updated.
CREATE TRIGGER "sites_counts_insert" AFTER INSERT ON "sites"
REFERENCING NEW TABLE AS new_sites
FOR EACH STATEMENT EXECUTE FUNCTION site_counts_sync();--> statement-breakpoint
CREATE TRIGGER "sites_counts_update" AFTER UPDATE ON "sites"
REFERENCING OLD TABLE AS old_sites NEW TABLE AS new_sites
FOR EACH STATEMENT EXECUTE FUNCTION site_counts_sync();--> statement-breakpoint
CREATE TRIGGER "sites_counts_delete" AFTER DELETE ON "sites"
REFERENCING OLD TABLE AS old_sites
FOR EACH STATEMENT EXECUTE FUNCTION site_counts_sync();--> statement-breakpoint

-- TRUNCATE fires no row or transition trigger: the counts go with the sites.
CREATE FUNCTION site_counts_truncate() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
	TRUNCATE site_counts;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "sites_counts_truncate" AFTER TRUNCATE ON "sites"
FOR EACH STATEMENT EXECUTE FUNCTION site_counts_truncate();--> statement-breakpoint

-- The counts of the sites already there. Creating the triggers above waited for every writer of
-- sites in progress and holds the others off until this migration commits, so this count, which
-- sees every committed write, starts the table exactly.
INSERT INTO site_counts (category, signal_bits, slot, site_count)
SELECT category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt), 0, count(*)
FROM sites GROUP BY 1, 2;--> statement-breakpoint

-- Each signal pattern of a category, and of the discovery inventory, in organic order. The
-- expressions read exactly as the top list's conditions (src/domain/search/top-sites.ts).
CREATE INDEX "sites_category_signals_order" ON "sites" USING btree ("category",search_signal_bits("has_structured_api", "has_mcp_server", "has_openapi", "has_llms_txt"),"agentic_score" DESC NULLS LAST,"organic_tiebreak","domain");--> statement-breakpoint
CREATE INDEX "sites_discovery_signals_order" ON "sites" USING btree (search_signal_bits("has_structured_api", "has_mcp_server", "has_openapi", "has_llms_txt"),"agentic_score" DESC NULLS LAST,"organic_tiebreak","domain") WHERE not search_is_audit("sites"."category");
