import { sql } from "drizzle-orm";
import { check, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * Daily adoption rollups: for each day, category ('' = every category) and item (a signal's Site
 * field name such as `has_llms_txt`, or a checklist check id such as `robots_txt`), how many sites
 * were counted and how many of them had the item. Written once a day by the discovery group's cron
 * (src/jobs/rollup-adoption.ts, src/domain/stats/adoption-rollup.ts), upserted per day so a rerun
 * replaces that day's figures. At most 366 days × 15 categories × ~30 items rows a year, whatever
 * the size of the index, so the adoption figures read this table, never `sites`.
 */
export const adoptionDaily = pgTable(
  "adoption_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    category: text("category").notNull(),
    item: text("item").notNull(),
    sites: integer("sites").notNull(),
    withItem: integer("with_item").notNull(),
  },
  (table) => [
    primaryKey({ name: "adoption_daily_pk", columns: [table.day, table.category, table.item] }),
    check("adoption_daily_counts", sql`${table.withItem} >= 0 and ${table.withItem} <= ${table.sites}`),
  ],
);
