-- Demand by UTC day (db/schema/demand.ts), kept by statement-level triggers on the receipt
-- family, so GET /provider/demand reads at most days x surfaces x topics rows per domain.
-- Synthetic traffic is never added. Rows are upserted in key order, so concurrent searches
-- returning overlapping domains take their row locks in one order and cannot deadlock.
-- A day's row expires when no window can hold it any more: 31 days after its UTC midnight (the
-- last raw row of that day expired a day earlier); the retention purge deletes it then.

CREATE FUNCTION demand_day_expiry(day date) RETURNS timestamptz
LANGUAGE sql IMMUTABLE AS $$ SELECT ((day + 31)::timestamp AT TIME ZONE 'UTC') $$;
--> statement-breakpoint
CREATE FUNCTION demand_daily_add_results() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO demand_daily AS d (domain, day, surface, topic, results, position_sum, selections, expires_at)
  SELECT n.domain, (n.created_at AT TIME ZONE 'UTC')::date AS day, n.surface, n.topic,
         count(*)::int, sum(n.position)::bigint, 0, demand_day_expiry((n.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows n
   WHERE NOT n.synthetic
   GROUP BY n.domain, (n.created_at AT TIME ZONE 'UTC')::date, n.surface, n.topic
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (domain, day, surface, topic) DO UPDATE
    SET results = d.results + excluded.results, position_sum = d.position_sum + excluded.position_sum;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION demand_daily_add_selections() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A selection counts on its source search's day, surface and topic (the cohort of the window).
  INSERT INTO demand_daily AS d (domain, day, surface, topic, results, position_sum, selections, expires_at)
  SELECT r.domain, (r.created_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.topic,
         0, 0, count(*)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows s
    JOIN search_receipt_results r ON r.search_id = s.search_id AND r.domain = s.domain
   WHERE NOT s.synthetic AND NOT r.synthetic
   GROUP BY r.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (domain, day, surface, topic) DO UPDATE SET selections = d.selections + excluded.selections;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE FUNCTION demand_daily_add_interests() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO demand_daily_interests AS d (domain, day, surface, topic, action_type, interests, expires_at)
  SELECT r.domain, (r.created_at AT TIME ZONE 'UTC')::date AS day, r.surface, r.topic, a.action_type,
         count(*)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
    FROM new_rows a
    JOIN search_receipt_results r ON r.search_id = a.search_id AND r.domain = a.domain
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

-- What was recorded before the triggers existed.
INSERT INTO demand_daily (domain, day, surface, topic, results, position_sum, selections, expires_at)
SELECT r.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic, count(*)::int, sum(r.position)::bigint,
       count(s.search_id)::int, demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
  FROM search_receipt_results r
  LEFT JOIN result_selections s ON s.search_id = r.search_id AND s.domain = r.domain AND NOT s.synthetic
 WHERE NOT r.synthetic AND r.expires_at > now()
 GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO demand_daily_interests (domain, day, surface, topic, action_type, interests, expires_at)
SELECT r.domain, (r.created_at AT TIME ZONE 'UTC')::date, r.surface, r.topic, a.action_type, count(*)::int,
       demand_day_expiry((r.created_at AT TIME ZONE 'UTC')::date)
  FROM action_interest_receipts a
  JOIN search_receipt_results r ON r.search_id = a.search_id AND r.domain = a.domain
 WHERE NOT r.synthetic AND r.expires_at > now()
 GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint

-- The daily rows leave with the retention purge too (they carry no guard: they are counters).
INSERT INTO "retention_rules" ("table_name", "expiry_column", "purge_order") VALUES
  ('demand_daily_interests', 'expires_at', 40),
  ('demand_daily', 'expires_at', 50);
