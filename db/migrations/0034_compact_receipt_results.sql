-- Storage that fits (docs/demand.md, "What a receipt costs"): a search's returned organic results
-- move from one row each in search_receipt_results (20 rows a search: 200 million rows a day at 10
-- million searches a day) into the receipt row itself: search_receipts.result_domains, the domains
-- in order, and first_position, the absolute position of the first (a later page starts further
-- down), so result i (1-based) was at position first_position + i - 1.
--
-- What the one-row-per-result table guaranteed, the receipt row keeps:
--   - the list is exact: as many domains as result_count, none empty, none twice (a CHECK);
--   - a selection, an action interest or an offer disclosure must name a domain its receipt
--     returned: a foreign key (search_id, expires_at) to the receipt, ON DELETE CASCADE, between
--     each day's partitions as before, plus a row trigger that refuses, as a foreign-key violation
--     (SQLSTATE 23503), a domain not in the receipt's list; the lookup reads one primary-key entry
--     of one day's partition, as the foreign key to the result row did;
--   - the append-only guards: search_receipts keeps its own; search_receipt_results becomes a view
--     of the receipts' lists (for operators and tests), through which every change is refused;
--   - the demand figures: the daily rows are added from the inserted receipts' lists, with the same
--     counts and position sums, and selections and interests take their cohort from the receipt.
-- And the daily demand rows (demand_daily, demand_daily_interests), whose count per day grows with
-- the number of domains returned, leave all at once when their day expires (section 5).
-- Hand-written (drizzle cannot express the partitions, the triggers or the view); the snapshot
-- carries the columns and keys.

