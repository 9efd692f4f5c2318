/**
 * Organic search. Results are ordered by relevance tier (where the query's words are: the name,
 * tags or domain, the name itself, the description's opening sentence; docs/discovery.md,
 * "Relevance tiers"), then agentic_score descending, ties broken by a hash of the domain
 * (organic_tiebreak) and then the site's key (sites.site_key: only two domains of equal 64-bit
 * hash ever reach it), except that a `q` naming an indexed domain exactly puts that site first.
 * Nothing paid or provider-funded, and nothing about the caller, enters the query.
 *
 * Matches are counted up to the result window (1,000, i.e. 50 pages): beyond it `total` is
 * 1,000 and `total_exact` false, so total, page and has_next always agree.
 *
 * A search is at most two round trips, each one transaction:
 * 1. the query's words become index terms (search-terms.ts), with the exact-domain candidate and,
 *    when the isolate's copy is stale, the index statistics (nothing to ask, no round trip: filters
 *    alone without a tag, with fresh statistics);
 * 2. the plan's driver lists are merged in organic order and checked (search-plan.ts) until
 *    window + 1 sites match; with words, those are given their tiers, and the page is read from
 *    them in tier order.
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
  beginningTerm,
  parseSignature,
  parseStemTerms,
  type StemTerms,
  stemQueryText,
  stemTermsStatement,
  tagSignatureStatement,
  tagTerm,
} from "./search-terms.ts";
import { filterCondition, type SiteFilters } from "./site-filters.ts";
import { JIT_OFF, STREAMING_PLAN_SETTINGS } from "./streaming-plan.ts";
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

/** The q that names a domain (it has a dot and is a host name), in the index's form. */
function domainNamedBy(q: string | undefined): string | null {
  return q?.includes(".") ? normalizeDomain(q) : null;
}

export async function searchSites({ ctx, input }: { ctx: DomainContext; input: SearchInput }): Promise<SearchPage> {
  return runSearchQuery(sqlBatchRunner(ctx.db), input);
}

/** The first step's statements and how to read their results. */
function firstStep(input: SearchInput, words: string[], pinnedDomain: string | null, given?: TermStatistics) {
  const { filters } = input;
  const statements: SQL[] = [];
  const take = (statement: SQL) => statements.push(statement) - 1;
  // The word lookups are estimated over whole ranges of the index, enough to be compiled (JIT),
  // which would take longer than the step; the setting ends with the batch's transaction.
  if (words.length) take(JIT_OFF);
  const stemsAt = words.length ? take(stemTermsStatement(words, isAuditCategory(filters.category))) : -1;
  const tagAt = filters.tag !== undefined ? take(tagSignatureStatement(filters.tag)) : -1;
  const terms = tsQueryText(input.q ?? "");
  const pinnedAt =
    pinnedDomain && terms
      ? take(sql`
          select ${siteRecordSql("sites")}, ${sites.siteKey} from ${sites}
          where ${sites.domain} = ${pinnedDomain} and ${filterCondition(filters)}
            and ${sites.searchVector} @@ to_tsquery('english', ${terms})`)
      : -1;
  const known = given ?? cachedStatistics();
  const statisticsAt = known ? -1 : take(statisticsStatement());
  return {
    statements,
    read(results: SqlRow[][]) {
      const statistics: TermStatistics = known ?? parseStatistics(results[statisticsAt]?.[0]);
      if (statisticsAt >= 0) rememberStatistics(statistics);
      const pinned = pinnedAt >= 0 ? results[pinnedAt]?.[0] : undefined;
      return {
        stems: stemsAt >= 0 ? parseStemTerms(results[stemsAt] ?? []) : [],
        tagSignature: tagAt >= 0 ? parseSignature(results[tagAt]?.[0]?.signature) : undefined,
        pinned: pinned ? { site: siteRecordFromSql(pinned), siteKey: Number(pinned.site_key) } : undefined,
        statistics,
      };
    },
  };
}

/** `sql` for a bigint parameter (sent as text: JSON has no 64-bit integers). */
const bigintParam = (value: bigint) => sql`${value.toString()}::bigint`;

/** The columns of organic order in the index, for selects and for `order by`. */
const ORGANIC_KEY = ["agentic_score", "organic_tiebreak", "site_key"] as const;
const organicKey = (alias: string) =>
  sql.join(
    ORGANIC_KEY.map((column) => sql.raw(`${alias}.${column}`)),
    sql`, `,
  );
