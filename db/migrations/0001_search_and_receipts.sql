CREATE TABLE "action_interest_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"search_id" text NOT NULL,
	"domain" text NOT NULL,
	"action_type" text NOT NULL,
	"confirmation_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "action_interest_receipts_one_per_result" UNIQUE("search_id","domain"),
	CONSTRAINT "action_interest_receipts_action_type_known" CHECK ("action_interest_receipts"."action_type" in ('quote', 'trial', 'demo', 'booking', 'application', 'signup', 'purchase')),
	CONSTRAINT "action_interest_receipts_confirmation_version" CHECK ("action_interest_receipts"."confirmation_version" = 'svc-action-interest-v1')
);
--> statement-breakpoint
CREATE TABLE "result_selections" (
	"search_id" text NOT NULL,
	"domain" text NOT NULL,
	"synthetic" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "result_selections_pk" PRIMARY KEY("search_id","domain")
);
--> statement-breakpoint
CREATE TABLE "search_receipt_results" (
	"search_id" text NOT NULL,
	"domain" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "search_receipt_results_pk" PRIMARY KEY("search_id","domain"),
	CONSTRAINT "search_receipt_results_position" UNIQUE("search_id","position"),
	CONSTRAINT "search_receipt_results_position_positive" CHECK ("search_receipt_results"."position" >= 1)
);
--> statement-breakpoint
CREATE TABLE "search_receipts" (
	"search_id" text PRIMARY KEY NOT NULL,
	"surface" text NOT NULL,
	"synthetic" boolean NOT NULL,
	"result_count" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone DEFAULT now() + interval '30 days' NOT NULL,
	CONSTRAINT "search_receipts_surface_known" CHECK ("search_receipts"."surface" in ('web', 'rest', 'mcp')),
	CONSTRAINT "search_receipts_lifetime" CHECK ("search_receipts"."expires_at" <= "search_receipts"."created_at" + interval '30 days')
);
--> statement-breakpoint
CREATE TABLE "site_score_history" (
	"site_id" uuid NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"agentic_score" smallint NOT NULL,
	"score_version" integer NOT NULL,
	CONSTRAINT "site_score_history_pk" PRIMARY KEY("site_id","recorded_at")
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, name || ' ' || description) || to_tsvector('simple'::regconfig, translate(domain, '.-_', '   '))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "action_interest_receipts" ADD CONSTRAINT "action_interest_receipts_result_fk" FOREIGN KEY ("search_id","domain") REFERENCES "public"."search_receipt_results"("search_id","domain") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "result_selections" ADD CONSTRAINT "result_selections_result_fk" FOREIGN KEY ("search_id","domain") REFERENCES "public"."search_receipt_results"("search_id","domain") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_receipt_results" ADD CONSTRAINT "search_receipt_results_search_id_search_receipts_search_id_fk" FOREIGN KEY ("search_id") REFERENCES "public"."search_receipts"("search_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_score_history" ADD CONSTRAINT "site_score_history_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_receipt_results_domain" ON "search_receipt_results" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "search_receipts_expiry" ON "search_receipts" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sites_category_score_order" ON "sites" USING btree ("category","agentic_score" DESC NULLS LAST,"domain");--> statement-breakpoint
CREATE INDEX "sites_search_vector" ON "sites" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "sites_tags" ON "sites" USING gin ("tags");