/**
 * Organic search. With words, results are ranked by relevance (ranked-search.ts; docs/discovery.md,
 * "Ranking"), in which agentic_score is a bounded factor; with filters alone, by agentic_score
 * descending. Ties are broken by agentic_score, a hash of the domain (organic_tiebreak) and then
 * the site's key (sites.site_key: only two domains of equal 64-bit hash ever reach it), except
 * that a `q` naming an indexed domain exactly puts that site first. Nothing paid or
 * provider-funded, and nothing about the caller, enters the query.
 *
 * Matches are counted up to the result window (1,000, i.e. 50 pages): beyond it `total` is
 * 1,000 and `total_exact` false, as it is when a ranked search's list was cut at its depth, so
 * total, page and has_next always agree.
 *
 * A search is at most two round trips, each one transaction:
 * 1. the query's words become index terms (search-terms.ts), with the exact-domain candidate,
 *    the inventory's size and, when the isolate's copy is stale, the index statistics (nothing to
 *    ask, no round trip: filters alone without a tag, with fresh statistics);
 * 2. with words, the ranking's statement (ranked-search.ts); with filters alone, the plan's
 *    driver lists merged in organic order and checked (search-plan.ts) until window + 1 sites
 *    match. Either way its cost is bounded by a depth or by the shortest list the query names,
 *    never by how many sites match (docs/benchmarks.md).
 */
import { type SQL, sql } from "drizzle-orm";
import { sites } from "../../../db/schema/sites.ts";
import { isDatabaseUnavailable, type RunSqlBatch, type SqlRow } from "../../adapters/db.ts";
import { readBesideGuard } from "../read-beside-guard.ts";
import { normalizeDomain } from "../sites/domain-name.ts";
import { type SiteRecord, siteRecordFromSql, siteRecordSql } from "../sites/site-record.ts";
import { RANKING, type RankedList, type RankingWeights, rankedCtes, rankedLists } from "./ranked-search.ts";
import { isAuditCategory, planSearch, type SearchPlan } from "./search-plan.ts";
import {
  cachedStatistics,
  parseStatistics,
  rememberStatistics,
  statisticsStatement,
  type TermStatistics,
} from "./search-statistics.ts";
import { parseSignature, parseStemTerms, stemTermsStatement, tagSignatureStatement, tagTerm } from "./search-terms.ts";
import { filterCondition, type SiteFilters } from "./site-filters.ts";
import { JIT_OFF, RANKED_PLAN_SETTINGS, STREAMING_PLAN_SETTINGS } from "./streaming-plan.ts";
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
  // How many sites the inventory holds, for the words' idf (the counts the top list keeps).
  const sitesAt = words.length
    ? take(sql`select coalesce(sum(c.site_count), 0)::float8 as sites from site_counts c
        where search_is_audit(c.category) = ${isAuditCategory(filters.category)}`)
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
        sites: sitesAt >= 0 ? Number(results[sitesAt]?.[0]?.sites ?? 0) : 0,
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
function entryChecks(plan: SearchPlan, minScore: number): SQL[] {
  // Lists that are not words' hold impact 0: read in organic order (migration 0040).
  const checks: SQL[] = [sql`p.audit = ${plan.audit}`, sql`p.impact = 0`];
  if (minScore > 0) checks.push(sql`p.agentic_score >= ${minScore}::smallint`);
  if (plan.signals) checks.push(sql`(p.signal_bits & ${plan.signals.mask}::smallint) = ${plan.signals.bits}::smallint`);
  if (plan.category) checks.push(sql`p.category = ${plan.category}`);
  plan.signature.forEach((part, index) => {
    if (part === 0n) return;
    const column = sql.raw(`p.signature_${index}`);
    checks.push(sql`(${column} & ${bigintParam(part)}) = ${bigintParam(part)}`);
  });
  return checks;
}

/** The driver's sites in organic order: its lists (which share no site) merged, each read in organic order. */
function driverStream(plan: SearchPlan, checks: SQL[]): SQL {
  const branches = plan.driver.terms.map(
    (term) => sql`(select ${organicKey("p")} from search_postings p
      where ${sql.join([sql`p.term = ${term}`, ...checks], sql` and `)}
      order by ${organicOrderBy("p")})`,
  );
  return sql`select ${organicKey("u")} from (${sql.join(branches, sql` union all `)}) u order by ${organicOrderBy("u")}`;
}

