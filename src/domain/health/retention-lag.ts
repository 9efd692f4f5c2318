/**
 * The alarm for the retention promise: how long the oldest record that should be gone by now has
 * been overdue (retention_overdue(), db/migrations/0028_personal_data_retention.sql). A day's
 * receipts leave when their whole day of expiry is over and the daily job (03:40 UTC) has run, so
 * in normal running a record is overdue by at most 27 h 40 min; past RETENTION_GRACE_SECONDS the
 * job has missed a run or failed, and the promise is being broken.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";

/** 36 hours: longer than the normal worst case (27 h 40 min), shorter than one missed daily run. */
export const RETENTION_GRACE_SECONDS = 36 * 3600;

export interface RetentionLag {
  /** ok: nothing overdue beyond the grace; behind: something is; unknown: the check failed. */
  status: "ok" | "behind" | "unknown";
  /** Seconds since the oldest overdue record was due to be gone; null when nothing is overdue or unknown. */
  oldest_overdue_seconds: number | null;
  /** Which material that record is (a table or a kind of personal data); null when none. */
  oldest_overdue_material: string | null;
  grace_seconds: number;
}

/** Reads the overdue ages by the database's clock; never throws (a failure is `unknown`). */
export async function checkRetentionLag(db: Database, timeoutMs: number): Promise<RetentionLag> {
  const unknown: RetentionLag = {
    status: "unknown",
    oldest_overdue_seconds: null,
    oldest_overdue_material: null,
    grace_seconds: RETENTION_GRACE_SECONDS,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
  });
  try {
    const result = await Promise.race([
      db.execute(sql`
        select material, floor(extract(epoch from now() - oldest_due))::bigint as overdue_seconds
          from retention_overdue() order by oldest_due, material limit 1`),
      deadline,
    ]);
    const row = result.rows[0] as { material: string; overdue_seconds: number | string } | undefined;
    if (!row) return { ...unknown, status: "ok" };
    const seconds = Number(row.overdue_seconds);
    return {
      status: seconds > RETENTION_GRACE_SECONDS ? "behind" : "ok",
      oldest_overdue_seconds: seconds,
      oldest_overdue_material: row.material,
      grace_seconds: RETENTION_GRACE_SECONDS,
    };
  } catch {
    return unknown;
  } finally {
    clearTimeout(timer);
  }
}
