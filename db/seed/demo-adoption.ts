/**
 * A year of adoption rollups for the demo index (table `adoption_daily`), so /state and
 * /api/v1/stats/adoption show history on `npm start`. The demo sites carry no past signals, so the
 * past is a deterministic model anchored on today's real rollup of the demo sites:
 *
 * - today's rows are the cron's own (rollupAdoption over the seeded sites);
 * - k days back (k = 1..364), a row's `sites` is today's × (0.4 + 0.6 × (364 − k) / 364): the index
 *   grew linearly from 40 % of its size a year ago;
 * - its `with_item` is `sites` × today's share × (0.3 + 0.7 × logistic), the logistic centred half a
 *   year back with a width of 45 days: adoption of every item rose along an S-curve to today's share,
 *   and each item's curve is shifted by up to ±30 days by a hash of its name, so lines do not overlap.
 *
 * Every figure is rounded down to whole sites and `with_item` never exceeds `sites`, so the rows
 * pass the table's check. docs/discovery.md ("Adoption") says so too.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../src/adapters/db.ts";
import { rollupAdoption, utcDay } from "../../src/domain/stats/adoption-rollup.ts";

export const DEMO_ADOPTION_DAYS = 365;

/** Writes today's rollup and the modelled 364 days before it; returns how many rows it wrote. */
export async function seedDemoAdoption(db: Database, now: Date): Promise<number> {
  const today = utcDay(now);
  const current = await rollupAdoption(db, today);
  const past = await db.execute(sql`
    insert into adoption_daily (day, category, item, sites, with_item)
    select ${today}::date - k, t.category, t.item, modelled.sites,
      least(modelled.sites, floor(modelled.sites * (t.with_item::float8 / nullif(t.sites, 0)) *
        (0.3 + 0.7 / (1 + exp((k - 182 + (abs(hashtext(t.item)) % 61 - 30)) / 45.0))))::int)
    from adoption_daily t
    cross join generate_series(1, ${DEMO_ADOPTION_DAYS - 1}) as k
    cross join lateral (select floor(t.sites * (0.4 + 0.6 * (${DEMO_ADOPTION_DAYS - 1} - k) / ${DEMO_ADOPTION_DAYS - 1}::float8))::int as sites) modelled
    where t.day = ${today}::date and t.sites > 0
    on conflict (day, category, item) do nothing
  `);
  return current.rows + ((past as { rowCount?: number | null }).rowCount ?? 0);
}