/** What the second step writes beside the page, in its own transaction (run-search.ts: the receipt). */
export interface PageRecord {
  /**
   * The body of a data-modifying CTE given the page's domains in order (a text[] expression,
   * empty for an empty page); it must return one row, which the page's rows carry as `recorded`.
   */
  write(domains: SQL): SQL;
  /** Statements run after it in the same transaction (they see what it wrote). */
  after: SQL[];
}

/**
 * The second step of a search of filters alone: the first window + 1 matches in organic order,
 * their count, and the page of them at `offset`; with `record`, what it writes from the page.
 */
function matchesStatement(
  plan: SearchPlan,
  input: { minScore: number; offset: number; limit: number; record?: PageRecord },
) {
  const stream = driverStream(plan, entryChecks(plan, input.minScore));
  // The tag, when another list drives, is checked by looking the site up in the tag's list (an
  // index probe by the whole key: one row at most).
  const tagged =
    plan.exactTag !== undefined
      ? sql`where exists (select 1 from search_postings l
          where l.audit = ${plan.audit} and l.term = ${tagTerm(plan.exactTag)} and l.impact = 0
            and l.agentic_score = m.agentic_score and l.organic_tiebreak = m.organic_tiebreak and l.site_key = m.site_key)`
      : sql``;
  const { record } = input;
  const domains = sql`(select coalesce(array_agg(p.domain order by ${organicOrderBy("p")}), '{}'::text[]) from page p)`;
  const recorded = record ? sql`, recorded as (${record.write(domains)})` : sql``;
  return sql`
    with matches as materialized (
      select ${organicKey("m")} from (${stream}) m ${tagged}
      order by ${organicOrderBy("m")} limit ${SEARCH_RESULT_WINDOW + 1}
    ),
    wanted as materialized (
      select k.site_key from matches k order by ${organicOrderBy("k")} offset ${input.offset} limit ${input.limit}
    ),
    page as materialized (
      select ${siteRecordSql("s")}, s.organic_tiebreak, s.site_key
      from wanted join sites s on s.site_key = wanted.site_key
    )${recorded}
    select counted.total, page.*${record ? sql`, (select row_to_json(r) from recorded r) as recorded` : sql``}
    from (select count(*)::int as total from matches) counted
    left join page on true
    order by ${organicOrderBy("page")}`;
}

export interface SearchOptions {
  /** List lengths to plan with instead of the index's own (tests force each kind of driver). */
  statistics?: TermStatistics;
  /** Sees the plan the search chose. */
  observePlan?: (plan: SearchPlan) => void;
  /**
   * The caller's admission (its rate limit): started beside the first step, which only reads,
   * and settled before the second; if it throws, the search throws it and has written nothing.
   */
  admit?: () => Promise<unknown>;
  /** What to write from the page in the second step's transaction (run-search.ts: the receipt). */
  record?: PageRecord;
  /** Ranking weights other than RANKING (the relevance benchmark's tuning runs). */
  weights?: RankingWeights;
  /** Told the lists a search with words ranks (tests, benchmarks). */
  observeLists?: (lists: RankedList[]) => void;
}

/** A page, and when the second step wrote `record`: its row and the rows of each `after` statement. */
export interface RecordedSearchPage extends SearchPage {
  recorded?: { row: SqlRow; after: SqlRow[][] };
}

