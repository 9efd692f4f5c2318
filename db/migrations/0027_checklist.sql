-- The agent-readiness checklist (issue 29). Each successful crawl appends one compact row: the
-- statuses as smallints in the stable order of CHECK_IDS, so counting adoption of every check per
-- day reads ~80 bytes a crawl (no jsonb to unpack). The full checks of the last crawl, with
-- reasons and evidence, stay on the site row for the site detail.
CREATE TABLE "site_checklist_history" (
	"site_id" uuid NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"site_kind" smallint NOT NULL,
	"statuses" smallint[] NOT NULL,
	CONSTRAINT "site_checklist_history_pk" PRIMARY KEY("site_id","recorded_at"),
	CONSTRAINT "site_checklist_history_statuses_shape" CHECK (cardinality("site_checklist_history"."statuses") between 1 and 64 and 0 <= all("site_checklist_history"."statuses") and 5 >= all("site_checklist_history"."statuses")),
	CONSTRAINT "site_checklist_history_kind_known" CHECK ("site_checklist_history"."site_kind" between 0 and 2)
);
--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "checklist" jsonb;--> statement-breakpoint
ALTER TABLE "site_checklist_history" ADD CONSTRAINT "site_checklist_history_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_checklist_history_recorded_at" ON "site_checklist_history" USING btree ("recorded_at");