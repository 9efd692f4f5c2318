import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The latest crawl asked for each domain. Its primary key is what keeps a domain from being
 * queued twice within the dedupe window: a request only enqueues a job when its upsert wins.
 */
export const crawlRequests = pgTable("crawl_requests", {
  /** The index's form of the domain (see normalizeDomain). */
  domain: text("domain").primaryKey(),
  /** The origin the crawl starts from, e.g. https://example.com. */
  url: text("url").notNull(),
  /** What asked for it: submit, recrawl, check, monitor or import (a seed import's lead). */
  reason: text("reason").notNull(),
  queuedAt: timestamp("queued_at", { withTimezone: true }).notNull().defaultNow(),
});