/** The search itself over any `RunSqlBatch` (the benchmark runs it over a direct connection). */
export async function runSearchQuery(
  run: RunSqlBatch,
  input: SearchInput,
  { statistics: given, observePlan, observeLists, admit, record, weights = RANKING }: SearchOptions = {},
): Promise<RecordedSearchPage> {
  const pageStart = (input.page - 1) * SEARCH_PAGE_SIZE;
  // `cut`: more sites match than were counted (a ranked search's list read to its depth).
  const pageOf = (results: SiteRecord[], counted: number, cut = false): SearchPage => {
    const total = Math.min(counted, SEARCH_RESULT_WINDOW);
    return {
      results,
      firstPosition: pageStart + 1,
      total,
      totalExact: !cut && counted <= SEARCH_RESULT_WINDOW,
      page: input.page,
      perPage: SEARCH_PAGE_SIZE,
      hasNext: input.page * SEARCH_PAGE_SIZE < total,
    };
  };
  const admission = admit?.() ?? Promise.resolve();
  const words = input.q ? queryWords(input.q) : [];
  // A q without letters or digits matches nothing rather than everything.
  if (input.q && words.length === 0) {
    await admission;
    return pageOf([], 0);
  }

  const pinnedDomain = domainNamedBy(input.q);
  const first = firstStep(input, words, pinnedDomain, given);
  // Filters alone, with the isolate's statistics fresh, need nothing from the first step: no round trip.
  const firstResults = await readBesideGuard(admission, async () =>
    first.statements.length ? run(first.statements) : [],
  );
  const { stems, tagSignature, pinned, statistics, sites: inventory } = first.read(firstResults);
  // Words that are all stop words leave nothing to match.
  if (words.length && stems.length === 0) return pageOf([], 0);
  const pinnedCount = pinned ? 1 : 0;
  const pinnedOnPage = pinned !== undefined && input.page === 1;
  const offset = Math.max(0, pageStart - pinnedCount);
  const limit = pinnedOnPage ? SEARCH_PAGE_SIZE - 1 : SEARCH_PAGE_SIZE;
  const pinnedRecord = (withRecord: boolean) =>
    withRecord && record ? { record, ...(pinnedOnPage ? { pinnedDomain: pinned.site.domain } : {}) } : {};
  const answer = async (settings: SQL, statement: (withRecord: boolean) => SQL) => {
    let results: SqlRow[][];
    let recordedWith = record !== undefined;
    try {
      results = await run([settings, statement(recordedWith), ...(recordedWith ? (record?.after ?? []) : [])]);
    } catch (error) {
      // A write refused by Postgres never costs the search: it is read again alone, and the caller
      // writes apart (the receipt's own fallback). An unreachable database fails both alike.
      if (!recordedWith || isDatabaseUnavailable(error)) throw error;
      console.error("search's page record refused; searching without it", String(error));
      recordedWith = false;
      results = await run([settings, statement(false)]);
    }
    const rows = results[1] ?? [];
    const counted = Number(rows[0]?.total ?? 0) + pinnedCount;
    const rest = rows.filter((row) => row.domain !== null).map(siteRecordFromSql);
    const page = pageOf(pinnedOnPage ? [pinned.site, ...rest] : rest, counted, rows[0]?.cut === true);
    const recordedRow = rows[0]?.recorded as SqlRow | undefined;
    return recordedWith && recordedRow ? { ...page, recorded: { row: recordedRow, after: results.slice(2) } } : page;
  };

  if (stems.length > 0) {
    const lists = rankedLists(words, stems, statistics);
    observeLists?.(lists);
    if (lists.length === 0) return pageOf(pinnedOnPage ? [pinned.site] : [], pinnedCount);
    const ranking = rankedCtes({
      lists,
      filters: input.filters,
      audit: isAuditCategory(input.filters.category),
      inventory,
      ...(tagSignature ? { tagSignature } : {}),
      ...(pinned ? { excluded: pinned.siteKey } : {}),
      window: SEARCH_RESULT_WINDOW + 1,
      weights,
    });
    return answer(RANKED_PLAN_SETTINGS, (withRecord) =>
      rankedStatement(ranking, { offset, limit, ...pinnedRecord(withRecord) }),
    );
  }
  const plan = planSearch({ filters: input.filters, tagSignature, statistics });
  observePlan?.(plan);
  return answer(STREAMING_PLAN_SETTINGS, (withRecord) =>
    matchesStatement(plan, {
      minScore: input.filters.minScore ?? 0,
      offset,
      limit,
      ...(withRecord && record ? { record } : {}),
    }),
  );
}

/**
 * The second step of a search with words: the ranking's page at `offset` (ranked-search.ts), its
 * sites, how many sites were ranked and whether more match; with `record`, what it writes from
 * the page.
 */
function rankedStatement(
  ranking: SQL,
  input: { offset: number; limit: number; record?: PageRecord; pinnedDomain?: string },
): SQL {
  const { record } = input;
  const domains = sql`(select coalesce(array_agg(p.domain order by p.place), '{}'::text[]) from page p)`;
  const recorded = record
    ? sql`, recorded as (${record.write(input.pinnedDomain ? sql`array[${input.pinnedDomain}]::text[] || ${domains}` : domains)})`
    : sql``;
  return sql`
    with ${ranking},
    page as materialized (
      select ${siteRecordSql("s")}, s.organic_tiebreak, s.site_key, r.place
      from ranked r join sites s on s.site_key = r.site_key
      where r.place > ${input.offset} and r.place <= ${input.offset + input.limit}
    )${recorded}
    select counted.total, counted.cut, page.*${record ? sql`, (select row_to_json(r) from recorded r) as recorded` : sql``}
    from (select coalesce(max(total), 0)::int as total, coalesce(bool_or(cut), false) as cut from ranked) counted
    left join page on true
    order by page.place`;
}
