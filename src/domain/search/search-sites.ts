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
function entryChecks(plan: SearchPlan, minScore: number, excluded: number | undefined): SQL[] {
  // Lists that are not words' hold impact 0: read in organic order (migration 0040).
  const checks: SQL[] = [sql`p.audit = ${plan.audit}`, sql`p.impact = 0`];
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
 * in organic order; a wide word's range is read whole and sorted. With `withFields`, each site
 * also carries `tier_fields`, or-ed over the lists it is in (a word's lexemes).
 */
function driverStream(plan: SearchPlan, checks: SQL[], withFields: boolean): SQL {
  const where = (termCondition: SQL) => sql.join([termCondition, ...checks], sql` and `);
  const fields = (alias: string) => (withFields ? sql`, ${sql.raw(alias)}.tier_fields` : sql``);
  // Sites in more than one of the lists read: once each, their fields or-ed.
  const once = (alias: string, from: SQL) =>
    withFields
      ? sql`select ${organicKey(alias)}, bit_or(${sql.raw(alias)}.tier_fields) as tier_fields from ${from}
          group by ${organicKey(alias)} order by ${organicOrderBy(alias)}`
      : sql`select distinct ${organicKey(alias)} from ${from} order by ${organicOrderBy(alias)}`;
  const { range, terms } = plan.driver;
  if (range) {
    return once("p", sql`search_postings p where ${where(sql`p.term >= ${range.low} and p.term < ${range.high}`)}`);
  }
  const branches = terms.map(
    (term) => sql`(select ${organicKey("p")}${fields("p")} from search_postings p where ${where(sql`p.term = ${term}`)}
      order by ${organicOrderBy("p")})`,
  );
  const union = sql`(${sql.join(branches, sql` union all `)}) u`;
  // A word's lexemes may share a site (`team` and `teams`); other drivers' lists never do.
  if (plan.driver.kind === "word" && branches.length > 1) return once("u", union);
  return sql`select ${organicKey("u")}${fields("u")} from ${union} order by ${organicOrderBy("u")}`;
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

/** The bits of `search_postings.tier_fields` for the weights of `sites.tier_vector` (migration 0035). */
const TIER_FIELD_BITS = { A: 1, B: 2, C: 4 } as const;

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

/** The tier (as relevanceTierSql numbers it) of a one-word query from where the site carries it. */
function tierFromFieldsSql(fields: SQL): SQL {
  const keys = TIER_KEYS.map(({ fields: weights }) => {
    const mask = [...weights].reduce(
      (bits, weight) => bits | TIER_FIELD_BITS[weight as keyof typeof TIER_FIELD_BITS],
      0,
    );
    return sql`case when ${fields} & ${sql.raw(String(mask))} = 0 then 1 else 0 end`;
  });
  return sql`(${sql.join(
    keys.map((key, index) => sql`${key} * ${sql.raw(String(TIER_BASE ** (keys.length - 1 - index)))}`),
    sql` + `,
  )})`;
}

/**
 * Where a search's tiers are read (docs/discovery.md, "Relevance tiers"). For a query of one word
 * of one stem, from the `tier_fields` of a posting the search reads anyway: the driver's own when
 * the word drives the lists, or the one its registered beginning's list is probed for (no row of
 * `sites` read). Otherwise from the site's tier vector where the site is read anyway to check a
 * word, else from each match's site, after the window.
 */
type TierSource = "none" | "postings" | "probe" | "checked" | "sites";

function tierSource(plan: SearchPlan, stems: StemTerms[], vectorChecked: boolean): TierSource {
  const [only] = stems;
  if (only === undefined) return "none";
  if (stems.length === 1 && plan.driver.kind === "word" && plan.exactStems.length === 0) return "postings";
  if (stems.length === 1 && plan.exactStems.includes(only) && only.beginning !== null) return "probe";
  return vectorChecked ? "checked" : "sites";
}

/**
 * The second step: the first window + 1 matches in organic order (`excluded`, the pinned site,
 * left out), their count, and the page of them at `offset`, the window ordered by relevance tier
 * and organic order within each tier when the query has words; with `record`, what it writes from
 * the page (`pinnedDomain` first).
 */
function matchesStatement(
  plan: SearchPlan,
  input: {
    stems: StemTerms[];
    minScore: number;
    excluded?: number;
    offset: number;
    limit: number;
    record?: PageRecord;
    pinnedDomain?: string;
  },
) {
  const vectorStems = plan.exactStems.filter((stem) => stem.beginning === null);
  const source = tierSource(plan, input.stems, vectorStems.length > 0);
  const stream = driverStream(plan, entryChecks(plan, input.minScore, input.excluded), source === "postings");
  // A word with a registered beginning's list, or the tag, is checked by looking the site up in
  // that one list (an index probe by the full key); the other words against the site's vector.
  const listed = [
    ...plan.exactStems.flatMap((stem) => (stem.beginning === null ? [] : [beginningTerm(stem.beginning)])),
    ...(plan.exactTag !== undefined ? [tagTerm(plan.exactTag)] : []),
  ];
  // The site's posting in a list: one row at most (the list index's key is the whole posting's).
  const posting = (term: string) => sql`select l.tier_fields from search_postings l
      where l.audit = ${plan.audit} and l.term = ${term} and l.impact = 0
      and l.agentic_score = m.agentic_score and l.organic_tiebreak = m.organic_tiebreak and l.site_key = m.site_key`;
  // With the tier from a probe, the word's beginning list is joined for its posting's fields.
  const tierProbe = source === "probe" ? listed[0] : undefined;
  const probes = (tierProbe !== undefined ? listed.slice(1) : listed).map((term) => sql`exists (${posting(term)})`);
  const tierOf: Partial<Record<TierSource, SQL>> = {
    postings: sql`, ${tierFromFieldsSql(sql`m.tier_fields`)} as tier`,
    probe: sql`, ${tierFromFieldsSql(sql`w.tier_fields`)} as tier`,
    checked: sql`, ${relevanceTierSql(input.stems, sql`s.tier_vector`)} as tier`,
  };
  const tier = tierOf[source] ?? sql``;
  const conditions = [
    ...(vectorStems.length > 0 ? [sql`s.search_vector @@ ${stemQueryText(vectorStems)}::tsquery`] : []),
    ...probes,
  ];
  const checked = sql`select ${organicKey("m")}${tier} from (${stream}) m
    ${tierProbe !== undefined ? sql`join lateral (${posting(tierProbe)}) w on true` : sql``}
    ${vectorStems.length > 0 ? sql`join sites s on s.site_key = m.site_key` : sql``}
    ${conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``}
    order by ${organicOrderBy("m")}`;
  const tiered = source !== "none";
  const window = sql`matches as materialized (
      select ${organicKey("c")}${tiered && source !== "sites" ? sql`, c.tier` : sql``} from (${checked}) c
      order by ${organicOrderBy("c")} limit ${SEARCH_RESULT_WINDOW + 1}
    )`;
  // Otherwise each match's tier is read from its site's tier vector: at most window + 1 rows,
  // found by the site's key, however many sites the query's words have.
  const ranked =
    source === "sites"
      ? sql`, tiered as materialized (
      select ${organicKey("m")}, ${relevanceTierSql(input.stems, sql`s.tier_vector`)} as tier
      from matches m join sites s on s.site_key = m.site_key
    )`
      : sql``;
  const pageOrder = (alias: string) =>
    tiered ? sql`${sql.raw(alias)}.tier, ${organicOrderBy(alias)}` : organicOrderBy(alias);
  const { record } = input;
  const domains = sql`(select coalesce(array_agg(p.domain order by ${pageOrder("p")}), '{}'::text[]) from page p)`;
  const recorded = record
    ? sql`, recorded as (${record.write(input.pinnedDomain ? sql`array[${input.pinnedDomain}]::text[] || ${domains}` : domains)})`
    : sql``;
  return sql`
    with ${window}${ranked},
    wanted as materialized (
      select k.site_key${tiered ? sql`, k.tier` : sql``} from ${sql.raw(source === "sites" ? "tiered" : "matches")} k
      order by ${pageOrder("k")} offset ${input.offset} limit ${input.limit}
    ),
    page as materialized (
      select ${siteRecordSql("s")}, s.organic_tiebreak, s.site_key${tiered ? sql`, wanted.tier` : sql``}
      from wanted join sites s on s.site_key = wanted.site_key
    )${recorded}
    select counted.total, page.*${record ? sql`, (select row_to_json(r) from recorded r) as recorded` : sql``}
    from (select count(*)::int as total from matches) counted
    left join page on true
    order by ${pageOrder("page")}`;
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
  const answer = async (statement: (withRecord: boolean) => SQL) => {
    let results: SqlRow[][];
    let recordedWith = record !== undefined;
    try {
      results = await run([
        STREAMING_PLAN_SETTINGS,
        statement(recordedWith),
        ...(recordedWith ? (record?.after ?? []) : []),
      ]);
    } catch (error) {
      // A write refused by Postgres never costs the search: it is read again alone, and the caller
      // writes apart (the receipt's own fallback). An unreachable database fails both alike.
      if (!recordedWith || isDatabaseUnavailable(error)) throw error;
      console.error("search's page record refused; searching without it", String(error));
      recordedWith = false;
      results = await run([STREAMING_PLAN_SETTINGS, statement(false)]);
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
    return answer((withRecord) => rankedStatement(ranking, { offset, limit, ...pinnedRecord(withRecord) }));
  }
  const plan = planSearch({ stems, filters: input.filters, tagSignature, statistics });
  if (!plan) return pageOf([], 0);
  observePlan?.(plan);

  // The pinned site is listed first and left out of the ordered rest, which shifts by one.
  return answer((withRecord) =>
    matchesStatement(plan, {
      stems,
      minScore: input.filters.minScore ?? 0,
      excluded: pinned?.siteKey,
      offset,
      limit,
      ...pinnedRecord(withRecord),
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
