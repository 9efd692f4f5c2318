import { integer, pgTable, primaryKey, smallint, timestamp, uuid } from "drizzle-orm/pg-core";
import { sites } from "./sites.ts";

/** Each score a site was given, appended by the crawler; site detail shows the latest ones. */
export const siteScoreHistory = pgTable(
  "site_score_history",
  {
    siteId: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
    agenticScore: smallint("agentic_score").notNull(),
    scoreVersion: integer("score_version").notNull(),
  },
  (table) => [primaryKey({ name: "site_score_history_pk", columns: [table.siteId, table.recordedAt] })],
);
