CREATE TABLE "monitor_alerts" (
	"monitor_id" uuid NOT NULL,
	"crawl_recorded_at" timestamp with time zone NOT NULL,
	"previous_score" smallint NOT NULL,
	"score" smallint NOT NULL,
	"lost_signals" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"mail_id" text,
	"last_error" text,
	CONSTRAINT "monitor_alerts_pk" PRIMARY KEY("monitor_id","crawl_recorded_at")
);
--> statement-breakpoint
CREATE TABLE "monitor_subscribers" (
	"email" text PRIMARY KEY NOT NULL,
	"confirm_token_sha256" text,
	"confirmation_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_subscribers_confirm_token_sha256_unique" UNIQUE("confirm_token_sha256"),
	CONSTRAINT "monitor_subscribers_email_lower" CHECK ("monitor_subscribers"."email" = lower("monitor_subscribers"."email")),
	CONSTRAINT "monitor_subscribers_token_hash" CHECK ("monitor_subscribers"."confirm_token_sha256" is null or "monitor_subscribers"."confirm_token_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "monitor_tokens" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"monitor_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitor_tokens_hash" CHECK ("monitor_tokens"."token_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "monitors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"baseline_score" smallint,
	"baseline_signals" text[],
	"baseline_recorded_at" timestamp with time zone,
	CONSTRAINT "monitors_email_domain" UNIQUE("email","domain"),
	CONSTRAINT "monitors_baseline_whole" CHECK (("monitors"."baseline_score" is null) = ("monitors"."baseline_recorded_at" is null) and ("monitors"."baseline_score" is null) = ("monitors"."baseline_signals" is null))
);
--> statement-breakpoint
ALTER TABLE "monitor_alerts" ADD CONSTRAINT "monitor_alerts_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitor_tokens" ADD CONSTRAINT "monitor_tokens_monitor_id_monitors_id_fk" FOREIGN KEY ("monitor_id") REFERENCES "public"."monitors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitors" ADD CONSTRAINT "monitors_email_monitor_subscribers_email_fk" FOREIGN KEY ("email") REFERENCES "public"."monitor_subscribers"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitor_alerts_unsent" ON "monitor_alerts" USING btree ("created_at") WHERE "monitor_alerts"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "monitor_tokens_monitor" ON "monitor_tokens" USING btree ("monitor_id");--> statement-breakpoint
CREATE INDEX "monitors_domain" ON "monitors" USING btree ("domain");