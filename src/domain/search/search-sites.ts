/**
 * Organic search. Every match is equally a match: results are ordered by agentic_score
 * descending, then domain ascending, except that a `q` naming an indexed domain exactly puts that
 * site first. Nothing paid or provider-funded enters the query. The order walks an index, so a
 * page costs the same whether a word matches ten sites or half the index.
 *
 * Matches are counted up to the result window (1,000, i.e. 50 pages): beyond it `total` is
 * 1,000 and `total_exact` false, so total, page and has_next always agree.
 */
import { and, count, ne, type SQL, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { DomainContext } from "../context.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import { type SiteRecord, siteRecordColumns, toSiteRecord } from "../sites/site-record.ts";
import { filterConditions, organicOrder, type SiteFilters } from "./site-filters.ts";
import { tsQueryText } from "./text-query.ts";

export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_RESULT_WINDOW = 1000;
export const SEARCH_MAX_PAGE = SEARCH_RESULT_WINDOW / SEARCH_PAGE_SIZE;

export interface SearchInput {
  q?: string;
  filters: SiteFilters;
  /** 1-based, at most SEARCH_MAX_PAGE. */
  page: number;
}

export interface SearchPage {
  results: SiteRecord[];
  /** Absolute organic position of results[0] (1 = first). */
  firstPosition: number;
  total: number;
  totalExact: boolean;
  page: number;
  perPage: number;
  hasNext: boolean;
}

/** The q that names a domain (it has a dot and is a host name), in the index's form. */
function domainNamedBy(q: string | undefined): string | null {
  return q?.includes(".") ? normalizeDomain(q) : null;
}

export async function searchSites({ ctx, input }: { ctx: DomainContext; input: SearchInput }): Promise<SearchPage> {
  const terms = input.q ? tsQueryText(input.q) : null;
  const conditions: SQL[] = filterConditions(input.filters);
  if (input.q) {
    // A q without letters or digits matches nothing rather than everything.
    conditions.push(terms ? sql`${sites.searchVector} @@ to_tsquery('english', ${terms})` : sql`false`);
  }
  const matches = and(...conditions);
  const pinnedDomain = domainNamedBy(input.q);
  const pageStart = (input.page - 1) * SEARCH_PAGE_SIZE;

  const countQuery = ctx.db.select({ matches: count() }).from(
    ctx.db
      .select({ one: sql`1` })
      .from(sites)
      .where(matches)
      .limit(SEARCH_RESULT_WINDOW + 1)
      .as("capped"),
  );

  let results: SiteRecord[];
  let counted: number;
  if (pinnedDomain) {
    // One row before or after the page covers both cases: the pinned site exists or it does not.
    const [pinnedRows, restRows, [countRow]] = await ctx.db.batch([
      ctx.db
        .select(siteRecordColumns)
        .from(sites)
        .where(and(matches, sql`${sites.domain} = ${pinnedDomain}`)),
      ctx.db
        .select(siteRecordColumns)
        .from(sites)
        .where(and(matches, ne(sites.domain, pinnedDomain)))
        .orderBy(...organicOrder)
        .limit(SEARCH_PAGE_SIZE + 1)
        .offset(Math.max(0, pageStart - 1)),
      countQuery,
    ]);
    const pinned = pinnedRows[0];
    const rows =
      input.page === 1
        ? [...(pinned ? [pinned] : []), ...restRows].slice(0, SEARCH_PAGE_SIZE)
        : restRows.slice(pinned ? 0 : 1, (pinned ? 0 : 1) + SEARCH_PAGE_SIZE);
    results = rows.map(toSiteRecord);
    counted = countRow?.matches ?? 0;
  } else {
    const [rows, [countRow]] = await ctx.db.batch([
      ctx.db
        .select(siteRecordColumns)
        .from(sites)
        .where(matches)
        .orderBy(...organicOrder)
        .limit(SEARCH_PAGE_SIZE)
        .offset(pageStart),
      countQuery,
    ]);
    results = rows.map(toSiteRecord);
    counted = countRow?.matches ?? 0;
  }

  const total = Math.min(counted, SEARCH_RESULT_WINDOW);
  return {
    results,
    firstPosition: pageStart + 1,
    total,
    totalExact: counted <= SEARCH_RESULT_WINDOW,
    page: input.page,
    perPage: SEARCH_PAGE_SIZE,
    hasNext: input.page * SEARCH_PAGE_SIZE < total,
  };
}
