-- Demand reads one domain's daily rows of the last 30 UTC days. These indexes hold every column
-- it reads, so the read is an index-only range scan: a domain's rows are written over weeks and
-- lie scattered in the table, and fetching each from the heap would cost a page per row.
CREATE INDEX "demand_daily_read" ON "demand_daily" ("domain", "day")
  INCLUDE ("surface", "topic", "results", "position_sum", "selections");--> statement-breakpoint
CREATE INDEX "demand_daily_interests_read" ON "demand_daily_interests" ("domain", "day")
  INCLUDE ("surface", "topic", "action_type", "interests");
