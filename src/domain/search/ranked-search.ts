/**
 * Ranked retrieval (docs/discovery.md, "Ranking"): a query's words become weighted lists of the
 * search index, and one statement reads each list best-first to a fixed depth and ranks what it read.
 *
 * A site's relevance is, over the query's words it matches, the sum of
 *   weight(list) × (impact / 1000 + matchBonus)
 * for the word's best list of the site, where impact is the site's BM25F weight for the term (name,
 * domain labels, tags, category, description and capabilities, each with its weight, saturated
 * and normalised by length; migration 0040) and weight the list's inverse document frequency
 * (BM25's). The bonus makes a site that matches one more informative word rank above one that
 * matches it better but lacks it. Readiness is a bounded factor within relevance:
 * score = relevance × (1 + readiness × agentic_score / 100).
 *
 * The depth (champion lists): every list is read in impact order to the same depth, which depends
 * on the query alone (DEPTH_BUDGET shared by its lists, at least MIN_DEPTH, at most the result
 * window), never on the page, so every page of a query is a slice of one ranking. A list
 * no longer than the depth is read whole, so on an index whose lists are all that short the
 * ranking is exact; beyond it, a site that is in none of its words' first `depth` sites is not
 * ranked, and a word whose list is cut counts only for the sites of its first `depth`.
 */
import { type SQL, sql } from "drizzle-orm";
import type { TermStatistics } from "./search-statistics.ts";
import {
  allowedSignalBits,
  beginningTerm,
  EMPTY_SIGNATURE,
  isWide,
  MAX_WORD_TERMS,
  type Signature,
  type StemTerms,
} from "./search-terms.ts";
import type { SiteFilters } from "./site-filters.ts";
import { isRequestWord } from "./text-query.ts";

export interface RankingWeights {
  /** What matching a word at all is worth, as a share of its list's weight. */
  matchBonus: number;
  /** The most a perfect agentic_score adds to a site's relevance, as a share of it. */
  readiness: number;
  /** A prefix's other lexemes count for this share of the word itself ("map" in "mapping"). */
  prefixShare: number;
  /** A request word ("need", "find": text-query.ts) counts for this share of its list's weight. */
  requestShare: number;
}

/** The weights every search ranks with (docs/discovery.md, "Ranking"). */
export const RANKING: RankingWeights = { matchBonus: 0.25, readiness: 0.05, prefixShare: 0.5, requestShare: 0.25 };

/** Postings a ranked search reads at most, shared by its lists (each read to the same depth). */
export const DEPTH_BUDGET = 2000;
/** The depth of every list, however many lists a query has. */
export const MIN_DEPTH = 100;

/** One list a ranked search reads: its term, the query word it stands for, how it counts. */
export interface RankedList {
  term: string;
  /** The query word's position (lists of one word share it; a site counts its best one). */
  word: number;
  /** The word itself (its own lexeme, its beginning's list, its correction): its full weight. */
  own: boolean;
  /** The word only phrases the request: it counts a little, no bonus, and never makes a match. */
  request: boolean;
  /** The statistics' estimate of the list's length, for a list longer than the depth (0 unknown). */
  estimate: number;
}

/** A ranked score's decimal places. */
export const SCORE_DIGITS = 9;

/** The depth every list of a query is read to (ranked-search.ts, "The depth"). */
export function rankedDepth(lists: number, window: number): number {
  return Math.min(window, Math.max(MIN_DEPTH, Math.floor(DEPTH_BUDGET / Math.max(lists, 1))));
}

/**
 * The lists of the query's words. A word's own lexeme, its registered beginning's list (of a
 * prefix) and its correction (a word in no list) count fully; the other lexemes of a prefix as
 * RANKING.prefixShare of it.
 */
export function rankedLists(words: readonly string[], stems: StemTerms[], statistics: TermStatistics): RankedList[] {
  const lists = new Map<string, RankedList>();
  for (const stem of stems) {
    const own = `w:${stem.stem}`;
    const beginning = stem.beginning === null ? null : beginningTerm(stem.beginning);
    const owned = (term: string) => term === own || term === beginning || stem.correction !== null;
    // A prefix with a registered beginning of the same lexemes reads that one list instead of
    // theirs (and its own lexeme's, for its full weight); a wide prefix without one, its own
    // lexeme and the first MAX_WORD_TERMS of its others in byte order.
    const terms = stem.correction
      ? [`w:${stem.correction}`]
      : beginning
        ? [beginning, own]
        : isWide(stem)
          ? [own, ...stem.terms.slice(0, MAX_WORD_TERMS)]
          : stem.terms;
    for (const term of terms) {
      // A term of two of the query's words (two spellings of one stem) is read once, for the first.
      if (lists.has(term)) continue;
      lists.set(term, {
        term,
        word: stem.position,
        own: owned(term),
        request: isRequestWord(words, stem.position - 1),
        estimate: statistics.listLength(term) ?? 0,
      });
    }
  }
  return [...lists.values()];
}

const floatParam = (value: number) => sql`${value.toFixed(6)}::float8`;

/** What a ranked search is given beside its lists. */
export interface RankedInput {
  lists: RankedList[];
  filters: SiteFilters;
  audit: boolean;
  /** The sites of the inventory searched (for the idf). */
  inventory: number;
  tagSignature?: Signature;
  /** A site left out (the pinned exact-domain match). */
  excluded?: number;
  /** How many of the ranking's first places to return. */
  window: number;
  weights: RankingWeights;
}

/**
 * The ranking as a statement's CTEs: `ranked(site_key, score, place, total, cut)`, its first
 * `window` places (place 1 the best); `total` the sites ranked, `cut` whether a list was longer
 * than the depth (then more sites match than were ranked).
 */
