/**
 * Daily adoption rollups (table `adoption_daily`): how many indexed sites have each signal and
 * pass each checklist check, per category and over all of them (category ''), for one UTC day.
 *
 * Counting rules (docs/discovery.md, "Adoption"):
 * - a signal counts the sites whose Site flag is true (`has_llms_txt`, …), over every indexed site
 *   of the category, audit-only buckets included (as /stats counts);
 * - a check counts the sites whose latest checklist (`sites.checklist`) gives it status `pass`:
 *   `warn` is not adoption (the document is there but flawed), and `neutral`, `blocked` and
 *   `error` are not either. Its `sites` are the sites whose latest checklist has the check, so a
 *   site crawled before the checklist existed is not counted as failing it.
 *
 * One pass over `sites` for the signals (one aggregate row per category, then unpivoted) and one
 * over the checklists, so the job's cost grows with the index but its output does not; rerunning
 * a day replaces that day's rows in one transaction.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { SIGNAL_FIELDS } from "../sites/site-fields.ts";

/** The category of the rows that count every category together. */
export const ALL_CATEGORIES = "";

/** The check status that counts as adopted. */
export const ADOPTED_CHECK_STATUS = "pass";

/** A share of `sites` to 4 decimals (0 when no site was counted), as /stats gives its shares. */
export function adoptionShare(withItem: number, sites: number): number {
  if (sites <= 0) return 0;
  return Math.round((withItem / sites) * 10_000) / 10_000;
}

/** The UTC calendar day of an instant, as `YYYY-MM-DD`. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export interface RollupSummary {
  day: string;
  rows: number;
  durationMs: number;
}

/** Computes and stores one day's adoption rows (replacing any rows of that day). */
export async function rollupAdoption(db: Database, day: string): Promise<RollupSummary> {
  const started = Date.now();
  const signalCounts = sql.join(
    SIGNAL_FIELDS.map(
      (field) => sql`count(*) filter (where ${sql.identifier(field)})::int as ${sql.identifier(field)}`,
    ),
    sql`, `,
  );
  const signalValues = sql.join(
    SIGNAL_FIELDS.map((field) => sql`(${field}::text, counts.${sql.identifier(field)})`),
    sql`, `,
  );
  const [, inserted] = await db.batch([
    db.execute(sql`delete from adoption_daily where day = ${day}::date`),
    db.execute(sql`
      insert into adoption_daily (day, category, item, sites, with_item)
      select ${day}::date, counts.category, signal.item, counts.sites, signal.with_item
      from (
        select coalesce(category, ${ALL_CATEGORIES}) as category, count(*)::int as sites, ${signalCounts}
        from sites
        group by rollup (category)
      ) counts
      cross join lateral (values ${signalValues}) as signal(item, with_item)
      union all
      select ${day}::date, coalesce(s.category, ${ALL_CATEGORIES}), c.chk ->> 'id', count(*)::int,
        count(*) filter (where c.chk ->> 'status' = ${ADOPTED_CHECK_STATUS})::int
      from sites s
      cross join lateral jsonb_array_elements(s.checklist -> 'checks') as c(chk)
      where s.checklist is not null and c.chk ->> 'id' is not null
      group by grouping sets ((s.category, c.chk ->> 'id'), (c.chk ->> 'id'))
      on conflict (day, category, item) do update set sites = excluded.sites, with_item = excluded.with_item
    `),
  ]);
  const rows = (inserted as { rowCount?: number | null }).rowCount ?? 0;
  return { day, rows, durationMs: Date.now() - started };
}
