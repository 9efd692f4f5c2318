/**
 * The top list: the highest agentic scores, ties broken as in organic order (a hash of the domain),
 * audit-only buckets left out unless named. Each distinct filter set and limit is cached for
 * 5 minutes, so a burst of identical requests costs one query.
 */
import { count } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { DomainContext } from "../context.ts";
import type { SiteRecord } from "../sites/site-record.ts";
import { siteRecordColumns, toSiteRecord } from "../sites/site-record.ts";
import { filterCondition, filterKey, organicOrder, type SiteFilters } from "./site-filters.ts";

export const TOP_DEFAULT_LIMIT = 50;
export const TOP_MAX_LIMIT = 100;
export const TOP_CACHE_SECONDS = 300;

export type TopFilters = Pick<SiteFilters, "category" | "hasApi" | "hasMcp" | "hasOpenapi" | "hasLlmsTxt">;

export interface TopList {
  results: SiteRecord[];
  /** Every site matching the filters, not just those listed. */
  total: number;
  limit: number;
}

export async function listTopSites({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { filters: TopFilters; limit: number };
}): Promise<TopList & { cacheHit: boolean }> {
  const key = `top:v1:${filterKey(input.filters)}:limit=${input.limit}`;
  const { value, hit } = await ctx.cache.remember(key, TOP_CACHE_SECONDS, async (): Promise<TopList> => {
    const matches = filterCondition(input.filters);
    const [rows, [counted]] = await ctx.db.batch([
      ctx.db
        .select(siteRecordColumns)
        .from(sites)
        .where(matches)
        .orderBy(...organicOrder)
        .limit(input.limit),
      ctx.db.select({ total: count() }).from(sites).where(matches),
    ]);
    return { results: rows.map(toSiteRecord), total: counted?.total ?? 0, limit: input.limit };
  });
  return { ...value, cacheHit: hit };
}
