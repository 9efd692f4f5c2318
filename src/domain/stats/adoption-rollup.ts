/**
 * Daily adoption rollups (table `adoption_daily`): how many indexed sites have each signal, pass
 * each checklist check, and — among those advertising an MCP endpoint — how that endpoint answered,
 * per category and over all of them (category ''), for one UTC day.
 *
 * Counting rules (docs/discovery.md, "Adoption"):
 * - a signal counts the sites whose Site flag is true (`has_llms_txt`, …), over every indexed site
 *   of the category, audit-only buckets included (as /stats counts);
 * - a check counts the sites whose latest checklist gives it status `pass`: `warn` is not adoption
 *   (the document is there but flawed), and `neutral`, `blocked` and `error` are not either. Its
 *   `sites` are the sites whose latest checklist has the check, so a site crawled before the
 *   checklist existed is not counted as failing it;
 * - an MCP endpoint item (`mcp_endpoint_handshake`, …; src/domain/signals/mcp-health.ts) counts,
 *   among the sites that advertise an MCP endpoint (`sites` of the row), those whose endpoint
 *   answered the last crawl in that class.
 *
 * Cost: the sites are read in slices of `sliceSize` by `site_key` (a unique, compact index), one
 * statement a slice, each reading only the flags, `checklist_statuses` (a smallint array, not the
 * TOASTed JSON) and `mcp_endpoint_health`; the slices' counts are added up here, then the day's
 * rows replace the old ones in one transaction. So no statement grows with the index (each stays
 * well inside the Worker's DATABASE_TIMEOUT_MS), and the output is ~15 categories × ~35 items a
 * day whatever the size of the index. Timed at 1,000,000 sites in docs/benchmarks.md.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import { CHECK_IDS, CHECK_STATUSES } from "../checklist/checklist-definition.ts";
import { MCP_ENDPOINT_HEALTH } from "../signals/mcp-health.ts";
import { SIGNAL_FIELDS } from "../sites/site-fields.ts";

/** The category of the rows that count every category together. */
export const ALL_CATEGORIES = "";

/** The check status that counts as adopted. */
export const ADOPTED_CHECK_STATUS = "pass";

/** The items of MCP endpoint health, in MCP_ENDPOINT_HEALTH's order. */
export const MCP_ENDPOINT_ITEMS = MCP_ENDPOINT_HEALTH.map((health) => `mcp_endpoint_${health}` as const);

/** Sites read per statement: small enough for any statement to stay well under a second. */
export const ADOPTION_SLICE_SIZE = 20_000;

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
  /** How many slices (statements reading `sites`) it took. */
  slices: number;
  /** The slowest of those statements, in ms. */
  slowestSliceMs: number;
  durationMs: number;
}

/** One category's counts: every value is a number of sites. */
interface Tally {
  sites: number;
  signals: number[];
  checkSites: number[];
  checkPasses: number[];
  advertised: number;
  health: number[];
}

function emptyTally(): Tally {
  return {
    sites: 0,
    signals: SIGNAL_FIELDS.map(() => 0),
    checkSites: CHECK_IDS.map(() => 0),
    checkPasses: CHECK_IDS.map(() => 0),
    advertised: 0,
    health: MCP_ENDPOINT_HEALTH.map(() => 0),
  };
}

const PASS_CODE = CHECK_STATUSES.indexOf(ADOPTED_CHECK_STATUS);

/** The aggregate columns of one slice, in a fixed order (see addSlice). */
function sliceColumns() {
  return sql.join(
    [
      sql`count(*)::int`,
      ...SIGNAL_FIELDS.map((field) => sql`count(*) filter (where ${sql.identifier(field)})::int`),
      // Postgres arrays are 1-based; a checklist from before a check was appended lacks it (null).
      ...CHECK_IDS.map((_, i) => sql`count(checklist_statuses[${sql.raw(String(i + 1))}])::int`),
      ...CHECK_IDS.map(
        (_, i) =>
          sql`count(*) filter (where checklist_statuses[${sql.raw(String(i + 1))}] = ${sql.raw(String(PASS_CODE))})::int`,
      ),
      sql`count(mcp_endpoint_health)::int`,
      ...MCP_ENDPOINT_HEALTH.map(
        (_, code) => sql`count(*) filter (where mcp_endpoint_health = ${sql.raw(String(code))})::int`,
      ),
    ],
    sql`, `,
  );
}

