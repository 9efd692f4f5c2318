import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Sites learnt from seed imports (`npm run operator -- import <file>`, src/domain/crawling/
 * import-leads.ts): one row per domain, never two. A lead whose site was not indexed when it was
 * imported waits for its crawl (`crawl_after`, spread at the import's rate) until the checks
 * group's drain (src/jobs/queue-imported-crawls.ts) queues it and sets `queued_at`; a lead of a
 * site already indexed wants no crawl (`crawl_after` null). `mcp_endpoint` is an MCP endpoint a
 * list named for the site (an MCP Registry server's `remotes` URL): every crawl of the site tries
 * it as a lead for the MCP signal (src/domain/signals/detect-mcp-server.ts).
 */
export const crawlLeads = pgTable(
  "crawl_leads",
  {
    /** The index's form of the domain (as crawl_requests and sites key it). */
    domain: text("domain").primaryKey(),
    /** The origin a crawl starts from, e.g. https://example.com. */
    origin: text("origin").notNull(),
    mcpEndpoint: text("mcp_endpoint"),
    /** What kind of list named it: `list` (domains or URLs) or `mcp-registry`. */
    source: text("source").notNull(),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
    crawlAfter: timestamp("crawl_after", { withTimezone: true }),
    queuedAt: timestamp("queued_at", { withTimezone: true }),
  },
  (table) => [
    check("crawl_leads_source_known", sql`${table.source} in ('list', 'mcp-registry')`),
    check("crawl_leads_endpoint_url", sql`${table.mcpEndpoint} ~ '^https?://'`),
    // The drain reads the due leads not queued yet, soonest first.
    index("crawl_leads_due")
      .on(table.crawlAfter)
      .where(sql`${table.queuedAt} is null and ${table.crawlAfter} is not null`),
  ],
);
