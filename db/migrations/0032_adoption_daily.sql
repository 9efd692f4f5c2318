CREATE TABLE "adoption_daily" (
	"day" date NOT NULL,
	"category" text NOT NULL,
	"item" text NOT NULL,
	"sites" integer NOT NULL,
	"with_item" integer NOT NULL,
	CONSTRAINT "adoption_daily_pk" PRIMARY KEY("day","category","item"),
	CONSTRAINT "adoption_daily_counts" CHECK ("adoption_daily"."with_item" >= 0 and "adoption_daily"."with_item" <= "adoption_daily"."sites")
);
