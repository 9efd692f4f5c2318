-- How many crawls in a row found that the site's host name does not exist in DNS (NXDOMAIN, or
-- no address at all): the recrawl cron waits twice as long after each such crawl (at most 16
-- times its interval) rather than asking again for a name that is gone. Any other outcome sets
-- it back to 0 (src/domain/crawling/record-crawl.ts, enqueue-stale-recrawls.ts).
ALTER TABLE "sites" ADD COLUMN "unresolved_crawls" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_unresolved_crawls_range" CHECK ("sites"."unresolved_crawls" >= 0);
