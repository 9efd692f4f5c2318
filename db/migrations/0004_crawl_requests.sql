CREATE TABLE "crawl_requests" (
	"domain" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"reason" text NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sites_last_crawled_at" ON "sites" USING btree ("last_crawled_at");