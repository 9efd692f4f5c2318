/**
 * Organic search. Every match is equally a match: results are ordered by agentic_score
 * descending, then domain ascending in byte order, except that a `q` naming an indexed domain
 * exactly puts that site first. Nothing paid or provider-funded enters the query.
 *
 * Matches are counted up to the result window (1,000, i.e. 50 pages): beyond it `total` is
 * 1,000 and `total_exact` false, so total, page and has_next always agree.
 *
 * A search is two round trips, each one transaction:
 * 1. the query's words become index terms (search-terms.ts), with the exact-domain candidate and,
 *    when the isolate's copy is stale, the index statistics;
 * 2. the plan's driver lists are merged in organic order and checked (search-plan.ts) until
 *    window + 1 sites match, and the page is read from those.
 * Its cost is bounded by the length of the shortest list the query names, never by how many
 * sites match (docs/benchmarks.md).
 */
import { type SQL, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import { type RunSqlBatch, type SqlRow, sqlBatchRunner } from "../../adapters/db.ts";
import type { DomainContext } from "../context.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import { type SiteRecord, siteRecordFromSql, siteRecordSql } from "../sites/site-record.ts";
import { isAuditCategory, planSearch, type SearchPlan } from "./search-plan.ts";
import {
  cachedStatistics,
  parseStatistics,
  rememberStatistics,
  statisticsStatement,
  type TermStatistics,
} from "./search-statistics.ts";
import {
  isEmptySignature,
  parseSignature,
  parseStemTerms,
  stemQueryText,
  stemTermsStatement,
  tagSignatureStatement,
} from "./search-terms.ts";
import { filterCondition, type SiteFilters } from "./site-filters.ts";
import { queryWords, tsQueryText } from "./text-query.ts";

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

/**
 * Plan settings of the second step. Its merge must stream each list from its index in organic
 * order and stop early: the planner, seeing only row estimates, would otherwise often sort or
 * hash whole lists. JIT is off because its compile time exceeds such a query's run time.
 */
const STREAMING_PLAN_SETTINGS = [
  "enable_seqscan",
  "enable_bitmapscan",
  "enable_sort",
  "enable_hashagg",
  "enable_hashjoin",
  "enable_mergejoin",
  "jit",
].map((setting) => sql.raw(`set local ${setting} = off`));

/** The q that names a domain (it has a dot and is a host name), in the index's form. */
function domainNamedBy(q: string | undefined): string | null {
  return q?.includes(".") ? normalizeDomain(q) : null;
}

export async function searchSites({ ctx, input }: { ctx: DomainContext; input: SearchInput }): Promise<SearchPage> {
  return runSearchQuery(sqlBatchRunner(ctx.db), input);
}

/** The first step's statements and how to read their results. */
function firstStep(input: SearchInput, words: string[], pinnedDomain: string | null) {
  const { filters } = input;
  const statements: SQL[] = [];
  const take = (statement: SQL) => statements.push(statement) - 1;
  const stemsAt = words.length ? take(stemTermsStatement(words, isAuditCategory(filters.category))) : -1;
  const tagAt = filters.tag !== undefined ? take(tagSignatureStatement(filters.tag)) : -1;
  const terms = tsQueryText(input.q ?? "");
  const pinnedAt =
    pinnedDomain && terms
      ? take(sql`
          select ${siteRecordSql("sites")} from ${sites}
          where ${sites.domain} = ${pinnedDomain} and ${filterCondition(filters)}
            and ${sites.searchVector} @@ to_tsquery('english', ${terms})`)
      : -1;
  const known = cachedStatistics();
  const statisticsAt = known ? -1 : take(statisticsStatement());
  return {
    statements,
    read(results: SqlRow[][]) {
      const statistics: TermStatistics = known ?? parseStatistics(results[statisticsAt]?.[0]);
      if (!known) rememberStatistics(statistics);
      const pinned = pinnedAt >= 0 ? results[pinnedAt]?.[0] : undefined;
      return {
        stems: stemsAt >= 0 ? parseStemTerms(results[stemsAt] ?? []) : [],
        tagSignature: tagAt >= 0 ? parseSignature(results[tagAt]?.[0]?.signature) : undefined,
        pinned: pinned ? siteRecordFromSql(pinned) : undefined,
        statistics,
      };
    },
  };
}

/** `sql` for a bigint parameter (sent as text: JSON has no 64-bit integers). */
const bigintParam = (value: bigint) => sql`${value.toString()}::bigint`;

/** One driver list, filtered by the checks the index entry can answer, in organic order. */
function listBranch(plan: SearchPlan, term: string, minScore: number, excluded: string | undefined): SQL {
  const checks: SQL[] = [sql`p.audit = ${plan.audit}`, sql`p.term = ${term}`];
  if (minScore > 0) checks.push(sql`p.agentic_score >= ${minScore}::smallint`);
  if (excluded) checks.push(sql`p.domain <> ${excluded}`);
  if (plan.signals) checks.push(sql`(p.signal_bits & ${plan.signals.mask}::smallint) = ${plan.signals.bits}::smallint`);
  if (plan.category) checks.push(sql`p.category = ${plan.category}`);
  if (!isEmptySignature(plan.signature)) {
    plan.signature.forEach((part, index) => {
      if (part !== 0n) {
        const column = sql.identifier(`signature_${index}`);
        checks.push(sql`(p.${column} & ${bigintParam(part)}) = ${bigintParam(part)}`);
      }
    });
  }
  return sql`(select p.agentic_score, p.domain from search_postings p
    where ${sql.join(checks, sql` and `)} order by p.agentic_score desc, p.domain)`;
}

/**
 * The second step: the first window + 1 matches in organic order (`excluded`, the pinned site,
 * left out), their count, and the page of them at `offset`.
 */
function matchesStatement(
  plan: SearchPlan,
  input: { minScore: number; excluded?: string; offset: number; limit: number },
) {
  const branches = plan.driver.terms.map((term) => listBranch(plan, term, input.minScore, input.excluded));
  // A word's lexemes may share a site (`team` and `teams`); other drivers' lists never do.
  const distinct = plan.driver.kind === "word" && branches.length > 1 ? sql`distinct` : sql``;
  const merged = sql`select ${distinct} u.agentic_score, u.domain from (${sql.join(branches, sql` union all `)}) u
    order by u.agentic_score desc, u.domain`;
  const exact: SQL[] = [];
  if (plan.exactStems.length) exact.push(sql`s.search_vector @@ ${stemQueryText(plan.exactStems)}::tsquery`);
  if (plan.exactTag !== undefined) exact.push(sql`s.tags @> array[${plan.exactTag}]::text[]`);
  const checked = exact.length
    ? sql`select m.agentic_score, m.domain from (${merged}) m join sites s on s.domain = m.domain
        where ${sql.join(exact, sql` and `)} order by m.agentic_score desc, m.domain`
    : merged;
  return sql`
    with matches as materialized (
      select c.agentic_score, c.domain from (${checked}) c
      order by c.agentic_score desc, c.domain limit ${SEARCH_RESULT_WINDOW + 1}
    )
    select counted.total, page.*
    from (select count(*)::int as total from matches) counted
    left join lateral (
      select ${siteRecordSql("s")} from (
        select k.domain from matches k order by k.agentic_score desc, k.domain offset ${input.offset} limit ${input.limit}
      ) wanted join sites s on s.domain = wanted.domain
    ) page on true
    order by page.agentic_score desc, page.domain`;
}

/**
 * The search itself over any `RunSqlBatch` (the benchmark runs it over a direct connection);
 * `observePlan` sees the plan it chose.
 */
export async function runSearchQuery(
  run: RunSqlBatch,
  input: SearchInput,
  observePlan?: (plan: SearchPlan) => void,
): Promise<SearchPage> {
  const pageStart = (input.page - 1) * SEARCH_PAGE_SIZE;
  const pageOf = (results: SiteRecord[], counted: number): SearchPage => {
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
  };
  const words = input.q ? queryWords(input.q) : [];
  // A q without letters or digits matches nothing rather than everything.
  if (input.q && words.length === 0) return pageOf([], 0);

  const pinnedDomain = domainNamedBy(input.q);
  const first = firstStep(input, words, pinnedDomain);
  const { stems, tagSignature, pinned, statistics } = first.read(await run(first.statements));
  // Words that are all stop words leave nothing to match.
  if (words.length && stems.length === 0) return pageOf([], 0);
  const plan = planSearch({ stems, filters: input.filters, tagSignature, statistics });
  if (!plan) return pageOf([], 0);
  observePlan?.(plan);

  // The pinned site is listed first and left out of the ordered rest, which shifts by one.
  const pinnedCount = pinned ? 1 : 0;
  const offset = Math.max(0, pageStart - pinnedCount);
  const limit = pinned && input.page === 1 ? SEARCH_PAGE_SIZE - 1 : SEARCH_PAGE_SIZE;
  const statement = matchesStatement(plan, {
    minScore: input.filters.minScore ?? 0,
    excluded: pinned?.domain,
    offset,
    limit,
  });
  const results = await run([...STREAMING_PLAN_SETTINGS, statement]);
  const rows = results.at(-1) ?? [];
  const counted = Number(rows[0]?.total ?? 0) + pinnedCount;
  const rest = rows.filter((row) => row.domain !== null).map(siteRecordFromSql);
  const pageResults = pinned && input.page === 1 ? [pinned, ...rest] : rest;
  return pageOf(pageResults, counted);
}