const organicOrderBy = (alias: string) =>
  sql.raw(`${alias}.agentic_score desc, ${alias}.organic_tiebreak, ${alias}.site_key`);

/** The checks an index entry answers by itself, beside which lists it belongs to. */
function entryChecks(plan: SearchPlan, minScore: number, excluded: number | undefined): SQL[] {
  const checks: SQL[] = [sql`p.audit = ${plan.audit}`];
  if (minScore > 0) checks.push(sql`p.agentic_score >= ${minScore}::smallint`);
  if (excluded !== undefined) checks.push(sql`p.site_key <> ${excluded}`);
  if (plan.signals) checks.push(sql`(p.signal_bits & ${plan.signals.mask}::smallint) = ${plan.signals.bits}::smallint`);
  if (plan.category) checks.push(sql`p.category = ${plan.category}`);
  plan.signature.forEach((part, index) => {
    if (part === 0n) return;
    const column = sql.raw(`p.signature_${index}`);
    checks.push(sql`(${column} & ${bigintParam(part)}) = ${bigintParam(part)}`);
  });
  return checks;
}

/**
 * The driver's sites in organic order, each once. Its lists are merged, each read from the index
 * in organic order; a wide word's range is read whole and sorted.
 */
function driverStream(plan: SearchPlan, checks: SQL[]): SQL {
  const where = (termCondition: SQL) => sql.join([termCondition, ...checks], sql` and `);
  const { range, terms } = plan.driver;
  if (range) {
    return sql`select distinct ${organicKey("p")} from search_postings p
      where ${where(sql`p.term >= ${range.low} and p.term < ${range.high}`)} order by ${organicOrderBy("p")}`;
  }
  const branches = terms.map(
    (term) => sql`(select ${organicKey("p")} from search_postings p where ${where(sql`p.term = ${term}`)}
      order by ${organicOrderBy("p")})`,
  );
  // A word's lexemes may share a site (`team` and `teams`); other drivers' lists never do.
  const distinct = plan.driver.kind === "word" && branches.length > 1 ? sql`distinct` : sql``;
  return sql`select ${distinct} ${organicKey("u")} from (${sql.join(branches, sql` union all `)}) u
    order by ${organicOrderBy("u")}`;
}

/**
 * The fields the relevance tiers read, as weights of `sites.tier_vector` (migration 0030): the
 * name A, the tags and the domain B, the description's opening sentence C. Each tier key counts
 * the query's words that its fields lack; keys compare in this order.
 */
export const TIER_KEYS = [
  { fields: "AB", reads: "name, tags or domain" },
  { fields: "A", reads: "name" },
  { fields: "ABC", reads: "name, tags, domain or the description's opening sentence" },
] as const;

/** Words per query at most (text-query.ts): a key's count is below this base. */
const TIER_BASE = 9;

/** A tsquery of one word's stems, each restricted to the weights `fields`. */
export function weightedStemQueryText(stems: StemTerms[], fields: string): string {
  return stems.map(({ stem, prefix }) => `'${stem.replaceAll("'", "''")}':${prefix ? "*" : ""}${fields}`).join(" & ");
}

/**
 * A site's relevance tier for the query, lower first (docs/discovery.md, "Relevance tiers"): the
 * keys of TIER_KEYS, each the number of the query's words (all of a word's stems) that those
 * fields of `vector` lack, as one number that orders as the keys do.
 */
export function relevanceTierSql(stems: StemTerms[], vector: SQL): SQL {
  const positions = [...new Set(stems.map((stem) => stem.position))];
  if (positions.length === 0) return sql`0`;
  const keys = TIER_KEYS.map(({ fields }) => {
    const missing = positions.map((position) => {
      const text = weightedStemQueryText(
        stems.filter((stem) => stem.position === position),
        fields,
      );
      return sql`case when ${vector} @@ ${text}::tsquery then 0 else 1 end`;
    });
    return sql`(${sql.join(missing, sql` + `)})`;
  });
  const weighted = keys.map((key, index) => sql`${key} * ${sql.raw(String(TIER_BASE ** (keys.length - 1 - index)))}`);
  return sql`(${sql.join(weighted, sql` + `)})`;
}

/**
 * The second step: the first window + 1 matches in organic order (`excluded`, the pinned site,
 * left out), their count, and the page of them at `offset`, the window ordered by relevance tier
 * and organic order within each tier when the query has words.
 */
