DROP INDEX "search_receipt_results_domain";--> statement-breakpoint
-- Edited by hand: the new NOT NULL columns are filled for receipts written before them (their
-- topic is unknown: other; a result copies its receipt), then lose the temporary default.
ALTER TABLE "search_receipts" ADD COLUMN "topic" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "search_receipts" ALTER COLUMN "topic" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ADD COLUMN "surface" text;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ADD COLUMN "topic" text;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ADD COLUMN "synthetic" boolean;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ADD COLUMN "expires_at" timestamp with time zone DEFAULT now() + interval '30 days' NOT NULL;--> statement-breakpoint
UPDATE "search_receipt_results" AS x SET "surface" = r."surface", "topic" = r."topic", "synthetic" = r."synthetic",
  "created_at" = r."created_at", "expires_at" = r."expires_at"
  FROM "search_receipts" AS r WHERE r."search_id" = x."search_id";--> statement-breakpoint
ALTER TABLE "search_receipt_results" ALTER COLUMN "surface" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ALTER COLUMN "topic" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ALTER COLUMN "synthetic" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "action_interest_receipts_domain" ON "action_interest_receipts" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "action_interest_receipts_expiry" ON "action_interest_receipts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "result_selections_domain" ON "result_selections" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "result_selections_expiry" ON "result_selections" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "search_receipt_results_demand" ON "search_receipt_results" USING btree ("domain","created_at","expires_at","synthetic","surface","topic","position");--> statement-breakpoint
ALTER TABLE "search_receipts" ADD CONSTRAINT "search_receipts_topic_known" CHECK ("search_receipts"."topic" in ('payments', 'commerce', 'jobs', 'data', 'search', 'weather', 'maps', 'email', 'messaging', 'image', 'video', 'audio', 'documents', 'security', 'finance', 'health', 'education', 'news', 'analytics', 'automation', 'productivity', 'identity', 'storage', 'ai-tools', 'developer-tools', 'other'));