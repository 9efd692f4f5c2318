-- Retention whose cost does not grow with traffic (docs/demand.md, "Retention"): the receipt
-- family (search_receipts, search_receipt_results, result_selections, action_interest_receipts,
-- search_offer_disclosures) becomes RANGE-partitioned by expires_at, one partition per UTC day of
-- expiry. A day whose every row has expired leaves in one step: its partitions are detached and
-- dropped (retention_drop_expired_partitions), whatever the day's traffic was. Partitions are made
-- ahead by the same job (retention_ensure_partitions); a DEFAULT partition catches any row whose
-- day has none (a late job, a hand-inserted old row), and the bounded row purge empties it.
--
-- Why expires_at: every row of one search carries the search's own expiry (selections,
-- interests and disclosures copy it), so a search and all that hangs on it lie in the same day's
-- partitions. A partitioned table's unique keys must include the partition key, so every key gains
-- expires_at; a search id has exactly one expiry, so (search_id, domain, expires_at) is unique
-- exactly when (search_id, domain) is, and the idempotent replays keep their guard.
--
-- The foreign keys (result -> receipt; selection, interest, disclosure -> result; all ON DELETE
-- CASCADE) join each day's partitions to the same day's partitions of what they reference, not the
-- partitioned parents: a row and what it references share expires_at, so they always lie in the
-- same day's partitions. Detaching a partition that a parent-level key references makes
-- PostgreSQL look for referencing rows across the whole referencing table, a cost that grows with
-- the day's size (measured: 5 s for a day of 100,000 searches); with keys between partitions, a
-- day's partitions are dropped children first and nothing is checked.
--
-- Drizzle cannot express partitioning, so this file is written by hand; the snapshot carries the
-- keys. Existing rows are copied into the new tables, then the old tables are dropped.

-- 1. Set the old tables aside: their index and constraint names are freed for the new ones.
DROP TRIGGER "search_receipt_results_demand_daily" ON "search_receipt_results";--> statement-breakpoint
DROP TRIGGER "result_selections_demand_daily" ON "result_selections";--> statement-breakpoint
DROP TRIGGER "action_interest_receipts_demand_daily" ON "action_interest_receipts";--> statement-breakpoint
ALTER TABLE "search_receipts" RENAME TO "search_receipts_unpartitioned";--> statement-breakpoint
ALTER TABLE "search_receipt_results" RENAME TO "search_receipt_results_unpartitioned";--> statement-breakpoint
ALTER TABLE "result_selections" RENAME TO "result_selections_unpartitioned";--> statement-breakpoint
ALTER TABLE "action_interest_receipts" RENAME TO "action_interest_receipts_unpartitioned";--> statement-breakpoint
ALTER TABLE "search_offer_disclosures" RENAME TO "search_offer_disclosures_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_receipts_pkey" RENAME TO "search_receipts_pkey_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_receipts_expiry" RENAME TO "search_receipts_expiry_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_receipt_results_pk" RENAME TO "search_receipt_results_pk_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_receipt_results_position" RENAME TO "search_receipt_results_position_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_receipt_results_domain" RENAME TO "search_receipt_results_domain_unpartitioned";--> statement-breakpoint
ALTER INDEX "result_selections_pk" RENAME TO "result_selections_pk_unpartitioned";--> statement-breakpoint
ALTER INDEX "result_selections_domain" RENAME TO "result_selections_domain_unpartitioned";--> statement-breakpoint
ALTER INDEX "result_selections_expiry" RENAME TO "result_selections_expiry_unpartitioned";--> statement-breakpoint
ALTER INDEX "action_interest_receipts_pkey" RENAME TO "action_interest_receipts_pkey_unpartitioned";--> statement-breakpoint
ALTER INDEX "action_interest_receipts_one_per_result" RENAME TO "action_interest_receipts_one_per_result_unpartitioned";--> statement-breakpoint
ALTER INDEX "action_interest_receipts_domain" RENAME TO "action_interest_receipts_domain_unpartitioned";--> statement-breakpoint
ALTER INDEX "action_interest_receipts_expiry" RENAME TO "action_interest_receipts_expiry_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_offer_disclosures_pk" RENAME TO "search_offer_disclosures_pk_unpartitioned";--> statement-breakpoint
ALTER INDEX "search_offer_disclosures_offer" RENAME TO "search_offer_disclosures_offer_unpartitioned";--> statement-breakpoint