function matchesStatement(
  plan: SearchPlan,
  input: { stems: StemTerms[]; minScore: number; excluded?: number; offset: number; limit: number },
) {
  const stream = driverStream(plan, entryChecks(plan, input.minScore, input.excluded));
  // A word with a registered beginning's list, or the tag, is checked by looking the site up in
  // that one list (an index probe by the full key); the other words against the site's vector.
  const listed = [
    ...plan.exactStems.flatMap((stem) => (stem.beginning === null ? [] : [beginningTerm(stem.beginning)])),
    ...(plan.exactTag !== undefined ? [tagTerm(plan.exactTag)] : []),
  ];
  const vectorStems = plan.exactStems.filter((stem) => stem.beginning === null);
  const probes = listed.map(
    (term) => sql`exists (select from search_postings l where l.audit = ${plan.audit} and l.term = ${term}
      and l.agentic_score = m.agentic_score and l.organic_tiebreak = m.organic_tiebreak and l.site_key = m.site_key)`,
  );
  const checked =
    vectorStems.length > 0
      ? sql`select ${organicKey("m")} from (${stream}) m join sites s on s.site_key = m.site_key
          where ${sql.join([sql`s.search_vector @@ ${stemQueryText(vectorStems)}::tsquery`, ...probes], sql` and `)}
          order by ${organicOrderBy("m")}`
      : probes.length > 0
        ? sql`select ${organicKey("m")} from (${stream}) m where ${sql.join(probes, sql` and `)} order by ${organicOrderBy("m")}`
        : stream;
  const window = sql`matches as materialized (
      select ${organicKey("c")} from (${checked}) c order by ${organicOrderBy("c")} limit ${SEARCH_RESULT_WINDOW + 1}
    )`;
  if (input.stems.length === 0) {
    return sql`
    with ${window}
    select counted.total, page.*
    from (select count(*)::int as total from matches) counted
    left join lateral (
      select ${siteRecordSql("s")}, s.organic_tiebreak, s.site_key from (
        select k.site_key from matches k order by ${organicOrderBy("k")} offset ${input.offset} limit ${input.limit}
      ) wanted join sites s on s.site_key = wanted.site_key
    ) page on true
    order by ${organicOrderBy("page")}`;
  }
  // Each match's tier is read from its site's tier vector: at most window + 1 rows, found by
  // the site's key, however many sites the query's words have.
  return sql`
    with ${window},
    tiered as materialized (
      select ${organicKey("m")}, ${relevanceTierSql(input.stems, sql`s.tier_vector`)} as tier
      from matches m join sites s on s.site_key = m.site_key
    )
    select counted.total, page.*
    from (select count(*)::int as total from matches) counted
    left join lateral (
      select ${siteRecordSql("s")}, s.organic_tiebreak, s.site_key, wanted.tier from (
        select k.site_key, k.tier from tiered k order by k.tier, ${organicOrderBy("k")}
        offset ${input.offset} limit ${input.limit}
      ) wanted join sites s on s.site_key = wanted.site_key
    ) page on true
    order by page.tier, ${organicOrderBy("page")}`;
}

export interface SearchOptions {
  /** List lengths to plan with instead of the index's own (tests force each kind of driver). */
  statistics?: TermStatistics;
  /** Sees the plan the search chose. */
  observePlan?: (plan: SearchPlan) => void;
}

/** The search itself over any `RunSqlBatch` (the benchmark runs it over a direct connection). */
export async function runSearchQuery(
  run: RunSqlBatch,
  input: SearchInput,
  { statistics: given, observePlan }: SearchOptions = {},
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
  const first = firstStep(input, words, pinnedDomain, given);
  // Filters alone, with the isolate's statistics fresh, need nothing from the first step: no round trip.
  const firstResults = first.statements.length ? await run(first.statements) : [];
  const { stems, tagSignature, pinned, statistics } = first.read(firstResults);
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
    stems,
    minScore: input.filters.minScore ?? 0,
    excluded: pinned?.siteKey,
    offset,
    limit,
  });
  const results = await run([STREAMING_PLAN_SETTINGS, statement]);
  const rows = results.at(-1) ?? [];
  const counted = Number(rows[0]?.total ?? 0) + pinnedCount;
  const rest = rows.filter((row) => row.domain !== null).map(siteRecordFromSql);
  const pageResults = pinned && input.page === 1 ? [pinned.site, ...rest] : rest;
  return pageOf(pageResults, counted);
}
