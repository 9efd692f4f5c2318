CREATE TABLE "action_handoff_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"ticket_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"offer_version" integer NOT NULL,
	"commercial_terms_sha256" text NOT NULL,
	"contract_version" text NOT NULL,
	"handoff_consent_version" text NOT NULL,
	"intent_disclosure_consent_version" text,
	"observed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "action_handoff_receipts_one_per_ticket" UNIQUE("ticket_id"),
	CONSTRAINT "action_handoff_receipts_terms_hash" CHECK ("action_handoff_receipts"."commercial_terms_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "action_handoff_receipts_contract" CHECK ("action_handoff_receipts"."contract_version" = 'svc-action-handoff-v1'),
	CONSTRAINT "action_handoff_receipts_consent" CHECK ("action_handoff_receipts"."handoff_consent_version" = 'svc-provider-handoff-consent-v1'),
	CONSTRAINT "action_handoff_receipts_disclosure_consent" CHECK ("action_handoff_receipts"."intent_disclosure_consent_version" is null or "action_handoff_receipts"."intent_disclosure_consent_version" = 'svc-provider-controlled-intent-disclosure-consent-v1')
);
--> statement-breakpoint
CREATE TABLE "action_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"search_id" text NOT NULL,
	"claim_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"offer_version" integer NOT NULL,
	"commercial_terms_sha256" text NOT NULL,
	"domain" text NOT NULL,
	"charge_event" text NOT NULL,
	"bounty_cents" bigint NOT NULL,
	"contract_version" text NOT NULL,
	"consent_version" text NOT NULL,
	"intent_topic" text NOT NULL,
	"intent_region_code" text,
	"intent_budget_band" text,
	"intent_urgency" text,
	"intent_requirement_flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"request_sha256" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"status_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_outcome_receipt_id" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "action_tickets_one_per_search_offer" UNIQUE("search_id","offer_id"),
	CONSTRAINT "action_tickets_terms_hash" CHECK ("action_tickets"."commercial_terms_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "action_tickets_request_hash" CHECK ("action_tickets"."request_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "action_tickets_charge_event" CHECK ("action_tickets"."charge_event" in ('accepted', 'activated', 'converted')),
	CONSTRAINT "action_tickets_bounty" CHECK ("action_tickets"."bounty_cents" >= 1),
	CONSTRAINT "action_tickets_contract" CHECK ("action_tickets"."contract_version" = 'svc-action-ticket-preparation-v2'),
	CONSTRAINT "action_tickets_consent" CHECK ("action_tickets"."consent_version" = 'principal-consent v1'),
	CONSTRAINT "action_tickets_topic" CHECK ("action_tickets"."intent_topic" in ('payments', 'commerce', 'jobs', 'data', 'search', 'weather', 'maps', 'email', 'messaging', 'image', 'video', 'audio', 'documents', 'security', 'finance', 'health', 'education', 'news', 'analytics', 'automation', 'productivity', 'identity', 'storage', 'ai-tools', 'developer-tools', 'other')),
	CONSTRAINT "action_tickets_region" CHECK ("action_tickets"."intent_region_code" is null or "action_tickets"."intent_region_code" ~ '^[A-Z]{2}$'),
	CONSTRAINT "action_tickets_budget_band" CHECK ("action_tickets"."intent_budget_band" is null or "action_tickets"."intent_budget_band" in ('usd_0', 'usd_1_99', 'usd_100_499', 'usd_500_1999', 'usd_2000_9999', 'usd_10000_plus')),
	CONSTRAINT "action_tickets_urgency" CHECK ("action_tickets"."intent_urgency" is null or "action_tickets"."intent_urgency" in ('immediate', 'this_week', 'this_month', 'exploring')),
	CONSTRAINT "action_tickets_requirement_flags" CHECK ("action_tickets"."intent_requirement_flags" <@ array['api_access', 'free_trial', 'invoice_billing', 'single_sign_on', 'data_residency', 'human_support', 'accessibility', 'open_source', 'self_hosting', 'compliance_documentation']::text[]),
	CONSTRAINT "action_tickets_status" CHECK ("action_tickets"."status" in ('created', 'redirected', 'accepted', 'activated', 'converted', 'rejected', 'duplicate', 'invalid', 'expired', 'revoked')),
	CONSTRAINT "action_tickets_lifetime" CHECK ("action_tickets"."expires_at" > "action_tickets"."created_at"),
	CONSTRAINT "action_tickets_revoked_at" CHECK ("action_tickets"."status" <> 'revoked' or "action_tickets"."revoked_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "exchange_charge_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entry_type" text NOT NULL,
	"ticket_id" uuid NOT NULL,
	"claim_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"outcome_receipt_id" uuid NOT NULL,
	"charge_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_charge_ledger_one_per_ticket" UNIQUE("ticket_id","entry_type"),
	CONSTRAINT "exchange_charge_ledger_one_per_receipt" UNIQUE("outcome_receipt_id"),
	CONSTRAINT "exchange_charge_ledger_one_credit_per_charge" UNIQUE("charge_entry_id"),
	CONSTRAINT "exchange_charge_ledger_entry_type" CHECK ("exchange_charge_ledger"."entry_type" in ('charge', 'credit')),
	CONSTRAINT "exchange_charge_ledger_amount" CHECK ("exchange_charge_ledger"."amount_cents" >= 1),
	CONSTRAINT "exchange_charge_ledger_currency" CHECK ("exchange_charge_ledger"."currency" = 'usd'),
	CONSTRAINT "exchange_charge_ledger_credit_names_charge" CHECK (("exchange_charge_ledger"."entry_type" = 'credit') = ("exchange_charge_ledger"."charge_entry_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "provider_outcome_receipts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_sha256" text NOT NULL,
	"outcome" text NOT NULL,
	"previous_status" text NOT NULL,
	"ticket_status" text NOT NULL,
	"charge_status" text NOT NULL,
	"billed_cents" bigint NOT NULL,
	"key_id" text NOT NULL,
	"signed_receipt" text NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_outcome_receipts_idempotency" UNIQUE("claim_id","idempotency_key"),
	CONSTRAINT "provider_outcome_receipts_request_hash" CHECK ("provider_outcome_receipts"."request_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "provider_outcome_receipts_outcome" CHECK ("provider_outcome_receipts"."outcome" in ('accepted', 'activated', 'converted', 'rejected', 'duplicate', 'invalid')),
	CONSTRAINT "provider_outcome_receipts_status" CHECK ("provider_outcome_receipts"."ticket_status" = "provider_outcome_receipts"."outcome"),
	CONSTRAINT "provider_outcome_receipts_charge_status" CHECK ("provider_outcome_receipts"."charge_status" in ('none', 'charged', 'credited')),
	CONSTRAINT "provider_outcome_receipts_billed" CHECK ("provider_outcome_receipts"."billed_cents" >= 0),
	CONSTRAINT "provider_outcome_receipts_signature" CHECK ("provider_outcome_receipts"."signature" ~ '^[A-Za-z0-9_-]{43}$')
);
--> statement-breakpoint
ALTER TABLE "action_handoff_receipts" ADD CONSTRAINT "action_handoff_receipts_ticket_id_action_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."action_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_tickets" ADD CONSTRAINT "action_tickets_claim_id_provider_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."provider_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_tickets" ADD CONSTRAINT "action_tickets_offer_version_fk" FOREIGN KEY ("offer_id","offer_version") REFERENCES "public"."provider_offer_versions"("offer_id","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_charge_ledger" ADD CONSTRAINT "exchange_charge_ledger_ticket_id_action_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."action_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_charge_ledger" ADD CONSTRAINT "exchange_charge_ledger_outcome_receipt_id_provider_outcome_receipts_id_fk" FOREIGN KEY ("outcome_receipt_id") REFERENCES "public"."provider_outcome_receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_charge_ledger" ADD CONSTRAINT "exchange_charge_ledger_charge_fk" FOREIGN KEY ("charge_entry_id") REFERENCES "public"."exchange_charge_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_outcome_receipts" ADD CONSTRAINT "provider_outcome_receipts_claim_id_provider_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."provider_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_outcome_receipts" ADD CONSTRAINT "provider_outcome_receipts_ticket_id_action_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."action_tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "action_handoff_receipts_claim_observed" ON "action_handoff_receipts" USING btree ("claim_id","observed_at");--> statement-breakpoint
CREATE INDEX "action_tickets_offer_created" ON "action_tickets" USING btree ("offer_id","created_at");--> statement-breakpoint
CREATE INDEX "action_tickets_claim_changed" ON "action_tickets" USING btree ("claim_id","status_changed_at");--> statement-breakpoint
CREATE INDEX "exchange_charge_ledger_offer" ON "exchange_charge_ledger" USING btree ("offer_id","created_at");--> statement-breakpoint
CREATE INDEX "provider_outcome_receipts_ticket" ON "provider_outcome_receipts" USING btree ("ticket_id","created_at");