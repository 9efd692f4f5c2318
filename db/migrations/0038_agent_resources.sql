-- The agent resources a site's last successful crawl found (its MCP server with its card or
-- endpoint, A2A agent card, OpenAPI document, Agent Skills index, and the entries of its own ARD
-- manifest), as the ARD registry under /ard/v1 lists them (docs/discovery.md, "The ARD registry").
-- Null for a site not crawled since this was kept: it joins the registry at its next crawl.
ALTER TABLE "sites" ADD COLUMN "agent_resources" jsonb;--> statement-breakpoint
-- GET /ard/v1/agents lists the sites with resources in domain order, a page at a time.
CREATE INDEX "sites_agent_resources_listing" ON "sites" USING btree ("domain") WHERE "agent_resources" IS NOT NULL;--> statement-breakpoint
-- GET /ard/v1/agents/{identifier} finds the one site whose resources carry an identifier.
CREATE INDEX "sites_agent_resources_identifiers" ON "sites" USING gin ("agent_resources" jsonb_path_ops) WHERE "agent_resources" IS NOT NULL;
