CREATE TABLE "commerce_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"product_id" text NOT NULL,
	"plan" text,
	"email" text NOT NULL,
	"host" text,
	"repo_url" text,
	"notes" text,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"stripe_checkout_session_id" text,
	"stripe_subscription_id" text,
	"subscription_status" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "commerce_orders_stripe_checkout_session_id_unique" UNIQUE("stripe_checkout_session_id"),
	CONSTRAINT "commerce_orders_kind" CHECK ("commerce_orders"."kind" in ('score_fix', 'priority_key')),
	CONSTRAINT "commerce_orders_status" CHECK ("commerce_orders"."status" in ('pending', 'paid', 'failed')),
	CONSTRAINT "commerce_orders_amount" CHECK ("commerce_orders"."amount_cents" > 0),
	CONSTRAINT "commerce_orders_paid_at" CHECK (("commerce_orders"."status" = 'paid') = ("commerce_orders"."paid_at" is not null)),
	CONSTRAINT "commerce_orders_host" CHECK (("commerce_orders"."kind" = 'score_fix') = ("commerce_orders"."host" is not null))
);
--> statement-breakpoint
CREATE TABLE "priority_api_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "priority_api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" uuid NOT NULL,
	"key_sha256" text NOT NULL,
	"key_prefix" text NOT NULL,
	"plan" text NOT NULL,
	"stripe_subscription_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "priority_api_keys_key_sha256_unique" UNIQUE("key_sha256"),
	CONSTRAINT "priority_api_keys_hash" CHECK ("priority_api_keys"."key_sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "priority_api_keys_status" CHECK ("priority_api_keys"."status" in ('active', 'suspended', 'canceled', 'revoked')),
	CONSTRAINT "priority_api_keys_ended_at" CHECK (("priority_api_keys"."status" in ('canceled', 'revoked')) = ("priority_api_keys"."ended_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "priority_key_usage" (
	"key_id" bigint NOT NULL,
	"month" date NOT NULL,
	"calls" integer NOT NULL,
	CONSTRAINT "priority_key_usage_key_id_month_pk" PRIMARY KEY("key_id","month"),
	CONSTRAINT "priority_key_usage_calls" CHECK ("priority_key_usage"."calls" between 0 and 50000),
	CONSTRAINT "priority_key_usage_month" CHECK (extract(day from "priority_key_usage"."month") = 1)
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "priority_api_keys" ADD CONSTRAINT "priority_api_keys_order_id_commerce_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."commerce_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "priority_key_usage" ADD CONSTRAINT "priority_key_usage_key_id_priority_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."priority_api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commerce_orders_subscription" ON "commerce_orders" USING btree ("stripe_subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "priority_api_keys_order" ON "priority_api_keys" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "priority_api_keys_subscription" ON "priority_api_keys" USING btree ("stripe_subscription_id");