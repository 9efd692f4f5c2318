/**
 * The two searches a typical team would write instead of the posting lists, for `bench:search` to
 * measure beside the project's own in the same database:
 * - "GIN + ts_rank": a GIN index over the text (and one over the tags), matches ordered by
 *   `ts_rank`, then organic order;
 * - "GIN by score": the same GIN filter, matches ordered by score (organic order), where the
 *   planner may also walk the score-order btree and filter.
 * Both return what a search returns: the page of 20 and a total counted up to the result window.
 * They run with the planner's default settings, each search one transaction of two statements.
 * Their indexes exist only in the benchmark's database.
 */
import { type SQL, sql } from "drizzle-orm";
import type pg from "pg";
import { sites } from "../db/schema/sites.ts";
import { SEARCH_PAGE_SIZE, SEARCH_RESULT_WINDOW } from "../src/domain/search/search-sites.ts";
import { filterCondition, type SiteFilters } from "../src/domain/search/site-filters.ts";
import { tsQueryText } from "../src/domain/search/text-query.ts";
import { siteRecordSql } from "../src/domain/sites/site-record.ts";

export const BASELINES = [
  { name: "GIN + ts_rank", order: "rank" },
  { name: "GIN by score", order: "score" },
] as const;

export type Baseline = (typeof BASELINES)[number];

/** What the baselines need beside the project's own indexes. */
export const BASELINE_INDEXES = [
  { name: "bench_baseline_text", definition: "create index bench_baseline_text on sites using gin (search_vector)" },
  { name: "bench_baseline_tags", definition: "create index bench_baseline_tags on sites using gin (tags)" },
] as const;

export interface BaselineIndexReport {
  name: string;
  bytes: number;
  /** Seconds to build, when this run built it. */
  buildSeconds?: number;
}

/** Builds the baselines' indexes that are missing; reports each one's size and build time. */
export async function ensureBaselineIndexes(client: pg.Client): Promise<BaselineIndexReport[]> {
  const reports: BaselineIndexReport[] = [];
  for (const index of BASELINE_INDEXES) {
    const exists = await client.query("select 1 from pg_class where relname = $1", [index.name]);
    let buildSeconds: number | undefined;
    if (exists.rowCount === 0) {
      const started = performance.now();
      await client.query("set maintenance_work_mem = '1GB'");
      await client.query(index.definition);
      buildSeconds = (performance.now() - started) / 1000;
    }
    const size = await client.query<{ bytes: string }>("select pg_relation_size($1::regclass) as bytes", [index.name]);
    reports.push({ name: index.name, bytes: Number(size.rows[0]?.bytes), buildSeconds });
  }
  await client.query("analyze sites");
  return reports;
}

export interface BaselineSearch {
  q?: string;
  filters: SiteFilters;
  page: number;
}

/** The page and the capped count of one search, as the baseline writes them. */
export function baselineStatements(baseline: Baseline, search: BaselineSearch): SQL[] {
  const terms = search.q ? tsQueryText(search.q) : null;
  const query = sql`to_tsquery('english', ${terms})`;
  const where = terms
    ? sql`${filterCondition(search.filters)} and ${sites.searchVector} @@ ${query}`
    : filterCondition(search.filters);
  const organic = sql`${sites.agenticScore} desc nulls last, ${sites.organicTiebreak}, ${sites.domain}`;
  const order =
    baseline.order === "rank" && terms ? sql`ts_rank(${sites.searchVector}, ${query}) desc, ${organic}` : organic;
  return [
    sql`select ${siteRecordSql("sites")} from ${sites} where ${where} order by ${order}
      offset ${(search.page - 1) * SEARCH_PAGE_SIZE} limit ${SEARCH_PAGE_SIZE}`,
    sql`select count(*)::int as total from (select 1 from ${sites} where ${where} limit ${SEARCH_RESULT_WINDOW + 1}) m`,
  ];
}
