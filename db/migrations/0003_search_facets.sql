DROP INDEX "sites_search_vector";--> statement-breakpoint
DROP INDEX "sites_tags";--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "facets" "tsvector" GENERATED ALWAYS AS (site_facets(category, tags, has_llms_txt, has_ai_plugin, has_openapi, has_structured_api, has_mcp_server, has_robots_ai, has_schema_org)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "sites_search" ON "sites" USING gin ("search_vector","facets");