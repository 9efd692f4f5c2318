/**
 * How long each list of the search index is, as Postgres' own statistics of `search_postings.term`
 * estimate it: ANALYZE keeps the most common terms with their frequencies, and a histogram that
 * splits the other rows into equal shares. A search reads its shortest list, so it needs lengths
 * only roughly; they never change what a search returns.
 *
 * The figures are kept per isolate for STATISTICS_TTL_MS and fetched with a search's first step
 * when stale. Without statistics (a database never analysed) every list counts as equally long.
 */
import { type SQL, sql } from "drizzle-orm";

export const STATISTICS_TTL_MS = 10 * 60 * 1000;

export interface TermStatistics {
  /** Estimated number of sites in the list of `term`, or undefined when unknown. */
  listLength(term: string): number | undefined;
  /** Estimated postings of every term in [low, high) in byte order, or undefined when unknown. */
  rangeLength(low: string, high: string): number | undefined;
}

interface StatisticsRow {
  rows: number | string | null;
  terms: string[] | null;
  freqs: (number | string)[] | null;
  n_distinct: number | string | null;
  bounds: string[] | null;
}

export const UNKNOWN_STATISTICS: TermStatistics = { listLength: () => undefined, rangeLength: () => undefined };

export const statisticsStatement = (): SQL => sql`
  select c.reltuples::float8 as rows, s.most_common_vals::text::text[] as terms,
    s.most_common_freqs::float8[] as freqs, s.n_distinct::float8 as n_distinct,
    s.histogram_bounds::text::text[] as bounds
  from pg_class c
  left join pg_stats s on s.schemaname = current_schema() and s.tablename = 'search_postings' and s.attname = 'term'
  where c.oid = 'search_postings'::regclass`;

/**
 * The order the "C" collation of `term` sorts in: UTF-8 bytes, that is code points (JavaScript's
 * own `<` compares UTF-16 units, which differs past U+FFFF).
 */
function byteOrder(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done || y.done) return (x.done ? 0 : 1) - (y.done ? 0 : 1);
    const difference = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
}

/** Statistics from the row of `statisticsStatement`; unknown when the table was never analysed. */
export function parseStatistics(row: Record<string, unknown> | undefined): TermStatistics {
  const { rows, terms, freqs, n_distinct, bounds } = (row ?? {}) as Partial<StatisticsRow>;
  const total = Number(rows);
  if (!terms || !freqs || !(total > 0)) return UNKNOWN_STATISTICS;
  const frequencies = new Map(terms.map((term, index) => [term, Number(freqs[index])]));
  // Postgres' own rule for a value outside the common list: the rest of the rows, shared evenly.
  const distinct = Number(n_distinct) < 0 ? -Number(n_distinct) * total : Number(n_distinct);
  const commonShare = [...frequencies.values()].reduce((sum, frequency) => sum + frequency, 0);
  const otherFrequency = Math.max(0, 1 - commonShare) / Math.max(1, distinct - frequencies.size);
  const inRange = (term: string, low: string, high: string) => byteOrder(term, low) >= 0 && byteOrder(term, high) < 0;
  return {
    listLength: (term) => Math.round((frequencies.get(term) ?? otherFrequency) * total),
    rangeLength(low, high) {
      let share = 0;
      for (const [term, frequency] of frequencies) if (inRange(term, low, high)) share += frequency;
      // The histogram's bounds cut the other rows into equal buckets: count the buckets in range.
      if (bounds && bounds.length > 1) {
        const inside = bounds.filter((bound) => inRange(bound, low, high)).length;
        share += (inside / (bounds.length - 1)) * Math.max(0, 1 - commonShare);
      }
      return Math.round(share * total);
    },
  };
}

let cached: { statistics: TermStatistics; until: number } | undefined;

/** The cached statistics, or undefined when they must be fetched. */
export function cachedStatistics(now = Date.now()): TermStatistics | undefined {
  return cached && cached.until > now ? cached.statistics : undefined;
}

export function rememberStatistics(statistics: TermStatistics, now = Date.now()): void {
  cached = { statistics, until: now + STATISTICS_TTL_MS };
}
