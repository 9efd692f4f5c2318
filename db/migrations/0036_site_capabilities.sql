-- What a site's own machine-readable documents say it does, as its last successful crawl read
-- them (src/domain/capabilities/site-capabilities.ts; docs/discovery.md, "What agents can do
-- here"): MCP tools from the live tools/list, OpenAPI operations, A2A skills, Agent Skills, ARD /
-- AI Catalog entries, the llms.txt title and summary. `capabilities` keeps them grouped by source
-- for the site report; null for a site not crawled since this was kept, or one whose documents
-- name nothing. `capabilities_text` is the same words as one plain text for search, capped at
-- 2,048 characters so no site can stuff the index; empty when there is nothing.
ALTER TABLE "sites" ADD COLUMN "capabilities" jsonb;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "capabilities_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_capabilities_text_bounded" CHECK (char_length("sites"."capabilities_text") <= 2048);
