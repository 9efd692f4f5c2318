-- Issue 30 (the state of the agent web). `crawl_leads`: sites learnt from seed imports, one row a
-- domain, waiting for their crawl at the import's rate; an MCP Registry endpoint stays a lead for
-- the site's MCP signal. `sites.checklist_statuses`: the latest checklist packed as smallints in
-- CHECK_IDS order (null where the checklist lacks a check), so the daily adoption rollup reads a few
-- bytes a site instead of the TOASTed JSON. `sites.mcp_endpoint_health`: how the advertised MCP
-- endpoint answered the last crawl (0 handshake, 1 auth-gated, 2 HTTP but not MCP, 3 unreachable).
CREATE TABLE "crawl_leads" (
	"domain" text PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"mcp_endpoint" text,
	"source" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"crawl_after" timestamp with time zone,
	"queued_at" timestamp with time zone,
	CONSTRAINT "crawl_leads_source_known" CHECK ("crawl_leads"."source" in ('list', 'mcp-registry')),
	CONSTRAINT "crawl_leads_endpoint_url" CHECK ("crawl_leads"."mcp_endpoint" ~ '^https?://')
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "checklist_statuses" smallint[];--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "mcp_endpoint_health" smallint;--> statement-breakpoint
CREATE INDEX "crawl_leads_due" ON "crawl_leads" USING btree ("crawl_after") WHERE "crawl_leads"."queued_at" is null and "crawl_leads"."crawl_after" is not null;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_mcp_endpoint_health_known" CHECK ("sites"."mcp_endpoint_health" between 0 and 3);--> statement-breakpoint
-- The packed statuses of every stored checklist, in CHECK_IDS order as of this migration
-- (src/domain/checklist/checklist-definition.ts; codes are indexes of CHECK_STATUSES). MCP endpoint
-- health cannot be told from stored evidence: it is null until a site's next crawl.
UPDATE "sites" SET "checklist_statuses" = (
	SELECT array_agg(CASE WHEN c.status IS NULL THEN NULL
		ELSE coalesce(array_position(ARRAY['pass','warn','fail','neutral','blocked','error'], c.status) - 1, 5) END::smallint ORDER BY i.ord)
	FROM unnest(ARRAY['robots_txt','sitemap','link_headers','markdown_negotiation','llms_txt','llms_full_txt','schema_org','schema_org_actions','ai_bot_rules','content_signals','content_usage','web_bot_auth','api_catalog','openapi','structured_api','ai_catalog','mcp_server_card','mcp_server','a2a_agent_card','agent_skills','webmcp','oauth_protected_resource','oauth_authorization_server','ai_plugin']) WITH ORDINALITY AS i(id, ord)
	LEFT JOIN LATERAL (
		SELECT chk ->> 'status' AS status FROM jsonb_array_elements("sites"."checklist" -> 'checks') AS chk WHERE chk ->> 'id' = i.id LIMIT 1
	) c ON true
) WHERE "checklist" IS NOT NULL;