-- 2. The partitioned tables: the same columns (and order), checks and defaults as before.
CREATE TABLE "search_receipts" (
	"search_id" text NOT NULL,
	"surface" text NOT NULL,
	"synthetic" boolean NOT NULL,
	"result_count" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone DEFAULT (now() + '30 days'::interval) NOT NULL,
	"topic" text NOT NULL,
	CONSTRAINT "search_receipts_pk" PRIMARY KEY ("search_id", "expires_at"),
	CONSTRAINT "search_receipts_lifetime" CHECK ("expires_at" <= "created_at" + '30 days'::interval),
	CONSTRAINT "search_receipts_surface_known" CHECK ("surface" IN ('web', 'rest', 'mcp')),
	CONSTRAINT "search_receipts_topic_known" CHECK ("topic" IN ('payments', 'commerce', 'jobs', 'data', 'search', 'weather', 'maps', 'email', 'messaging', 'image', 'video', 'audio', 'documents', 'security', 'finance', 'health', 'education', 'news', 'analytics', 'automation', 'productivity', 'identity', 'storage', 'ai-tools', 'developer-tools', 'other'))
) PARTITION BY RANGE ("expires_at");--> statement-breakpoint
CREATE INDEX "search_receipts_expiry" ON "search_receipts" ("expires_at");--> statement-breakpoint
-- No index on domain any more: nothing reads results by domain (demand reads the daily rows), and
-- at 20 results a search it was a third of the family's size.
CREATE TABLE "search_receipt_results" (
	"search_id" text NOT NULL,
	"domain" text NOT NULL,
	"position" integer NOT NULL,
	"surface" text NOT NULL,
	"topic" text NOT NULL,
	"synthetic" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone DEFAULT (now() + '30 days'::interval) NOT NULL,
	CONSTRAINT "search_receipt_results_pk" PRIMARY KEY ("search_id", "domain", "expires_at"),
	CONSTRAINT "search_receipt_results_position" UNIQUE ("search_id", "position", "expires_at"),
	CONSTRAINT "search_receipt_results_position_positive" CHECK ("position" >= 1)
) PARTITION BY RANGE ("expires_at");--> statement-breakpoint
CREATE TABLE "result_selections" (
	"search_id" text NOT NULL,
	"domain" text NOT NULL,
	"synthetic" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "result_selections_pk" PRIMARY KEY ("search_id", "domain", "expires_at")
) PARTITION BY RANGE ("expires_at");--> statement-breakpoint
CREATE INDEX "result_selections_domain" ON "result_selections" ("domain");--> statement-breakpoint
CREATE INDEX "result_selections_expiry" ON "result_selections" ("expires_at");--> statement-breakpoint
CREATE TABLE "action_interest_receipts" (
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"search_id" text NOT NULL,
	"domain" text NOT NULL,
	"action_type" text NOT NULL,
	"confirmation_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "action_interest_receipts_pk" PRIMARY KEY ("id", "expires_at"),
	CONSTRAINT "action_interest_receipts_one_per_result" UNIQUE ("search_id", "domain", "expires_at"),
	CONSTRAINT "action_interest_receipts_action_type_known" CHECK ("action_type" IN ('quote', 'trial', 'demo', 'booking', 'application', 'signup', 'purchase')),
	CONSTRAINT "action_interest_receipts_confirmation_version" CHECK ("confirmation_version" = 'svc-action-interest-v1')
) PARTITION BY RANGE ("expires_at");--> statement-breakpoint
CREATE INDEX "action_interest_receipts_domain" ON "action_interest_receipts" ("domain");--> statement-breakpoint
CREATE INDEX "action_interest_receipts_expiry" ON "action_interest_receipts" ("expires_at");--> statement-breakpoint
CREATE TABLE "search_offer_disclosures" (
	"search_id" text NOT NULL,
	"offer_id" uuid NOT NULL,
	"offer_version" integer NOT NULL,
	"commercial_terms_sha256" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "search_offer_disclosures_pk" PRIMARY KEY ("search_id", "offer_id", "expires_at"),
	CONSTRAINT "search_offer_disclosures_offer_version_fk" FOREIGN KEY ("offer_id", "offer_version")
		REFERENCES "provider_offer_versions" ("offer_id", "version")
) PARTITION BY RANGE ("expires_at");--> statement-breakpoint
CREATE INDEX "search_offer_disclosures_offer" ON "search_offer_disclosures" ("offer_id");--> statement-breakpoint

