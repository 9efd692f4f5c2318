/**
 * The top list: the highest agentic scores, ties broken as in organic order (a hash of the domain),
 * audit-only buckets left out unless named. Each distinct filter set and limit is cached for
 * 5 minutes, so a burst of identical requests costs one query.
 *
 * A miss is one statement whose cost does not grow with the index (docs/discovery.md, "How the
 * top list runs"):
 * - the list merges, in organic order, the index ranges of the signal patterns the flags allow
 *   (`sites_category_signals_order` with a category, `sites_discovery_signals_order` without; a
 *   category without flags is one range of `sites_category_score_order`), each read from its top:
 *   every entry met is a match, so at most `limit` per range are read;
 * - `total` sums the exact per-(category, signal pattern) counts the triggers of `site_counts`
 *   keep: a few thousand rows at most (14 categories × 16 patterns × 16 slots), however many sites.
 * One statement reads both from one snapshot, so the total always agrees with the list.
 */
import { type SQL, sql } from "drizzle-orm";
import { type RunSqlBatch, sqlBatchRunner } from "../../adapters/db.ts";
import type { DomainContext } from "../context.ts";
import type { SiteRecord } from "../sites/site-record.ts";
import { siteRecordFromSql, siteRecordSql } from "../sites/site-record.ts";
import { allowedSignalBits } from "./search-terms.ts";
import { filterKey, type SiteFilters } from "./site-filters.ts";
import { STREAMING_PLAN_SETTINGS } from "./streaming-plan.ts";

export const TOP_DEFAULT_LIMIT = 50;
export const TOP_MAX_LIMIT = 100;
export const TOP_CACHE_SECONDS = 300;

export type TopFilters = Pick<SiteFilters, "category" | "hasApi" | "hasMcp" | "hasOpenapi" | "hasLlmsTxt">;

export interface TopInput {
  filters: TopFilters;
  limit: number;
}

export interface TopList {
  results: SiteRecord[];
  /** Every site matching the filters, not just those listed. */
  total: number;
  limit: number;
}

/** A site's signal pattern, written exactly as the two indexes hold it (migration 0007). */
const signalBits = (alias: string) =>
  sql.raw(
    `search_signal_bits(${alias}.has_structured_api, ${alias}.has_mcp_server, ${alias}.has_openapi, ${alias}.has_llms_txt)`,
  );

const organicOrderBy = (alias: string) =>
  sql.raw(`${alias}.agentic_score desc nulls last, ${alias}.organic_tiebreak, ${alias}.domain`);

/**
 * The sites the filters' category names, or without one the discovery inventory. Written as the
 * partial index's predicate, so that Postgres can prove the index holds them.
 */
const inventory = (filters: TopFilters, alias: string): SQL =>
  filters.category
    ? sql`${sql.raw(alias)}.category = ${filters.category}`
    : sql.raw(`not search_is_audit(${alias}.category)`);

/** The exact number of sites matching the filters, from the kept counts of their keys. */
export function topTotalQuery(filters: TopFilters): SQL {
  const patterns = allowedSignalBits(filters).values;
  return sql`select coalesce(sum(c.site_count), 0)::int as total from site_counts c
    where ${inventory(filters, "c")} and c.signal_bits = any(${sql.param(patterns)}::smallint[])`;
}

/**
 * The index ranges a top list merges, each of matches only: a category without flags is one
 * range of `sites_category_score_order`; otherwise one range per allowed signal pattern.
 */
function topRanges({ filters, limit }: TopInput): SQL[] {
  const range = (condition: SQL) => sql`(select ${siteRecordSql("s")}, s.organic_tiebreak from sites s
    where ${condition} order by ${organicOrderBy("s")} limit ${limit})`;
  const { values: patterns, mask } = allowedSignalBits(filters);
  if (filters.category && mask === 0) return [range(inventory(filters, "s"))];
  return patterns.map((bits) => range(sql`${inventory(filters, "s")} and ${signalBits("s")} = ${bits}::smallint`));
}

/** The statement of a top list: `total` on every row, and the listed sites in organic order. */
export function topStatement(input: TopInput): SQL {
  const { filters, limit } = input;
  const ranges = topRanges(input);
  return sql`
    select counted.total, listed.*
    from (${topTotalQuery(filters)}) counted
    left join lateral (
      select * from (${sql.join(ranges, sql` union all `)}) u order by ${organicOrderBy("u")} limit ${limit}
    ) listed on true
    order by ${organicOrderBy("listed")}`;
}

/** The top list itself over any `RunSqlBatch` (the benchmark runs it over a direct connection). */
export async function runTopQuery(run: RunSqlBatch, input: TopInput): Promise<TopList> {
  const results = await run([STREAMING_PLAN_SETTINGS, topStatement(input)]);
  const rows = results.at(-1) ?? [];
  return {
    results: rows.filter((row) => row.domain !== null).map(siteRecordFromSql),
    total: Number(rows[0]?.total ?? 0),
    limit: input.limit,
  };
}

export async function listTopSites({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: TopInput;
}): Promise<TopList & { cacheHit: boolean }> {
  const key = `top:v1:${filterKey(input.filters)}:limit=${input.limit}`;
  const { value, hit } = await ctx.cache.remember(key, TOP_CACHE_SECONDS, () =>
    runTopQuery(sqlBatchRunner(ctx.db), input),
  );
  return { ...value, cacheHit: hit };
}
