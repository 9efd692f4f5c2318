/**
 * The retention purge: deletes what is past its documented retention (30 days for demand
 * material) through retention_purge(), the one exception to the append-only guards. Which
 * tables, and by which expiry column, is the database's retention_rules table
 * (db/migrations/0010_demand_retention_guards.sql): adding a table is one row there.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";

/** Rows per table per round: one statement's worth, short enough not to hold locks for long. */
export const RETENTION_BATCH_LIMIT = 2000;
/** Rounds per run: a run deletes at most this many batches per table, the next run goes on. */
export const RETENTION_MAX_ROUNDS = 50;

export interface PurgeSummary {
  rounds: number;
  /** Rows deleted per table (not counting cascaded children). */
  deleted: Record<string, number>;
  /** True when the last round was full: more expired rows may remain for the next run. */
  more: boolean;
}

/**
 * Purges expired rows in bounded batches: rounds of at most `batchLimit` rows per table, until a
 * round finds less than a full batch everywhere or `maxRounds` is reached. Each round is one
 * statement (its own transaction); two runs at once skip each other's rows.
 */
export async function purgeExpired({
  db,
  batchLimit = RETENTION_BATCH_LIMIT,
  maxRounds = RETENTION_MAX_ROUNDS,
}: {
  db: Database;
  batchLimit?: number;
  maxRounds?: number;
}): Promise<PurgeSummary> {
  const deleted: Record<string, number> = {};
  let rounds = 0;
  let more = true;
  while (more && rounds < maxRounds) {
    const result = await db.execute(sql`select table_name, deleted from retention_purge(${batchLimit}::int)`);
    rounds++;
    more = false;
    for (const row of result.rows as { table_name: string; deleted: number | string }[]) {
      const count = Number(row.deleted);
      deleted[row.table_name] = (deleted[row.table_name] ?? 0) + count;
      if (count >= batchLimit) more = true;
    }
  }
  return { rounds, deleted, more };
}
