import { bigint, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";

/**
 * How many sites each (category, signal pattern) holds, so that the top list's `total` is exact
 * without counting sites: a sum over its keys' rows (at most 14 categories × 16 patterns × 16
 * slots, however many sites). `signal_bits` is the pattern of the four filterable signals as in
 * `search_postings` (has_structured_api 8, has_mcp_server 4, has_openapi 2, has_llms_txt 1).
 *
 * Written only by statement triggers on `sites` (migration 0007), in the transaction that changes
 * the sites, so it is never out of step. Each key is split into `slot`s, one per writer backend
 * (its process id modulo 16): concurrent writers of the same key mostly update different rows
 * instead of waiting for each other's commit. A key's count is the sum over its slots.
 */
export const siteCounts = pgTable(
  "site_counts",
  {
    category: text("category").notNull(),
    signalBits: smallint("signal_bits").notNull(),
    slot: smallint("slot").notNull(),
    siteCount: bigint("site_count", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ name: "site_counts_pk", columns: [table.category, table.signalBits, table.slot] })],
);