-- 1. The receipt row gains the list; existing results are moved into it.
ALTER TABLE "search_receipts" ADD COLUMN "result_domains" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "search_receipts" ADD COLUMN "first_position" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
DO $$
BEGIN
  -- Positions were always written consecutively (the page's first position, then +1 each): a
  -- receipt whose stored positions are not would lose them in a list, so it stops the migration.
  IF EXISTS (
    SELECT 1 FROM "search_receipt_results"
     GROUP BY "search_id", "expires_at"
    HAVING max("position") - min("position") + 1 <> count(*)
  ) THEN
    RAISE EXCEPTION 'a search receipt has results at non-consecutive positions: cannot be stored as a list';
  END IF;
END;
$$;--> statement-breakpoint
-- The move rewrites each receipt once; the append-only guard is off for that statement alone
-- (ALTER TABLE holds the table's exclusive lock until the migration commits).
ALTER TABLE "search_receipts" DISABLE TRIGGER "search_receipts_append_only";--> statement-breakpoint
UPDATE "search_receipts" AS r
   SET "result_domains" = x."domains", "first_position" = x."first_position"
  FROM (
    SELECT "search_id", "expires_at", array_agg("domain" ORDER BY "position") AS "domains",
           min("position") AS "first_position"
      FROM "search_receipt_results"
     GROUP BY "search_id", "expires_at"
  ) AS x
 WHERE r."search_id" = x."search_id" AND r."expires_at" = x."expires_at";--> statement-breakpoint
ALTER TABLE "search_receipts" ENABLE TRIGGER "search_receipts_append_only";--> statement-breakpoint
ALTER TABLE "search_receipts" ALTER COLUMN "result_domains" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "search_receipts" ALTER COLUMN "first_position" DROP DEFAULT;--> statement-breakpoint

-- An exact list: one dimension from subscript 1, no NULL entry, no domain twice.
CREATE FUNCTION receipt_domains_exact(domains text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_ndims(domains), 1) = 1
     AND coalesce(array_lower(domains, 1), 1) = 1
     AND array_position(domains, NULL) IS NULL
     AND (SELECT count(DISTINCT d) = count(*) FROM unnest(domains) AS d)
$$;
--> statement-breakpoint
ALTER TABLE "search_receipts" ADD CONSTRAINT "search_receipts_first_position_positive" CHECK ("first_position" >= 1);--> statement-breakpoint
ALTER TABLE "search_receipts" ADD CONSTRAINT "search_receipts_result_domains_exact"
  CHECK (cardinality("result_domains") = "result_count" AND receipt_domains_exact("result_domains"));--> statement-breakpoint

-- 2. What referenced a result row references its receipt (same day's partition, same cascade).
UPDATE "retention_partitions" SET "references_table" = 'search_receipts', "key_columns" = 'search_id, expires_at'
 WHERE "references_table" = 'search_receipt_results';--> statement-breakpoint
DELETE FROM "retention_partitions" WHERE "table_name" = 'search_receipt_results';--> statement-breakpoint
-- With its partitions, its triggers and the foreign keys of the partitions that referenced it.
DROP TABLE "search_receipt_results" CASCADE;--> statement-breakpoint
DO $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT p."table_name", substr(c.relname, length(p."table_name") + 1) AS suffix
      FROM "retention_partitions" p
      JOIN pg_inherits i ON i.inhparent = to_regclass(p."table_name")
      JOIN pg_class c ON c.oid = i.inhrelid
     WHERE p."references_table" IS NOT NULL
     ORDER BY 1, 2
  LOOP
    PERFORM retention_link_partition(part."table_name", part.suffix);
  END LOOP;
END;
$$;--> statement-breakpoint

-- 3. The rest of the old foreign key: the receipt returned that domain. Checked after the row is
-- in (like a foreign key), so a statement writing a receipt and what hangs on it together passes.
CREATE FUNCTION receipt_result_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM search_receipts r
     WHERE r.search_id = NEW.search_id AND r.expires_at = NEW.expires_at AND NEW.domain = ANY (r.result_domains)
  ) THEN
    RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', TG_TABLE_NAME, TG_ARGV[0]
      USING ERRCODE = 'foreign_key_violation', CONSTRAINT = TG_ARGV[0], TABLE = TG_TABLE_NAME,
            DETAIL = format('Key (search_id, domain, expires_at)=(%s, %s, %s) is not a result of any search receipt.',
                            NEW.search_id, NEW.domain, NEW.expires_at);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "result_selections_result_fk" AFTER INSERT OR UPDATE ON "result_selections"
FOR EACH ROW EXECUTE FUNCTION receipt_result_check('result_selections_result_fk');--> statement-breakpoint
CREATE TRIGGER "action_interest_receipts_result_fk" AFTER INSERT OR UPDATE ON "action_interest_receipts"
FOR EACH ROW EXECUTE FUNCTION receipt_result_check('action_interest_receipts_result_fk');--> statement-breakpoint
CREATE TRIGGER "search_offer_disclosures_result_fk" AFTER INSERT OR UPDATE ON "search_offer_disclosures"
FOR EACH ROW EXECUTE FUNCTION receipt_result_check('search_offer_disclosures_result_fk');--> statement-breakpoint

-- 4. The results one row each, read from the lists; nothing can be changed through it.
CREATE VIEW "search_receipt_results" AS
SELECT r."search_id", x."domain", (r."first_position" + x."ordinality" - 1)::integer AS "position",
       r."surface", r."topic", r."synthetic", r."created_at", r."expires_at"
  FROM "search_receipts" r
  CROSS JOIN LATERAL unnest(r."result_domains") WITH ORDINALITY AS x("domain", "ordinality");--> statement-breakpoint
CREATE FUNCTION search_receipt_results_refuse() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'search_receipt_results is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'A search''s results are written with its receipt (search_receipts.result_domains) and leave with it.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "search_receipt_results_append_only" INSTEAD OF INSERT OR UPDATE OR DELETE ON "search_receipt_results"
FOR EACH ROW EXECUTE FUNCTION search_receipt_results_refuse();--> statement-breakpoint

-- 5. The daily demand rows leave all at once. Their number a day is not bounded by the topics
-- but by the distinct (domain, surface, topic) cells a day's results name, up to 78 per domain
-- returned that day: millions a day once the index is large, past the bounded row purge's 100,000
-- a day, which would then fall behind. Every row of one day expires at the same instant
-- (demand_day_expiry(day)), so one DELETE per table takes all that have expired, by the expiry
-- index; its cost is that day's cells (measured in docs/benchmarks.md), never a backlog. (Day
-- partitions like the receipts' were tried: a demand answer then plans ~32 partitions per table,
-- 3 to 5 times its time on the embedded database.) The job calls it before the row purge.
CREATE FUNCTION demand_daily_expire()
RETURNS TABLE (table_name text, deleted bigint)
LANGUAGE plpgsql AS $$
DECLARE
  removed bigint;
BEGIN
  DELETE FROM demand_daily_interests WHERE expires_at <= now();
  GET DIAGNOSTICS removed = ROW_COUNT;
  table_name := 'demand_daily_interests'; deleted := removed; RETURN NEXT;
  DELETE FROM demand_daily WHERE expires_at <= now();
  GET DIAGNOSTICS removed = ROW_COUNT;
  table_name := 'demand_daily'; deleted := removed; RETURN NEXT;
END;
$$;
--> statement-breakpoint

-- 6. The daily demand rows, the same figures from the new storage: results from the inserted
-- receipts' lists, selections and interests with their receipt's cohort.
CREATE OR REPLACE FUNCTION demand_daily_add_results() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO demand_daily AS d (domain, day, surface, topic, results, position_sum, selections, expires_at)
  SELECT x.domain, (n.created_at AT TIME ZONE 'UTC')::date AS day, n.surface, n.topic,
         count(*)::int, sum(n.first_position + x.ordinality - 1)::bigint, 0,
         demand_day_expiry((n.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows n
    CROSS JOIN LATERAL unnest(n.result_domains) WITH ORDINALITY AS x(domain, ordinality)
   WHERE NOT n.synthetic
   GROUP BY x.domain, (n.created_at AT TIME ZONE 'UTC')::date, n.surface, n.topic
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (domain, day, surface, topic) DO UPDATE
    SET results = d.results + excluded.results, position_sum = d.position_sum + excluded.position_sum;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION demand_daily_add_selections() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A selection counts on its source search's day, surface and topic (the cohort of the window).
  INSERT INTO demand_daily AS d (domain, day, surface, topic, results, position_sum, selections, expires_at)
  SELECT s.domain, (r.created_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.topic,
         0, 0, count(*)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows s
    JOIN search_receipts r ON r.search_id = s.search_id AND r.expires_at = s.expires_at
   WHERE NOT s.synthetic AND NOT r.synthetic
   GROUP BY s.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic
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
  SELECT a.domain, (r.created_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.topic, a.action_type,
         count(*)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows a
    JOIN search_receipts r ON r.search_id = a.search_id AND r.expires_at = a.expires_at
   WHERE NOT r.synthetic
   GROUP BY a.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic, a.action_type
   ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (domain, day, surface, topic, action_type) DO UPDATE
    SET interests = d.interests + excluded.interests;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "search_receipts_demand_daily" AFTER INSERT ON "search_receipts"
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION demand_daily_add_results();
