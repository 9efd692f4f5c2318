CREATE TABLE "acceptance_owner_verifications" (
	"acceptance_id" uuid PRIMARY KEY NOT NULL,
	"verified_by" text NOT NULL,
	"verified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "acceptance_owner_verifications_by" CHECK (char_length("acceptance_owner_verifications"."verified_by") between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "commercial_acceptance_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_claim_id" uuid NOT NULL,
	"provider_api_key_id" bigint NOT NULL,
	"event_type" text NOT NULL,
	"provider_acceptance_reference" text NOT NULL,
	"provider_accepted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider_offer_id" uuid,
	"related_acceptance_event_id" uuid,
	"offer_version" integer,
	"terms_contract_version" text,
	"exact_terms_sha256" text,
	"valid_until" timestamp with time zone,
	"idempotency_key" text NOT NULL,
	"request_sha256" text NOT NULL,
	"response_acceptance" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commercial_acceptance_events_idempotency" UNIQUE("provider_claim_id","idempotency_key"),
	CONSTRAINT "commercial_acceptance_events_type" CHECK ("commercial_acceptance_events"."event_type" in ('pilot_company', 'terms_acceptance', 'terms_renewal')),
	CONSTRAINT "commercial_acceptance_events_reference" CHECK ("commercial_acceptance_events"."provider_acceptance_reference" ~ '^[A-Za-z0-9][A-Za-z0-9._:/-]{7,199}$'),
	CONSTRAINT "commercial_acceptance_events_request_hash" CHECK ("commercial_acceptance_events"."request_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "commercial_acceptance_events_shape" CHECK (case "commercial_acceptance_events"."event_type"
        when 'pilot_company' then "commercial_acceptance_events"."provider_offer_id" is null and "commercial_acceptance_events"."offer_version" is null
          and "commercial_acceptance_events"."exact_terms_sha256" is null and "commercial_acceptance_events"."related_acceptance_event_id" is null
          and "commercial_acceptance_events"."terms_contract_version" is null and "commercial_acceptance_events"."valid_until" is null
        when 'terms_acceptance' then "commercial_acceptance_events"."provider_offer_id" is not null and "commercial_acceptance_events"."offer_version" is not null
          and "commercial_acceptance_events"."related_acceptance_event_id" is null and "commercial_acceptance_events"."valid_until" is not null
          and "commercial_acceptance_events"."terms_contract_version" = 'svc-provider-commercial-terms-v1'
          and "commercial_acceptance_events"."exact_terms_sha256" ~ '^[0-9a-f]{64}$'
        else "commercial_acceptance_events"."provider_offer_id" is not null and "commercial_acceptance_events"."offer_version" is not null
          and "commercial_acceptance_events"."related_acceptance_event_id" is not null and "commercial_acceptance_events"."valid_until" is not null
          and "commercial_acceptance_events"."terms_contract_version" = 'svc-provider-commercial-terms-v1'
          and "commercial_acceptance_events"."exact_terms_sha256" ~ '^[0-9a-f]{64}$'
        end)
);
--> statement-breakpoint
CREATE TABLE "operator_acts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_acts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"act" text NOT NULL,
	"subject_id" uuid NOT NULL,
	"operator" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"acted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_acts_act" CHECK ("operator_acts"."act" in ('owner_verify_acceptance', 'activate_offer')),
	CONSTRAINT "operator_acts_operator" CHECK (char_length("operator_acts"."operator") between 1 and 200)
);
--> statement-breakpoint
CREATE TABLE "provider_offer_versions" (
	"offer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"summary" text NOT NULL,
	"action_type" text NOT NULL,
	"action_url" text NOT NULL,
	"charge_event" text NOT NULL,
	"bounty_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"principal_price_mode" text NOT NULL,
	"principal_price_cents" bigint,
	"principal_currency" text NOT NULL,
	"billing_mode" text NOT NULL,
	"terms_credit_limit_cents" bigint,
	"terms_period_days" integer,
	"commercial_terms_sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_offer_versions_pk" PRIMARY KEY("offer_id","version"),
	CONSTRAINT "provider_offer_versions_version" CHECK ("provider_offer_versions"."version" >= 1),
	CONSTRAINT "provider_offer_versions_name_length" CHECK (char_length("provider_offer_versions"."name") between 1 and 80),
	CONSTRAINT "provider_offer_versions_summary_length" CHECK (char_length("provider_offer_versions"."summary") between 1 and 280),
	CONSTRAINT "provider_offer_versions_action_type" CHECK ("provider_offer_versions"."action_type" in ('lead', 'demo', 'trial', 'signup', 'purchase', 'quote', 'application', 'booking')),
	CONSTRAINT "provider_offer_versions_action_url_https" CHECK ("provider_offer_versions"."action_url" like 'https://%'),
	CONSTRAINT "provider_offer_versions_charge_event" CHECK ("provider_offer_versions"."charge_event" in ('accepted', 'activated', 'converted')),
	CONSTRAINT "provider_offer_versions_bounty" CHECK ("provider_offer_versions"."bounty_cents" between 1 and 1000000),
	CONSTRAINT "provider_offer_versions_currency" CHECK ("provider_offer_versions"."currency" = 'usd' and "provider_offer_versions"."principal_currency" = 'usd'),
	CONSTRAINT "provider_offer_versions_price_mode" CHECK ("provider_offer_versions"."principal_price_mode" in ('free', 'fixed', 'quote', 'provider_pricing')),
	CONSTRAINT "provider_offer_versions_price" CHECK ("provider_offer_versions"."principal_price_cents" is null or "provider_offer_versions"."principal_price_cents" between 0 and 100000000),
	CONSTRAINT "provider_offer_versions_billing_mode" CHECK ("provider_offer_versions"."billing_mode" = 'terms'),
	CONSTRAINT "provider_offer_versions_credit_limit" CHECK ("provider_offer_versions"."terms_credit_limit_cents" is null or "provider_offer_versions"."terms_credit_limit_cents" between 1 and 10000000),
	CONSTRAINT "provider_offer_versions_period" CHECK ("provider_offer_versions"."terms_period_days" is null or "provider_offer_versions"."terms_period_days" between 1 and 90),
	CONSTRAINT "provider_offer_versions_terms_hash" CHECK ("provider_offer_versions"."commercial_terms_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "provider_offers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"claim_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"summary" text NOT NULL,
	"action_type" text NOT NULL,
	"action_url" text NOT NULL,
	"charge_event" text NOT NULL,
	"bounty_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"principal_price_mode" text NOT NULL,
	"principal_price_cents" bigint,
	"principal_currency" text NOT NULL,
	"billing_mode" text NOT NULL,
	"terms_credit_limit_cents" bigint,
	"terms_period_days" integer,
	"commercial_terms_sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "provider_offers_status" CHECK ("provider_offers"."status" in ('draft', 'active', 'paused')),
	CONSTRAINT "provider_offers_version" CHECK ("provider_offers"."version" >= 1),
	CONSTRAINT "provider_offers_active_since" CHECK ("provider_offers"."status" <> 'active' or "provider_offers"."activated_at" is not null),
	CONSTRAINT "provider_offers_revoked_not_active" CHECK ("provider_offers"."revoked_at" is null or "provider_offers"."status" <> 'active'),
	CONSTRAINT "provider_offers_name_length" CHECK (char_length("provider_offers"."name") between 1 and 80),
	CONSTRAINT "provider_offers_summary_length" CHECK (char_length("provider_offers"."summary") between 1 and 280),
	CONSTRAINT "provider_offers_action_type" CHECK ("provider_offers"."action_type" in ('lead', 'demo', 'trial', 'signup', 'purchase', 'quote', 'application', 'booking')),
	CONSTRAINT "provider_offers_action_url_https" CHECK ("provider_offers"."action_url" like 'https://%'),
	CONSTRAINT "provider_offers_charge_event" CHECK ("provider_offers"."charge_event" in ('accepted', 'activated', 'converted')),
	CONSTRAINT "provider_offers_bounty" CHECK ("provider_offers"."bounty_cents" between 1 and 1000000),
	CONSTRAINT "provider_offers_currency" CHECK ("provider_offers"."currency" = 'usd' and "provider_offers"."principal_currency" = 'usd'),
	CONSTRAINT "provider_offers_price_mode" CHECK ("provider_offers"."principal_price_mode" in ('free', 'fixed', 'quote', 'provider_pricing')),
	CONSTRAINT "provider_offers_price" CHECK ("provider_offers"."principal_price_cents" is null or "provider_offers"."principal_price_cents" between 0 and 100000000),
	CONSTRAINT "provider_offers_billing_mode" CHECK ("provider_offers"."billing_mode" = 'terms'),
	CONSTRAINT "provider_offers_credit_limit" CHECK ("provider_offers"."terms_credit_limit_cents" is null or "provider_offers"."terms_credit_limit_cents" between 1 and 10000000),
	CONSTRAINT "provider_offers_period" CHECK ("provider_offers"."terms_period_days" is null or "provider_offers"."terms_period_days" between 1 and 90),
	CONSTRAINT "provider_offers_terms_hash" CHECK ("provider_offers"."commercial_terms_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "search_offer_disclosures" (
	"search_id" text NOT NULL,
	"offer_id" uuid NOT NULL,
	"offer_version" integer NOT NULL,
	"commercial_terms_sha256" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_offer_disclosures_pk" PRIMARY KEY("search_id","offer_id")
);
--> statement-breakpoint
ALTER TABLE "acceptance_owner_verifications" ADD CONSTRAINT "acceptance_owner_verifications_acceptance_id_commercial_acceptance_events_id_fk" FOREIGN KEY ("acceptance_id") REFERENCES "public"."commercial_acceptance_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_acceptance_events" ADD CONSTRAINT "commercial_acceptance_events_provider_claim_id_provider_claims_id_fk" FOREIGN KEY ("provider_claim_id") REFERENCES "public"."provider_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_acceptance_events" ADD CONSTRAINT "commercial_acceptance_events_provider_api_key_id_provider_api_keys_id_fk" FOREIGN KEY ("provider_api_key_id") REFERENCES "public"."provider_api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_acceptance_events" ADD CONSTRAINT "commercial_acceptance_events_offer_version_fk" FOREIGN KEY ("provider_offer_id","offer_version") REFERENCES "public"."provider_offer_versions"("offer_id","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commercial_acceptance_events" ADD CONSTRAINT "commercial_acceptance_events_related_fk" FOREIGN KEY ("related_acceptance_event_id") REFERENCES "public"."commercial_acceptance_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_offer_versions" ADD CONSTRAINT "provider_offer_versions_offer_id_provider_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."provider_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_offers" ADD CONSTRAINT "provider_offers_claim_id_provider_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."provider_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_offer_disclosures" ADD CONSTRAINT "search_offer_disclosures_result_fk" FOREIGN KEY ("search_id","domain") REFERENCES "public"."search_receipt_results"("search_id","domain") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_offer_disclosures" ADD CONSTRAINT "search_offer_disclosures_offer_version_fk" FOREIGN KEY ("offer_id","offer_version") REFERENCES "public"."provider_offer_versions"("offer_id","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commercial_acceptance_events_offer" ON "commercial_acceptance_events" USING btree ("provider_offer_id","created_at");--> statement-breakpoint
CREATE INDEX "commercial_acceptance_events_claim" ON "commercial_acceptance_events" USING btree ("provider_claim_id","created_at");--> statement-breakpoint
CREATE INDEX "operator_acts_subject" ON "operator_acts" USING btree ("subject_id","acted_at");--> statement-breakpoint
CREATE INDEX "provider_offers_claim" ON "provider_offers" USING btree ("claim_id","created_at");--> statement-breakpoint
CREATE INDEX "provider_offers_active_claim" ON "provider_offers" USING btree ("claim_id") WHERE "provider_offers"."status" = 'active';--> statement-breakpoint
CREATE INDEX "search_offer_disclosures_offer" ON "search_offer_disclosures" USING btree ("offer_id");