function addSlice(tally: Tally, counts: number[]): void {
  let at = 0;
  const next = () => Number(counts[at++] ?? 0);
  tally.sites += next();
  for (let i = 0; i < SIGNAL_FIELDS.length; i++) tally.signals[i]! += next();
  for (let i = 0; i < CHECK_IDS.length; i++) tally.checkSites[i]! += next();
  for (let i = 0; i < CHECK_IDS.length; i++) tally.checkPasses[i]! += next();
  tally.advertised += next();
  for (let i = 0; i < MCP_ENDPOINT_HEALTH.length; i++) tally.health[i]! += next();
}

function addInto(sum: number[], counts: readonly number[]): void {
  for (let i = 0; i < counts.length; i++) sum[i]! += counts[i]!;
}

/** The stored rows of one category's tally: every signal, each check some site has, MCP health. */
export function tallyRows(
  category: string,
  tally: Tally,
): { category: string; item: string; sites: number; with_item: number }[] {
  return [
    ...SIGNAL_FIELDS.map((item, i) => ({ category, item, sites: tally.sites, with_item: tally.signals[i]! })),
    ...CHECK_IDS.flatMap((item, i) =>
      tally.checkSites[i]! > 0
        ? [{ category, item, sites: tally.checkSites[i]!, with_item: tally.checkPasses[i]! }]
        : [],
    ),
    // Like a check, MCP endpoint health has rows only where some site advertises an endpoint.
    ...(tally.advertised > 0
      ? MCP_ENDPOINT_ITEMS.map((item, i) => ({ category, item, sites: tally.advertised, with_item: tally.health[i]! }))
      : []),
  ];
}

/** Computes and stores one day's adoption rows (replacing any rows of that day). */
export async function rollupAdoption(
  db: Database,
  day: string,
  { sliceSize = ADOPTION_SLICE_SIZE }: { sliceSize?: number } = {},
): Promise<RollupSummary> {
  const started = Date.now();
  const tallies = new Map<string, Tally>();
  const columns = sliceColumns();
  let after = 0;
  let slices = 0;
  let slowestSliceMs = 0;
  for (;;) {
    const sliceStarted = Date.now();
    const result = await db.execute(sql`
      with slice as (
        select site_key, category, ${sql.join(
          SIGNAL_FIELDS.map((field) => sql.identifier(field)),
          sql`, `,
        )}, checklist_statuses, mcp_endpoint_health
        from sites where site_key > ${after} order by site_key limit ${sliceSize}
      )
      select category, (select max(site_key) from slice) as last, array[${columns}] as counts
      from slice group by category`);
    slices++;
    slowestSliceMs = Math.max(slowestSliceMs, Date.now() - sliceStarted);
    const rows = result.rows as { category: string; last: number | string; counts: (number | string)[] }[];
    if (rows.length === 0) break;
    for (const row of rows) {
      const tally = tallies.get(row.category) ?? emptyTally();
      addSlice(
        tally,
        row.counts.map((count) => Number(count)),
      );
      tallies.set(row.category, tally);
    }
    after = Number(rows[0]!.last);
    const sliceSites = rows.reduce((sum, row) => sum + Number(row.counts[0]), 0);
    if (sliceSites < sliceSize) break;
  }

  const all = emptyTally();
  for (const tally of tallies.values()) {
    all.sites += tally.sites;
    all.advertised += tally.advertised;
    addInto(all.signals, tally.signals);
    addInto(all.checkSites, tally.checkSites);
    addInto(all.checkPasses, tally.checkPasses);
    addInto(all.health, tally.health);
  }
  const rows = [
    ...tallyRows(ALL_CATEGORIES, all),
    ...[...tallies.entries()].flatMap(([category, tally]) => tallyRows(category, tally)),
  ];
  const values = JSON.stringify(rows);
  await db.batch([
    db.execute(sql`delete from adoption_daily where day = ${day}::date`),
    db.execute(sql`
      insert into adoption_daily (day, category, item, sites, with_item)
      select ${day}::date, category, item, sites, with_item
      from jsonb_to_recordset(${values}::jsonb) as t(category text, item text, sites int, with_item int)`),
  ]);
  return { day, rows: rows.length, slices, slowestSliceMs, durationMs: Date.now() - started };
}
