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

/** How many UTC days of expiry ahead the partitions are kept made (a receipt expires in 30). */
export const PARTITION_DAYS_AHEAD = 40;

/**
 * Makes the receipt family's partitions for the days of expiry from today to `daysAhead` days on,
 * by the database's clock (retention_ensure_partitions, db/migrations/0027_receipt_partitions.sql);
 * returns how many it made. Idempotent: a day that has its partitions is left alone.
 */
export async function ensurePartitions({
  db,
  daysAhead = PARTITION_DAYS_AHEAD,
}: {
  db: Database;
  daysAhead?: number;
}): Promise<number> {
  const result = await db.execute(sql`select retention_ensure_partitions(${daysAhead}::int) as made`);
  return Number((result.rows[0] as { made: number | string } | undefined)?.made ?? 0);
}

export interface DroppedPartition {
  table: string;
  partition: string;
  /** The UTC day of expiry the partition held. */
  day: string;
}

/**
 * Detaches and drops every partition whose whole day of expiry has passed by the database's now():
 * a day's receipts (with their results, held in the receipt row), selections, interests and
 * disclosures leave in one statement each, whatever the day's traffic
 * (retention_drop_expired_partitions). One statement, one transaction.
 */
export async function dropExpiredPartitions({ db }: { db: Database }): Promise<DroppedPartition[]> {
  const result = await db.execute(
    sql`select table_name, partition_name, day::text as day from retention_drop_expired_partitions()`,
  );
  return (result.rows as { table_name: string; partition_name: string; day: string }[]).map((row) => ({
    table: row.table_name,
    partition: row.partition_name,
    day: row.day,
  }));
}

/**
 * Deletes every expired daily demand row, whatever their number, in one statement per table
 * (demand_daily_expire, db/migrations/0034_compact_receipt_results.sql): a day's rows all expire at
 * once, and their number grows with the distinct domains returned that day (up to 78 cells a
 * domain), so a bounded purge could fall behind. Returns the rows deleted per table.
 */
export async function expireDemandDays({ db }: { db: Database }): Promise<Record<string, number>> {
  const result = await db.execute(sql`select table_name, deleted from demand_daily_expire()`);
  return Object.fromEntries(
    (result.rows as { table_name: string; deleted: number | string }[]).map((row) => [
      row.table_name,
      Number(row.deleted),
    ]),
  );
}

export interface RetentionRunSummary {
  partitionsMade: number;
  partitionsDropped: DroppedPartition[];
  /** Expired daily demand rows deleted, per table (all of them: not bounded). */
  demandExpired: Record<string, number>;
  purge: PurgeSummary;
  personalData: PurgeSummary;
}

/**
 * One run of the retention job: partitions made ahead, whole expired days dropped, every expired
 * daily demand row deleted, then the bounded row purge for what is left (rows expired earlier today, DEFAULT partitions, tables that
 * are not partitioned), then the other personal data past its retention. Each step is its own
 * transaction; a failure to make or drop partitions does not stop the purges (and the health
 * report's retention alarm shows what is left behind).
 */
export async function runRetention({ db }: { db: Database }): Promise<RetentionRunSummary> {
  const partitionsMade = await ensurePartitions({ db }).catch((error) => {
    console.error("retention: making partitions ahead failed", String(error));
    return 0;
  });
  const partitionsDropped = await dropExpiredPartitions({ db }).catch((error) => {
    console.error("retention: dropping expired partitions failed", String(error));
    return [] as DroppedPartition[];
  });
  const demandExpired = await expireDemandDays({ db }).catch((error) => {
    console.error("retention: expiring the daily demand rows failed", String(error));
    return {};
  });
  const purge = await purgeExpired({ db });
  const personalData = await purgePersonalData({ db });
  return { partitionsMade, partitionsDropped, demandExpired, purge, personalData };
}

/**
 * Deletes the personal data past its written retention that is not in the receipt family: old
 * sign-in tokens and sessions, never-confirmed monitor addresses, unsubscribed monitors, addresses
 * left without a monitor and old crawl requests (personal_data_purge, db/migrations/0028). These
 * grow with people, not searches: rounds of `batchLimit` rows per kind, as purgeExpired.
 */
export async function purgePersonalData({
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
    const result = await db.execute(sql`select material, deleted from personal_data_purge(${batchLimit}::int)`);
    rounds++;
    more = false;
    for (const row of result.rows as { material: string; deleted: number | string }[]) {
      const count = Number(row.deleted);
      deleted[row.material] = (deleted[row.material] ?? 0) + count;
      if (count >= batchLimit) more = true;
    }
  }
  return { rounds, deleted, more };
}