export function rankedCtes(input: RankedInput): SQL {
  const { lists, filters, weights } = input;
  const depth = rankedDepth(lists.length, input.window);
  const signals = allowedSignalBits(filters);
  const signature = filters.tag !== undefined ? (input.tagSignature ?? EMPTY_SIGNATURE) : EMPTY_SIGNATURE;
  const checks: SQL[] = [];
  if ((filters.minScore ?? 0) > 0) checks.push(sql`p.agentic_score >= ${filters.minScore}::smallint`);
  if (signals.mask !== 0) checks.push(sql`(p.signal_bits & ${signals.mask}::smallint) = ${signals.bits}::smallint`);
  if (filters.category !== undefined) checks.push(sql`p.category = ${filters.category}`);
  if (input.excluded !== undefined) checks.push(sql`p.site_key <> ${input.excluded}`);
  signature.forEach((part, index) => {
    if (part === 0n) return;
    const column = sql.raw(`p.signature_${index}`);
    const value = sql`${part.toString()}::bigint`;
    checks.push(sql`(${column} & ${value}) = ${value}`);
  });
  // The tag: its signature rules most sites out, then a probe of its list by the whole key.
  if (filters.tag !== undefined)
    checks.push(sql`exists (select 1 from search_postings t
      where t.audit = p.audit and t.term = ${`t:${filters.tag}`} and t.impact = 0
        and t.agentic_score = p.agentic_score and t.organic_tiebreak = p.organic_tiebreak and t.site_key = p.site_key)`);
  const where = checks.length ? sql` and ${sql.join(checks, sql` and `)}` : sql``;
  const population = Math.max(input.inventory, 1);
  // A site's part of a word is its best list's; with one list a word, each posting is that part.
  const onePerWord = new Set(lists.map((list) => list.word)).size === lists.length;
  const part = sql`w.weight * l.impact + w.bonus`;
  const parts = onePerWord
    ? sql`select l.site_key, l.agentic_score, l.organic_tiebreak, not w.request as needed, ${part} as part
        from lists l join list_weights w on w.i = l.i`
    : sql`select l.site_key, l.agentic_score, l.organic_tiebreak, bool_or(not w.request) as needed, max(${part}) as part
        from lists l join list_weights w on w.i = l.i
        group by l.site_key, l.agentic_score, l.organic_tiebreak, w.word`;
  return sql`
    lists as materialized (
      select l.i, e.site_key, e.agentic_score, e.organic_tiebreak, e.impact
      from unnest(${sql.param(lists.map((list) => list.term))}::text[]) with ordinality as l(term, i)
      cross join lateral (
        select p.site_key, p.agentic_score, p.organic_tiebreak, p.impact from search_postings p
        where p.audit = ${input.audit} and p.term = l.term${where}
        order by p.impact desc, p.agentic_score desc, p.organic_tiebreak, p.site_key
        limit ${depth}
      ) e
    ),
    -- Each list's length: counted when it was read whole, else at least the depth (the
    -- statistics' estimate when longer); its idf, BM25's, over the inventory's sites.
    lengths as materialized (
      select x.i, x.word, x.own, x.request, case when coalesce(n.read, 0) < ${depth} then coalesce(n.read, 0)
        else greatest(${depth}, x.estimate) end::float8 as length
      from unnest(${sql.param(lists.map((list) => list.word))}::int[], ${sql.param(lists.map((list) => list.own))}::boolean[],
        ${sql.param(lists.map((list) => list.request))}::boolean[],
        ${sql.param(lists.map((list) => Math.round(list.estimate)))}::float8[]) with ordinality as x(word, own, request, estimate, i)
      left join (select i, count(*) as read from lists group by i) n on n.i = x.i
    ),
    idfs as materialized (
      select g.i, g.word, g.own, g.request, ln(1 + (${floatParam(population)} - g.length + 0.5) / (g.length + 0.5)) as idf
      from lengths g
    ),
    -- What a posting of the list is worth: weight × impact / 1000, plus the bonus of matching.
    list_weights as materialized (
      select v.i, v.word, v.request, v.weight / 1000.0 as weight,
        case when v.request then 0 else v.weight * ${floatParam(weights.matchBonus)} end as bonus
      from (
        select d.i, d.word, d.request,
          case when d.own then d.idf else ${floatParam(weights.prefixShare)} * least(d.idf, coalesce(o.idf, d.idf)) end
            * case when d.request then ${floatParam(weights.requestShare)} else 1 end as weight
        from idfs d left join lateral (select max(x.idf) as idf from idfs x where x.word = d.word and x.own) o on true
      ) v
    ),
    parts as (${parts}),
    -- Rounded, so that equal relevance is equal whatever order its sum was taken in; a site that
    -- matches request words alone is no match.
    scored as materialized (
      select p.site_key, p.agentic_score, p.organic_tiebreak,
        round(sum(p.part) * (1 + ${floatParam(weights.readiness)} * p.agentic_score / 100.0) * ${sql.raw(`1e${SCORE_DIGITS}`)}) as score
      from parts p group by p.site_key, p.agentic_score, p.organic_tiebreak
      having bool_or(p.needed)
    ),
    ranked as materialized (
      select s.site_key, s.score,
        row_number() over (order by s.score desc, s.agentic_score desc, s.organic_tiebreak, s.site_key) as place,
        (select count(*) from scored) as total,
        exists (select 1 from lengths g where g.length >= ${depth}) as cut
      from scored s
      order by place limit ${input.window}
    )`;
}
