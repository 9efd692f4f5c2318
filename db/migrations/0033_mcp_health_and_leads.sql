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
ALTER TABLE "sites" ADD CONSTRAINT "sites_mcp_endpoint_health_known" CHECK ("sites"."mcp_endpoint_health" between 0 and 3);