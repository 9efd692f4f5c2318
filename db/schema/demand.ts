/**
 * Demand by UTC day, kept by triggers as receipts, selections and interests are written
 * (db/migrations/0012_demand_daily_guards.sql): what GET /provider/demand reads, so its cost is
 * bounded by days x surfaces x topics, whatever a domain's volume. Synthetic traffic is never
 * added. A row's day stops being in any window 30 days on; it expires at `expires_at`, 31 days
 * after the day's UTC midnight, the same instant for every row of the day. Both tables are
 * partitioned by expires_at, one partition per UTC day (db/migrations/0033_compact_receipt_results.sql),
 * dropped whole by the retention job once that day is over, like the receipt family: the key holds
 * expires_at, which a CHECK ties to the day. Aggregates only: nothing here names a search.
 */
import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** Returned results, their positions and their selections per domain, UTC day of the search, surface and topic. */
export const demandDaily = pgTable(
  "demand_daily",
  {
    domain: text("domain").notNull(),
    day: date("day").notNull(),
    surface: text("surface").notNull(),
    topic: text("topic").notNull(),
    results: integer("results").notNull().default(0),
    positionSum: bigint("position_sum", { mode: "number" }).notNull().default(0),
    selections: integer("selections").notNull().default(0),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    primaryKey({
      name: "demand_daily_pk",
      columns: [table.domain, table.day, table.surface, table.topic, table.expiresAt],
    }),
    check("demand_daily_expiry_of_day", sql`${table.expiresAt} = demand_day_expiry(${table.day})`),
    index("demand_daily_expiry").on(table.expiresAt),
  ],
);

/** Action interests per domain, UTC day of the source search, surface, topic and action type. */
export const demandDailyInterests = pgTable(
  "demand_daily_interests",
  {
    domain: text("domain").notNull(),
    day: date("day").notNull(),
    surface: text("surface").notNull(),
    topic: text("topic").notNull(),
    actionType: text("action_type").notNull(),
    interests: integer("interests").notNull().default(0),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (table) => [
    primaryKey({
      name: "demand_daily_interests_pk",
      columns: [table.domain, table.day, table.surface, table.topic, table.actionType, table.expiresAt],
    }),
    check("demand_daily_interests_expiry_of_day", sql`${table.expiresAt} = demand_day_expiry(${table.day})`),
    index("demand_daily_interests_expiry").on(table.expiresAt),
  ],
);
