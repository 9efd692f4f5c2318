-- Append-only receipts and their one exception: the retention purge (docs/demand.md, "Retention").
--
-- append_only_guard(expiry_column) refuses every UPDATE and DELETE on the table it guards, except
-- a DELETE made inside retention_purge() of a row whose expiry has passed. TRUNCATE is refused
-- by append_only_truncate_guard().
--
-- Adding a table to the purge is one entry: a row in retention_rules naming the table and its
-- expiry column (plus the two guard triggers every append-only table carries anyway):
--   INSERT INTO retention_rules (table_name, expiry_column, purge_order) VALUES ('handoff_receipts', 'expires_at', 40);
--   CREATE TRIGGER handoff_receipts_append_only BEFORE UPDATE OR DELETE ON handoff_receipts
--     FOR EACH ROW EXECUTE FUNCTION append_only_guard('expires_at');
--   CREATE TRIGGER handoff_receipts_no_truncate BEFORE TRUNCATE ON handoff_receipts
--     FOR EACH STATEMENT EXECUTE FUNCTION append_only_truncate_guard();

CREATE FUNCTION append_only_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- svc.retention_purge is set (transaction-local) only by retention_purge() while it deletes,
  -- and even then only rows already past their expiry may go.
  IF TG_OP = 'DELETE'
     AND current_setting('svc.retention_purge', true) = 'on'
     AND (to_jsonb(OLD) ->> TG_ARGV[0])::timestamptz <= now() THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege', HINT = 'Expired rows leave only through retention_purge().';
END;
$$;
--> statement-breakpoint
CREATE FUNCTION append_only_truncate_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: TRUNCATE refused', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
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

-- What the purge deletes, in purge_order. A table's dependent rows (ON DELETE CASCADE children
-- carrying the same expiry, like search_receipt_results) go with it and need no entry.
CREATE TABLE "retention_rules" (
  "table_name" text PRIMARY KEY,
  "expiry_column" text NOT NULL,
  "purge_order" smallint NOT NULL UNIQUE,
  CONSTRAINT "retention_rules_table_exists" CHECK (to_regclass("table_name") IS NOT NULL)
);--> statement-breakpoint
-- Children first (each by its own expiry index), then the searches they hang on.
INSERT INTO "retention_rules" ("table_name", "expiry_column", "purge_order") VALUES
  ('action_interest_receipts', 'expires_at', 10),
  ('result_selections', 'expires_at', 20),
  ('search_receipts', 'expires_at', 30);--> statement-breakpoint

-- Deletes at most batch_limit expired rows of each table in retention_rules (their cascaded
-- children with them) and says how many per table. Rows another run is deleting are skipped
-- (SKIP LOCKED), so two runs at once never wait on or repeat each other. Called until a round
-- deletes fewer than batch_limit rows of every table (src/domain/retention/purge-expired.ts).
CREATE FUNCTION retention_purge(batch_limit integer)
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
      'WITH doomed AS (SELECT ctid FROM %I WHERE %I <= now() LIMIT %s FOR UPDATE SKIP LOCKED)
       DELETE FROM %I AS t USING doomed WHERE t.ctid = doomed.ctid',
      rule.table_name, rule.expiry_column, batch_limit, rule.table_name);
    GET DIAGNOSTICS removed = ROW_COUNT;
    PERFORM set_config('svc.retention_purge', '', true);
    table_name := rule.table_name;
    deleted := removed;
    RETURN NEXT;
  END LOOP;
END;
$$;
