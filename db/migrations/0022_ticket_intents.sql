-- A ticket's controlled intent moves out of action_tickets into its own append-only table, which
-- the retention purge empties 30 days after each ticket's creation (docs/exchange-tickets.md,
-- "Retention"); the ticket, its handoff, outcomes and ledger (the money records) stay.
-- Drizzle's earlier snapshots missed the tables of a parallel branch, so this file is trimmed by
-- hand to the real change; existing intents are copied before the columns are dropped.
CREATE TABLE "action_ticket_intents" (
	"ticket_id" uuid PRIMARY KEY NOT NULL,
	"intent_topic" text NOT NULL,
	"intent_region_code" text,
	"intent_budget_band" text,
	"intent_urgency" text,
	"intent_requirement_flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "action_ticket_intents_topic" CHECK ("action_ticket_intents"."intent_topic" in ('payments', 'commerce', 'jobs', 'data', 'search', 'weather', 'maps', 'email', 'messaging', 'image', 'video', 'audio', 'documents', 'security', 'finance', 'health', 'education', 'news', 'analytics', 'automation', 'productivity', 'identity', 'storage', 'ai-tools', 'developer-tools', 'other')),
	CONSTRAINT "action_ticket_intents_region" CHECK ("action_ticket_intents"."intent_region_code" is null or "action_ticket_intents"."intent_region_code" ~ '^[A-Z]{2}$'),
	CONSTRAINT "action_ticket_intents_budget_band" CHECK ("action_ticket_intents"."intent_budget_band" is null or "action_ticket_intents"."intent_budget_band" in ('usd_0', 'usd_1_99', 'usd_100_499', 'usd_500_1999', 'usd_2000_9999', 'usd_10000_plus')),
	CONSTRAINT "action_ticket_intents_urgency" CHECK ("action_ticket_intents"."intent_urgency" is null or "action_ticket_intents"."intent_urgency" in ('immediate', 'this_week', 'this_month', 'exploring')),
	CONSTRAINT "action_ticket_intents_requirement_flags" CHECK ("action_ticket_intents"."intent_requirement_flags" <@ array['api_access', 'free_trial', 'invoice_billing', 'single_sign_on', 'data_residency', 'human_support', 'accessibility', 'open_source', 'self_hosting', 'compliance_documentation']::text[]),
	CONSTRAINT "action_ticket_intents_retention" CHECK ("action_ticket_intents"."expires_at" = "action_ticket_intents"."created_at" + make_interval(days => 30))
);
--> statement-breakpoint
ALTER TABLE "action_ticket_intents" ADD CONSTRAINT "action_ticket_intents_ticket_id_action_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."action_tickets"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "action_ticket_intents_expires" ON "action_ticket_intents" USING btree ("expires_at");
--> statement-breakpoint
INSERT INTO "action_ticket_intents" ("ticket_id", "intent_topic", "intent_region_code", "intent_budget_band",
  "intent_urgency", "intent_requirement_flags", "created_at", "expires_at")
SELECT "id", "intent_topic", "intent_region_code", "intent_budget_band", "intent_urgency",
  "intent_requirement_flags", "created_at", "created_at" + make_interval(days => 30)
FROM "action_tickets";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP CONSTRAINT "action_tickets_topic";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP CONSTRAINT "action_tickets_region";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP CONSTRAINT "action_tickets_budget_band";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP CONSTRAINT "action_tickets_urgency";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP CONSTRAINT "action_tickets_requirement_flags";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP COLUMN "intent_topic";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP COLUMN "intent_region_code";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP COLUMN "intent_budget_band";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP COLUMN "intent_urgency";
--> statement-breakpoint
ALTER TABLE "action_tickets" DROP COLUMN "intent_requirement_flags";
