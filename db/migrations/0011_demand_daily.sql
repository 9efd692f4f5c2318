CREATE TABLE "demand_daily" (
	"domain" text NOT NULL,
	"day" date NOT NULL,
	"surface" text NOT NULL,
	"topic" text NOT NULL,
	"results" integer DEFAULT 0 NOT NULL,
	"position_sum" bigint DEFAULT 0 NOT NULL,
	"selections" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "demand_daily_pk" PRIMARY KEY("domain","day","surface","topic")
);
--> statement-breakpoint
CREATE TABLE "demand_daily_interests" (
	"domain" text NOT NULL,
	"day" date NOT NULL,
	"surface" text NOT NULL,
	"topic" text NOT NULL,
	"action_type" text NOT NULL,
	"interests" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "demand_daily_interests_pk" PRIMARY KEY("domain","day","surface","topic","action_type")
);
--> statement-breakpoint
CREATE INDEX "demand_daily_expiry" ON "demand_daily" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "demand_daily_interests_expiry" ON "demand_daily_interests" USING btree ("expires_at");