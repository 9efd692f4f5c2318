/**
 * Organic search. Every match is equally a match: results are ordered by agentic_score
 * descending, then domain ascending, except that a `q` naming an indexed domain exactly puts that
 * site first. Nothing paid or provider-funded enters the query.
 *
 * Matches are counted up to the result window (1,000, i.e. 50 pages): beyond it `total` is
 * 1,000 and `total_exact` false, so total, page and has_next always agree.
 *
 * Cost is bounded whatever the words and filters, in at most two steps:
 * 1. One transaction: text and facet filters (category, signals, tag) are conditions of one GIN
 *    index (`sites_search`), and the plan is held to bitmap scans, so only sites matching the
 *    text and facets are read, and at most 1,001 that match everything: the capped count, and
 *    the page taken from those. With no more than 1,000 matches, that page is the answer.
 * 2. Otherwise the page walks the (agentic_score desc, domain) index; with over 1,000 matches
 *    the walk meets them early.
 * (A search with neither words nor facet filters has nothing to bitmap-scan: it walks at once.)
 * The planner is not left to choose by its estimates: words and filters are often correlated
 * (spam vocabulary lives in the audit-only bucket), and then it walks the whole index for a word
 * that matches nothing it may show. The price is that a common word pays for its whole posting
 * list in step 1 (docs/benchmarks.md).
 */
import { and, count, eq, ne, type SQL, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import type { Database } from "../../adapters/db.ts";
import type { DomainContext } from "../context.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import { type SiteRecord, type SiteRecordRow, siteRecordColumns, toSiteRecord } from "../sites/site-record.ts";
import { facetQueryText, filterCondition, organicOrder, type SiteFilters } from "./site-filters.ts";
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

/**
 * The statements of one search. `bounded` runs first, in one transaction: plan settings that
 * hold it to bitmap scans, the pinned exact-domain match (when q names a domain), the capped
 * count, and the page taken from at most window + 1 matches. `walk` runs only when the count
 * exceeds the window. Exposed so that the benchmark measures exactly these statements.
 */
export function searchStatements(db: Database, input: SearchInput) {
  const conditions: SQL[] = [filterCondition(input.filters)];
  if (input.q) {
    const terms = tsQueryText(input.q);
    // A q without letters or digits matches nothing rather than everything.
    conditions.push(terms ? sql`${sites.searchVector} @@ to_tsquery('english', ${terms})` : sql`false`);
  }
  const pinnedDomain = domainNamedBy(input.q);
  // The pinned site is listed first and left out of the ordered rest.
  const matches = and(...conditions);
  const rest = pinnedDomain ? and(matches, ne(sites.domain, pinnedDomain)) : matches;
  const pageStart = (input.page - 1) * SEARCH_PAGE_SIZE;
  // With a pinned candidate, one row more on either side covers both cases: it exists or not.
  const restOffset = pinnedDomain ? Math.max(0, pageStart - 1) : pageStart;
  const restLimit = pinnedDomain ? SEARCH_PAGE_SIZE + 1 : SEARCH_PAGE_SIZE;

  // Without a word or facet there is no GIN term to scan: the planner's walk of the score index
  // is then both its choice and the right one, and the settings keep its defaults.
  const indexed = Boolean(input.q) || facetQueryText(input.filters) !== null;
  const planSetting = indexed ? "off" : "on";
  const holdToBitmapScans = [
    sql.raw(`set local enable_seqscan = ${planSetting}`),
    sql.raw(`set local enable_indexscan = ${planSetting}`),
  ];
  const pinned = pinnedDomain
    ? db
        .select(siteRecordColumns)
        .from(sites)
        .where(and(matches, eq(sites.domain, pinnedDomain)))
    : undefined;
  const cappedCount = db.select({ matches: count() }).from(
    db
      .select({ one: sql`1` })
      .from(sites)
      .where(matches)
      .limit(SEARCH_RESULT_WINDOW + 1)
      .as("capped"),
  );
  const boundedMatches = db
    .select(siteRecordColumns)
    .from(sites)
    .where(rest)
    .limit(SEARCH_RESULT_WINDOW + 1)
    .as("bounded");
  const boundedPage = db
    .select()
    .from(boundedMatches)
    .orderBy(sql`${boundedMatches.agenticScore} desc`, sql`${boundedMatches.domain} asc`)
    .limit(restLimit)
    .offset(restOffset);
  const walkPage = db
    .select(siteRecordColumns)
    .from(sites)
    .where(rest)
    .orderBy(...organicOrder)
    .limit(restLimit)
    .offset(restOffset);
  return {
    holdToBitmapScans,
    pinned,
    cappedCount,
    firstPage: indexed ? boundedPage : walkPage,
    walkPage,
    indexed,
    pinnedDomain,
    pageStart,
  };
}

/** Whether the bounded step's page is incomplete: more matches than the window were found. */
export const needsWalk = (counted: number) => counted > SEARCH_RESULT_WINDOW;

export async function searchSites({ ctx, input }: { ctx: DomainContext; input: SearchInput }): Promise<SearchPage> {
  const statements = searchStatements(ctx.db, input);
  const [, , [countRow], firstRows, pinned = []] = await ctx.db.batch([
    ctx.db.execute(statements.holdToBitmapScans[0] as SQL),
    ctx.db.execute(statements.holdToBitmapScans[1] as SQL),
    statements.cappedCount,
    statements.firstPage,
    ...(statements.pinned ? [statements.pinned] : []),
  ]);
  const counted = countRow?.matches ?? 0;
  const restRows: SiteRecordRow[] = statements.indexed && needsWalk(counted) ? await statements.walkPage : firstRows;
  const pinnedRows = pinned as SiteRecordRow[];

  let rows = restRows;
  if (statements.pinnedDomain) {
    const pinned = pinnedRows[0];
    const skip = pinned ? 0 : 1;
    rows =
      input.page === 1
        ? [...(pinned ? [pinned] : []), ...restRows].slice(0, SEARCH_PAGE_SIZE)
        : restRows.slice(skip, skip + SEARCH_PAGE_SIZE);
  }

  const total = Math.min(counted, SEARCH_RESULT_WINDOW);
  return {
    results: rows.map(toSiteRecord),
    firstPosition: statements.pageStart + 1,
    total,
    totalExact: counted <= SEARCH_RESULT_WINDOW,
    page: input.page,
    perPage: SEARCH_PAGE_SIZE,
    hasNext: input.page * SEARCH_PAGE_SIZE < total,
  };
}