-- 3. Which tables are partitioned by day of expiry, and in which order a day's partitions are
-- detached (children before what they reference). Adding a table is one row here.
-- A row's foreign key, if it has one within the family, is `key_columns` referencing the same
-- columns of `references_table`'s partition of the same day (ON DELETE CASCADE).
CREATE TABLE "retention_partitions" (
  "table_name" text PRIMARY KEY,
  "drop_order" smallint NOT NULL UNIQUE,
  "references_table" text REFERENCES "retention_partitions" ("table_name"),
  "key_columns" text,
  CONSTRAINT "retention_partitions_table_exists" CHECK (to_regclass("table_name") IS NOT NULL),
  CONSTRAINT "retention_partitions_key" CHECK (("references_table" IS NULL) = ("key_columns" IS NULL))
);--> statement-breakpoint
INSERT INTO "retention_partitions" ("table_name", "drop_order", "references_table", "key_columns") VALUES
  ('search_receipts', 50, NULL, NULL),
  ('search_receipt_results', 40, 'search_receipts', 'search_id, expires_at'),
  ('search_offer_disclosures', 30, 'search_receipt_results', 'search_id, domain, expires_at'),
  ('result_selections', 20, 'search_receipt_results', 'search_id, domain, expires_at'),
  ('action_interest_receipts', 10, 'search_receipt_results', 'search_id, domain, expires_at');--> statement-breakpoint

-- The foreign key of one table's partition (or DEFAULT partition) to its parent's same partition.
CREATE FUNCTION retention_link_partition(child text, part_suffix text)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  rule record;
BEGIN
  SELECT p.references_table, p.key_columns INTO rule FROM retention_partitions p WHERE p.table_name = child;
  IF rule.references_table IS NULL THEN
    RETURN;
  END IF;
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (%s) REFERENCES %I (%s) ON DELETE CASCADE',
    child || part_suffix, child || part_suffix || '_fk', rule.key_columns,
    rule.references_table || part_suffix, rule.key_columns);
END;
$$;
--> statement-breakpoint

-- A day's partition is named <table>_pYYYYMMDD and holds the rows expiring in that UTC day.
CREATE FUNCTION retention_partition_name(parent text, day date) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT parent || '_p' || to_char(day, 'YYYYMMDD') $$;
--> statement-breakpoint

-- Makes the whole family's partitions for one UTC day of expiry, parents first, each with its
-- foreign key to its parent's partition of that day and its TRUNCATE guard (row triggers are
-- cloned from the parent, statement triggers are not: a TRUNCATE naming the partition itself is
-- refused here). False when they exist already, or when a row of some DEFAULT partition falls in
-- that day (PostgreSQL would refuse the partition): the whole day then stays in the DEFAULT
-- partitions, whose rows leave through the row purge.
CREATE FUNCTION retention_make_day(day date)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  rule record;
  suffix text := '_p' || to_char(day, 'YYYYMMDD');
  low timestamptz := day::timestamp AT TIME ZONE 'UTC';
  high timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
  taken boolean;
BEGIN
  IF to_regclass('search_receipts' || suffix) IS NOT NULL THEN
    RETURN false;
  END IF;
  FOR rule IN SELECT p.table_name FROM retention_partitions p LOOP
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE expires_at >= %L AND expires_at < %L)',
      rule.table_name || '_default', low, high) INTO taken;
    IF taken THEN
      RETURN false;
    END IF;
  END LOOP;
  FOR rule IN SELECT p.table_name FROM retention_partitions p ORDER BY p.drop_order DESC LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
      rule.table_name || suffix, rule.table_name, low, high);
    PERFORM retention_link_partition(rule.table_name, suffix);
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard()',
      rule.table_name || suffix || '_no_truncate', rule.table_name || suffix);
  END LOOP;
  RETURN true;
END;
$$;
--> statement-breakpoint

