CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_email_unique" UNIQUE("email"),
	CONSTRAINT "accounts_email_lower" CHECK ("accounts"."email" = lower("accounts"."email"))
);
--> statement-breakpoint
CREATE TABLE "provider_api_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "provider_api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"claim_id" uuid NOT NULL,
	"key_sha256" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "provider_api_keys_key_sha256_unique" UNIQUE("key_sha256"),
	CONSTRAINT "provider_api_keys_hash" CHECK ("provider_api_keys"."key_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "provider_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"site_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"verification_method" text DEFAULT 'dns_txt' NOT NULL,
	"verification_record_name" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"challenge_sha256" text NOT NULL,
	"challenge_expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"verification_last_succeeded_at" timestamp with time zone,
	"verification_last_attempted_at" timestamp with time zone,
	"verification_consecutive_failures" integer DEFAULT 0 NOT NULL,
	"verification_next_check_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_claims_method" CHECK ("provider_claims"."verification_method" = 'dns_txt'),
	CONSTRAINT "provider_claims_status" CHECK ("provider_claims"."status" in ('pending', 'verified', 'revoked')),
	CONSTRAINT "provider_claims_challenge_hash" CHECK ("provider_claims"."challenge_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "provider_claims_failures" CHECK ("provider_claims"."verification_consecutive_failures" >= 0),
	CONSTRAINT "provider_claims_revoked_at" CHECK (("provider_claims"."status" = 'revoked') = ("provider_claims"."revoked_at" is not null)),
	CONSTRAINT "provider_claims_verified_at" CHECK ("provider_claims"."status" <> 'verified' or "provider_claims"."verified_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_sha256" text NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "sessions_token_sha256_unique" UNIQUE("token_sha256"),
	CONSTRAINT "sessions_hash" CHECK ("sessions"."token_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "sign_in_tokens" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "sign_in_tokens_hash" CHECK ("sign_in_tokens"."token_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "sign_in_tokens_lifetime" CHECK ("sign_in_tokens"."expires_at" <= "sign_in_tokens"."created_at" + interval '15 minutes')
);
--> statement-breakpoint
ALTER TABLE "provider_api_keys" ADD CONSTRAINT "provider_api_keys_claim_id_provider_claims_id_fk" FOREIGN KEY ("claim_id") REFERENCES "public"."provider_claims"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_claims" ADD CONSTRAINT "provider_claims_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_api_keys_one_active" ON "provider_api_keys" USING btree ("claim_id") WHERE "provider_api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_claims_live_domain" ON "provider_claims" USING btree ("domain") WHERE "provider_claims"."status" <> 'revoked';--> statement-breakpoint
CREATE UNIQUE INDEX "provider_claims_live_account" ON "provider_claims" USING btree ("account_id") WHERE "provider_claims"."status" <> 'revoked';--> statement-breakpoint
CREATE INDEX "provider_claims_due" ON "provider_claims" USING btree ("verification_next_check_at") WHERE "provider_claims"."status" = 'verified';--> statement-breakpoint
CREATE INDEX "sessions_account" ON "sessions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "sign_in_tokens_email_created" ON "sign_in_tokens" USING btree ("email","created_at");