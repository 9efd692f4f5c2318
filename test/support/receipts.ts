/**
 * Search receipts written straight to the database, at any age: receipts are append-only (the
 * database refuses to update them), so a test wanting an old or expired one inserts it so.
 */
import { sqlRows } from "./sites.ts";

export const DAY_SECONDS = 86_400;

export interface ReceiptBatch {
  /** The domain each receipt returned (one result per receipt). */
  domain: string;
  count: number;
  /**
   * How long ago the searches happened (default 0: now). Demand counts by UTC day, so a case
   * that depends on the day uses whole days (the same time of day, that many days back); past
   * 30 days a receipt has expired.
   */
  ageSeconds?: number;
  surface?: "web" | "rest" | "mcp";
  topic?: string;
  synthetic?: boolean;
  /** The domain's organic position in each. Default 1. */
  position?: number;
  /** How many of them (the first ones) also have a result selection. */
  selections?: number;
  /** How many of them (the first ones) also have an action interest of `actionType`. */
  interests?: number;
  actionType?: string;
}

/**
 * Inserts `count` receipts that returned `domain`, with the given selections and interests, in
 * one statement; returns their search ids. Each receipt and its rows share one expiry, 30 days
 * after the search, as the service writes them.
 */
export async function insertReceipts(batch: ReceiptBatch): Promise<string[]> {
  const rows = await sqlRows<{ search_id: string }>(
    `with made as (
       select substr(replace(gen_random_uuid()::text, '-', ''), 1, 22) as search_id, g,
              now() - make_interval(secs => $3) as created_at
         from generate_series(1, $2::int) g
     ), receipts as (
       insert into search_receipts (search_id, surface, synthetic, topic, result_count, result_domains, first_position,
                                    created_at, expires_at)
       select search_id, $4, $5, $6, 1, array[$1::text], $7, created_at, created_at + interval '30 days' from made
       returning search_id
     ), selected as (
       insert into result_selections (search_id, domain, synthetic, created_at, expires_at)
       select search_id, $1, $5, created_at, created_at + interval '30 days' from made where g <= $8
     ), interested as (
       insert into action_interest_receipts (search_id, domain, action_type, confirmation_version, created_at, expires_at)
       select search_id, $1, $10, 'svc-action-interest-v1', created_at, created_at + interval '30 days'
         from made where g <= $9
     )
     select search_id from receipts`,
    [
      batch.domain,
      batch.count,
      batch.ageSeconds ?? 0,
      batch.surface ?? "rest",
      batch.synthetic ?? false,
      batch.topic ?? "other",
      batch.position ?? 1,
      batch.selections ?? 0,
      batch.interests ?? 0,
      batch.actionType ?? "quote",
    ],
  );
  return rows.map((row) => row.search_id);
}
