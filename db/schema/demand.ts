/**
 * Demand by UTC day, kept by triggers as receipts, selections and interests are written
 * (db/migrations/0012_demand_daily_guards.sql): what GET /provider/demand reads, so its cost is
 * bounded by days x surfaces x topics, whatever a domain's volume. Synthetic traffic is never
 * added. A row's day stops being in any window 30 days on; the retention purge removes it at
 * `expires_at`. Aggregates only: nothing here names a search.
 */
import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

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
    primaryKey({ name: "demand_daily_pk", columns: [table.domain, table.day, table.surface, table.topic] }),
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
      columns: [table.domain, table.day, table.surface, table.topic, table.actionType],
    }),
    index("demand_daily_interests_expiry").on(table.expiresAt),
  ],
);
