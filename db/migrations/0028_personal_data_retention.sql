-- Every kind of personal data has a written retention and a job that enforces it (docs/privacy-
-- retention.md, and the table on /privacy). The receipt family and the ticket intents leave through
-- retention_purge() and the day partitions (0017, 0022, 0027); this migration adds the rest:
--   sign-in tokens          1 day after they expire (they live 15 minutes; the day keeps the per-address
--                           rate limit's recent tokens)
--   sessions                1 day after they ended or expired, whichever came first
--   unconfirmed addresses   30 days after the later of registration and the last confirmation mail
--                           (monitor_subscribers never confirmed, with their monitors, by cascade)
--   unsubscribed monitors   30 days after the unsubscribe (with their tokens and alerts, by cascade)
--   addresses left with no monitor, 30 days after registration
--   crawl requests          30 days after they were queued (they only serve the one-hour dedupe)
-- Money records (orders, charges, the charge ledger, tickets, handoffs, outcomes) and accounts are
-- kept, as documented. Deadlines are judged by the database's now().

CREATE INDEX "sign_in_tokens_expiry" ON "sign_in_tokens" ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_due" ON "sessions" ((LEAST("ended_at", "expires_at")));--> statement-breakpoint
CREATE INDEX "monitors_unsubscribed" ON "monitors" ("unsubscribed_at") WHERE "unsubscribed_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "monitor_subscribers_unconfirmed" ON "monitor_subscribers" ((GREATEST("created_at", "confirmation_sent_at")))
  WHERE "confirmed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "crawl_requests_queued" ON "crawl_requests" ("queued_at");--> statement-breakpoint

-- When each kind of row is due to be gone: the one definition the purge and the alarm share.
-- (GREATEST and LEAST ignore a null argument.)
CREATE VIEW "personal_data_due" AS
  SELECT 'sign_in_tokens'::text AS material, min("expires_at") + interval '1 day' AS oldest_due FROM "sign_in_tokens"
  UNION ALL
  SELECT 'sessions', min(LEAST("ended_at", "expires_at")) + interval '1 day' FROM "sessions"
  UNION ALL
  SELECT 'unconfirmed_monitor_addresses', min(GREATEST("created_at", "confirmation_sent_at")) + interval '30 days'
    FROM "monitor_subscribers" WHERE "confirmed_at" IS NULL
  UNION ALL
  SELECT 'unsubscribed_monitors', min("unsubscribed_at") + interval '30 days' FROM "monitors" WHERE "unsubscribed_at" IS NOT NULL
  UNION ALL
  SELECT 'crawl_requests', min("queued_at") + interval '30 days' FROM "crawl_requests";--> statement-breakpoint

-- Deletes at most batch_limit rows of each kind whose deadline has passed, and says how many.
-- These tables grow with people, not with searches, so bounded rounds keep up; rows another run
-- holds are skipped. Called in rounds like retention_purge (src/domain/retention/).
CREATE FUNCTION personal_data_purge(batch_limit integer)
RETURNS TABLE (material text, deleted bigint)
LANGUAGE plpgsql AS $$
DECLARE
  removed bigint;
BEGIN
  IF batch_limit IS NULL OR batch_limit < 1 OR batch_limit > 100000 THEN
    RAISE EXCEPTION 'batch_limit must be from 1 to 100000, not %', batch_limit;
  END IF;

  DELETE FROM sign_in_tokens t USING (
    SELECT token_sha256 FROM sign_in_tokens WHERE expires_at + interval '1 day' <= now()
    LIMIT batch_limit FOR UPDATE SKIP LOCKED) d
  WHERE t.token_sha256 = d.token_sha256;
  GET DIAGNOSTICS removed = ROW_COUNT;
  material := 'sign_in_tokens'; deleted := removed; RETURN NEXT;

  DELETE FROM sessions t USING (
    SELECT id FROM sessions WHERE LEAST(ended_at, expires_at) + interval '1 day' <= now()
    LIMIT batch_limit FOR UPDATE SKIP LOCKED) d
  WHERE t.id = d.id;
  GET DIAGNOSTICS removed = ROW_COUNT;
  material := 'sessions'; deleted := removed; RETURN NEXT;

  -- Never confirmed: the address, its monitors, their tokens and alerts (ON DELETE CASCADE).
  DELETE FROM monitor_subscribers t USING (
    SELECT email FROM monitor_subscribers
     WHERE confirmed_at IS NULL AND GREATEST(created_at, confirmation_sent_at) + interval '30 days' <= now()
    LIMIT batch_limit FOR UPDATE SKIP LOCKED) d
  WHERE t.email = d.email;
  GET DIAGNOSTICS removed = ROW_COUNT;
  material := 'unconfirmed_monitor_addresses'; deleted := removed; RETURN NEXT;

  -- Unsubscribed a while ago: the monitor, its tokens and alerts (a new registration starts afresh).
  DELETE FROM monitors t USING (
    SELECT id FROM monitors WHERE unsubscribed_at + interval '30 days' <= now()
    LIMIT batch_limit FOR UPDATE SKIP LOCKED) d
  WHERE t.id = d.id;
  GET DIAGNOSTICS removed = ROW_COUNT;
  material := 'unsubscribed_monitors'; deleted := removed; RETURN NEXT;

  -- A confirmed address none of whose monitors is left: nothing is sent to it any more.
  DELETE FROM monitor_subscribers t USING (
    SELECT s.email FROM monitor_subscribers s
     WHERE s.created_at + interval '30 days' <= now()
       AND NOT EXISTS (SELECT 1 FROM monitors m WHERE m.email = s.email)
    LIMIT batch_limit FOR UPDATE SKIP LOCKED) d
  WHERE t.email = d.email;
  GET DIAGNOSTICS removed = ROW_COUNT;
  material := 'monitor_addresses_without_monitors'; deleted := removed; RETURN NEXT;

  DELETE FROM crawl_requests t USING (
    SELECT domain FROM crawl_requests WHERE queued_at + interval '30 days' <= now()
    LIMIT batch_limit FOR UPDATE SKIP LOCKED) d
  WHERE t.domain = d.domain;
  GET DIAGNOSTICS removed = ROW_COUNT;
  material := 'crawl_requests'; deleted := removed; RETURN NEXT;
END;
$$;
--> statement-breakpoint

-- The alarm's one query (GET /healthz, `npm run operator -- retention-status`): for each kind of
-- material, when its oldest row was due to be gone, if that moment has passed. Every minimum
-- reads one end of an index (on the partitioned tables, of each partition's index).
CREATE FUNCTION retention_overdue()
RETURNS TABLE (material text, oldest_due timestamptz)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  rule record;
  due timestamptz;
BEGIN
  FOR rule IN SELECT r.table_name, r.expiry_column FROM retention_rules r ORDER BY r.purge_order LOOP
    EXECUTE format('SELECT min(%I) FROM %I', rule.expiry_column, rule.table_name) INTO due;
    IF due <= now() THEN
      material := rule.table_name; oldest_due := due; RETURN NEXT;
    END IF;
  END LOOP;
  RETURN QUERY SELECT p.material, p.oldest_due FROM personal_data_due p WHERE p.oldest_due <= now();
END;
$$;