-- Makes the family's partitions for the UTC days of expiry from today (by the database's clock)
-- to today + days_ahead; returns how many days it made.
CREATE FUNCTION retention_ensure_partitions(days_ahead integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  day date;
  today date := (now() AT TIME ZONE 'UTC')::date;
  made integer := 0;
BEGIN
  IF days_ahead IS NULL OR days_ahead < 0 OR days_ahead > 366 THEN
    RAISE EXCEPTION 'days_ahead must be from 0 to 366, not %', days_ahead;
  END IF;
  FOR day IN SELECT generate_series(today, today + days_ahead, interval '1 day')::date LOOP
    IF retention_make_day(day) THEN
      made := made + 1;
    END IF;
  END LOOP;
  RETURN made;
END;
$$;
--> statement-breakpoint

-- Detaches and drops every day's partition whose whole day of expiry has passed by the database's
-- now(): all its rows have expired, so the append-only guard would let each of them go; dropping
-- the partition removes them at once instead of row by row. Children before what they reference
-- (drop_order): a child's partition takes its foreign key with it, so the parent's partition of
-- that day is referenced by nothing when its turn comes. One row per partition.
CREATE FUNCTION retention_drop_expired_partitions()
RETURNS TABLE (table_name text, partition_name text, day date)
LANGUAGE plpgsql AS $$
DECLARE
  rule record;
  part record;
BEGIN
  FOR rule IN SELECT p.table_name FROM retention_partitions p ORDER BY p.drop_order LOOP
    FOR part IN
      SELECT c.relname, to_date(right(c.relname, 8), 'YYYYMMDD') AS part_day
        FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = to_regclass(rule.table_name)
         AND c.relname ~ ('^' || rule.table_name || '_p[0-9]{8}$')
         AND (to_date(right(c.relname, 8), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC' <= now()
       ORDER BY 2
    LOOP
      EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', rule.table_name, part.relname);
      EXECUTE format('DROP TABLE %I', part.relname);
      table_name := rule.table_name;
      partition_name := part.relname;
      day := part.part_day;
      RETURN NEXT;
    END LOOP;
  END LOOP;
END;
$$;
--> statement-breakpoint

-- The DEFAULT partitions, then the days from today to 40 days ahead (a receipt written today
-- expires in 30 days; the job keeps the window full every day).
CREATE TABLE "search_receipts_default" PARTITION OF "search_receipts" DEFAULT;--> statement-breakpoint
CREATE TABLE "search_receipt_results_default" PARTITION OF "search_receipt_results" DEFAULT;--> statement-breakpoint
CREATE TABLE "result_selections_default" PARTITION OF "result_selections" DEFAULT;--> statement-breakpoint
CREATE TABLE "action_interest_receipts_default" PARTITION OF "action_interest_receipts" DEFAULT;--> statement-breakpoint
CREATE TABLE "search_offer_disclosures_default" PARTITION OF "search_offer_disclosures" DEFAULT;--> statement-breakpoint
CREATE TRIGGER "search_receipts_default_no_truncate" BEFORE TRUNCATE ON "search_receipts_default"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "search_receipt_results_default_no_truncate" BEFORE TRUNCATE ON "search_receipt_results_default"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "result_selections_default_no_truncate" BEFORE TRUNCATE ON "result_selections_default"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "action_interest_receipts_default_no_truncate" BEFORE TRUNCATE ON "action_interest_receipts_default"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "search_offer_disclosures_default_no_truncate" BEFORE TRUNCATE ON "search_offer_disclosures_default"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
SELECT retention_link_partition(p.table_name, '_default') FROM retention_partitions p ORDER BY p.drop_order DESC;--> statement-breakpoint
SELECT retention_ensure_partitions(40);--> statement-breakpoint

-- 4. The existing rows, parents first (expired ones too: the purge removes them as before).
INSERT INTO "search_receipts" SELECT "search_id", "surface", "synthetic", "result_count", "created_at", "expires_at", "topic"
  FROM "search_receipts_unpartitioned";--> statement-breakpoint
INSERT INTO "search_receipt_results" SELECT "search_id", "domain", "position", "surface", "topic", "synthetic", "created_at", "expires_at"
  FROM "search_receipt_results_unpartitioned";--> statement-breakpoint
INSERT INTO "result_selections" SELECT "search_id", "domain", "synthetic", "created_at", "expires_at"
  FROM "result_selections_unpartitioned";--> statement-breakpoint
INSERT INTO "action_interest_receipts" SELECT "id", "search_id", "domain", "action_type", "confirmation_version", "created_at", "expires_at"
  FROM "action_interest_receipts_unpartitioned";--> statement-breakpoint
-- A disclosure takes its search's expiry.
INSERT INTO "search_offer_disclosures"
SELECT d."search_id", d."offer_id", d."offer_version", d."commercial_terms_sha256", d."domain", d."created_at", r."expires_at"
  FROM "search_offer_disclosures_unpartitioned" d
  JOIN "search_receipts_unpartitioned" r ON r."search_id" = d."search_id";--> statement-breakpoint
DROP TABLE "search_offer_disclosures_unpartitioned", "action_interest_receipts_unpartitioned",
  "result_selections_unpartitioned", "search_receipt_results_unpartitioned", "search_receipts_unpartitioned";--> statement-breakpoint

-- 5. The guards and triggers, as before, on the partitioned parents (PostgreSQL clones row
-- triggers onto every partition, present and future).
CREATE TRIGGER "search_receipts_append_only" BEFORE UPDATE OR DELETE ON "search_receipts"
FOR EACH ROW EXECUTE FUNCTION append_only_guard('expires_at');--> statement-breakpoint
CREATE TRIGGER "search_receipts_no_truncate" BEFORE TRUNCATE ON "search_receipts"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "search_receipt_results_append_only" BEFORE UPDATE OR DELETE ON "search_receipt_results"
FOR EACH ROW EXECUTE FUNCTION append_only_guard('expires_at');--> statement-breakpoint
CREATE TRIGGER "search_receipt_results_no_truncate" BEFORE TRUNCATE ON "search_receipt_results"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "result_selections_append_only" BEFORE UPDATE OR DELETE ON "result_selections"
FOR EACH ROW EXECUTE FUNCTION append_only_guard('expires_at');--> statement-breakpoint
CREATE TRIGGER "result_selections_no_truncate" BEFORE TRUNCATE ON "result_selections"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "action_interest_receipts_append_only" BEFORE UPDATE OR DELETE ON "action_interest_receipts"
FOR EACH ROW EXECUTE FUNCTION append_only_guard('expires_at');--> statement-breakpoint
CREATE TRIGGER "action_interest_receipts_no_truncate" BEFORE TRUNCATE ON "action_interest_receipts"
FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();--> statement-breakpoint
CREATE TRIGGER "search_offer_disclosures_no_update" BEFORE UPDATE ON "search_offer_disclosures"
FOR EACH ROW EXECUTE FUNCTION refuse_change_of_append_only();--> statement-breakpoint

-- The daily demand rows, as before; a selection or interest finds its result by the whole key
-- (with the expiry), so the lookup reads one day's partition.
CREATE OR REPLACE FUNCTION demand_daily_add_selections() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A selection counts on its source search's day, surface and topic (the cohort of the window).
  INSERT INTO demand_daily AS d (domain, day, surface, topic, results, position_sum, selections, expires_at)
  SELECT r.domain, (r.created_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.topic,
         0, 0, count(*)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows s
    JOIN search_receipt_results r ON r.search_id = s.search_id AND r.domain = s.domain AND r.expires_at = s.expires_at
   WHERE NOT s.synthetic AND NOT r.synthetic
   GROUP BY r.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (domain, day, surface, topic) DO UPDATE SET selections = d.selections + excluded.selections;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION demand_daily_add_interests() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO demand_daily_interests AS d (domain, day, surface, topic, action_type, interests, expires_at)
  SELECT r.domain, (r.created_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.topic, a.action_type,
         count(*)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows a
    JOIN search_receipt_results r ON r.search_id = a.search_id AND r.domain = a.domain AND r.expires_at = a.expires_at
   WHERE NOT r.synthetic
   GROUP BY r.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic, a.action_type
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (domain, day, surface, topic, action_type) DO UPDATE SET interests = d.interests + excluded.interests;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "search_receipt_results_demand_daily" AFTER INSERT ON "search_receipt_results"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_daily_add_results();--> statement-breakpoint
CREATE TRIGGER "result_selections_demand_daily" AFTER INSERT ON "result_selections"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_daily_add_selections();--> statement-breakpoint
CREATE TRIGGER "action_interest_receipts_demand_daily" AFTER INSERT ON "action_interest_receipts"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_daily_add_interests();--> statement-breakpoint

-- 6. The bounded row purge, for what the partitions do not take at once (the current day's
-- partition as its rows expire, the DEFAULT partitions): a row is named by its partition
-- (tableoid) and its place in it (ctid), since a ctid alone repeats across partitions.
CREATE OR REPLACE FUNCTION retention_purge(batch_limit integer)
RETURNS TABLE (table_name text, deleted bigint)
LANGUAGE plpgsql AS $$
DECLARE
  rule record;
  removed bigint;
BEGIN
  IF batch_limit IS NULL OR batch_limit < 1 OR batch_limit > 100000 THEN
    RAISE EXCEPTION 'batch_limit must be from 1 to 100000, not %', batch_limit;
  END IF;
  FOR rule IN SELECT r.table_name, r.expiry_column FROM retention_rules r ORDER BY r.purge_order LOOP
    PERFORM set_config('svc.retention_purge', 'on', true);
    EXECUTE format(
      'WITH doomed AS (SELECT tableoid, ctid FROM %I WHERE %I <= now() LIMIT %s FOR UPDATE SKIP LOCKED)
       DELETE FROM %I AS t USING doomed WHERE t.tableoid = doomed.tableoid AND t.ctid = doomed.ctid',
      rule.table_name, rule.expiry_column, batch_limit, rule.table_name);
    GET DIAGNOSTICS removed = ROW_COUNT;
    PERFORM set_config('svc.retention_purge', '', true);
    table_name := rule.table_name;
    deleted := removed;
    RETURN NEXT;
  END LOOP;
END;
$$;
