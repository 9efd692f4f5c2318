import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, smallint, timestamp, uuid } from "drizzle-orm/pg-core";
import { sites } from "./sites.ts";

/**
 * The checklist of each successful crawl of an indexed site, compactly: one row per crawl, the
 * statuses as small integers in the order of CHECK_IDS (src/domain/checklist/checklist-definition.ts;
 * codes are indexes of CHECK_STATUSES: 0 pass, 1 warn, 2 fail, 3 neutral, 4 blocked, 5 error).
 * About 80 bytes a crawl, so adoption of every check per day is one scan of a day's rows:
 * `count(*) filter (where statuses[i] = 0)`. The full checks of the last crawl (reasons,
 * evidence) live on the site row (sites.checklist).
 */
export const siteChecklistHistory = pgTable(
  "site_checklist_history",
  {
    siteId: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
    /** Index of the inferred site kind in SITE_KINDS (0 content, 1 api, 2 store). */
    siteKind: smallint("site_kind").notNull(),
    statuses: smallint("statuses").array().notNull(),
  },
  (table) => [
    primaryKey({ name: "site_checklist_history_pk", columns: [table.siteId, table.recordedAt] }),
    // Daily adoption counts read one day's rows of every site.
    index("site_checklist_history_recorded_at").on(table.recordedAt),
    check(
      "site_checklist_history_statuses_shape",
      sql`cardinality(${table.statuses}) between 1 and 64 and 0 <= all(${table.statuses}) and 5 >= all(${table.statuses})`,
    ),
    check("site_checklist_history_kind_known", sql`${table.siteKind} between 0 and 2`),
  ],
);
