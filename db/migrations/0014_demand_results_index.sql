DROP INDEX "search_receipt_results_demand";--> statement-breakpoint
CREATE INDEX "search_receipt_results_domain" ON "search_receipt_results" USING btree ("domain");