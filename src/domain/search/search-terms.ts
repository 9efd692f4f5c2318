/**
 * The terms of the search index (`search_postings`, migration 0005) and the first step of every
 * search: turning the query's words into the terms whose lists hold their matches.
 *
 * A word is stemmed as English by Postgres; a word that is a prefix (text-query.ts) stands for
 * every indexed lexeme that begins with its stem. Those lexemes are found by a skip scan of the
 * list index (one descent per distinct lexeme), up to MAX_WORD_TERMS + 1. A word with more is
 * "wide": the ranking reads its registered wide beginning's one list (`b:<beginning>`,
 * wide-beginnings.ts) when one has the same lexemes as its stem, and otherwise its own lexeme and
 * the first MAX_WORD_TERMS of the others (ranked-search.ts). A word whose stem is in no list is
 * given the nearest lexeme that is (its correction).
 */
import { type SQL, sql } from "drizzle-orm";
import type { SiteFilters } from "./site-filters.ts";
import { isPrefixWord, isRequestWord } from "./text-query.ts";

/** A word whose prefix expands to more lexemes than this is not read as merged lists. */
export const MAX_WORD_TERMS = 32;

/** A wide beginning is worth a list of its own (wide-beginnings.ts) past this many postings. */
export const WIDE_RANGE_LIMIT = 20_000;

/** Bits of `signal_bits` (SQL function search_signal_bits). */
export const SIGNAL_BITS = { hasApi: 8, hasMcp: 4, hasOpenapi: 2, hasLlmsTxt: 1 } as const;

export const tagTerm = (tag: string) => `t:${tag}`;
/**
 * A category's sites are listed per signal pattern (migration 0024): a category with flags reads
 * only the patterns the flags allow, however rare they are within it, and without flags all 16.
 */
export const categoryTerm = (category: string, signalBits: number) => `c:${category}:${signalBits}`;
export const signalTerm = (bits: number) => `p:${bits}`;
/** The list of every site with a lexeme that begins with a registered wide beginning. */
export const beginningTerm = (beginning: string) => `b:${beginning}`;

/** The `signal_bits` values a site may have under the filters' flags, and the mask they fix. */
export function allowedSignalBits(filters: SiteFilters): { values: number[]; mask: number; bits: number } {
  let mask = 0;
  let bits = 0;
  for (const [name, bit] of Object.entries(SIGNAL_BITS)) {
    const wanted = filters[name as keyof typeof SIGNAL_BITS];
    if (wanted === undefined) continue;
    mask |= bit;
    if (wanted) bits |= bit;
  }
  const values = Array.from({ length: 16 }, (_, value) => value).filter((value) => (value & mask) === bits);
  return { values, mask, bits };
}

/** A 256-bit signature as four signed 64-bit parts (SQL function search_signature). */
export type Signature = readonly [bigint, bigint, bigint, bigint];

export const EMPTY_SIGNATURE: Signature = [0n, 0n, 0n, 0n];

/** One stem of a query word, with the lexeme terms it stands for. */
export interface StemTerms {
  /** Position of its word in the query (1-based). */
  position: number;
  stem: string;
  prefix: boolean;
  /** `w:` terms in byte order; MAX_WORD_TERMS + 1 of them when the word is wide. */
  terms: string[];
  /**
   * A registered wide beginning whose list `b:<beginning>` holds exactly the word's sites: the
   * stem itself, or a beginning it begins, or one that begins it, when the index has no lexeme
   * in one range and not in the other (`ter` and `terra` when every lexeme beginning with `ter`
   * begins with `terra`). Null when there is none.
   */
  beginning: string | null;
  /** For a word whose stem is in no list, the closest lexeme that is (SQL search_correction). */
  correction: string | null;
}

export const isWide = (stem: StemTerms) => stem.terms.length > MAX_WORD_TERMS;

/** Words shorter than this are never corrected (too many words lie one edit from them). */
export const MIN_CORRECTED_LENGTH = 4;

/**
 * The statement of the first step: every stem of the query's words, with its terms among the
 * lists of one inventory (discovery or audit) and its signature. A stop word yields no stem.
 */
export function stemTermsStatement(words: string[], audit: boolean): SQL {
  const prefixes = words.map((_, index) => isPrefixWord(words, index));
  // A request word never decides a match, so it is never corrected either.
  const correctable = words.map((word, index) => word.length >= MIN_CORRECTED_LENGTH && !isRequestWord(words, index));
  // Lexemes beginning with the stem lie in [w:stem, w:stem + U+10FFFF) in byte order; the exact
  // lexeme alone in [w:stem, w:stem + U+0001).
  return sql`
    with recursive stems as (
      select w.position::int, w.word, w.prefix, w.correctable, v.lexeme as stem, 'w:' || v.lexeme as low,
        'w:' || v.lexeme || case when w.prefix then U&'\\+10FFFF' else chr(1) end as high
      from unnest(${sql.param(words)}::text[], ${sql.param(prefixes)}::boolean[], ${sql.param(correctable)}::boolean[])
        with ordinality as w(word, prefix, correctable, position),
        unnest(to_tsvector('english', w.word)) as v(lexeme)
    ),
    found as (
      select s.position, s.stem, s.high, 1 as found_count,
        (select p.term from search_postings p
         where p.audit = ${audit} and p.term >= s.low and p.term < s.high order by p.term limit 1) as term
      from stems s
      union all
      select f.position, f.stem, f.high, f.found_count + 1,
        (select p.term from search_postings p
         where p.audit = ${audit} and p.term > f.term and p.term < f.high order by p.term limit 1)
      from found f
      where f.term is not null and f.found_count <= ${MAX_WORD_TERMS}
    )
    select s.position, s.stem, s.prefix, t.terms, same.beginning, fix.lexeme as correction
    from stems s
    left join lateral (
      -- Of two nested ranges, the outer one [outer, outer + U+10FFFF) holds the same lexemes as
      -- the inner one when it has none below the inner one's low end or from its high end on.
      select b.beginning from search_beginnings b,
        lateral (select case when char_length(b.beginning) <= char_length(s.stem) then b.beginning else s.stem end as outer_stem,
          case when char_length(b.beginning) <= char_length(s.stem) then s.stem else b.beginning end as inner_stem) n
      where s.prefix and (starts_with(s.stem, b.beginning) or starts_with(b.beginning, s.stem))
        -- Each probe a first-term lookup, as above, rather than an anti-join the planner would
        -- cost over the whole range.
        and (select p.term from search_postings p where p.audit = ${audit}
          and p.term >= 'w:' || n.outer_stem and p.term < 'w:' || n.inner_stem order by p.term limit 1) is null
        and (select p.term from search_postings p where p.audit = ${audit}
          and p.term >= 'w:' || n.inner_stem || U&'\\+10FFFF' and p.term < 'w:' || n.outer_stem || U&'\\+10FFFF'
          order by p.term limit 1) is null
      order by char_length(b.beginning) desc limit 1
    ) same on true,
    lateral (
      select coalesce(array_agg(f.term order by f.term), '{}') as terms from found f
      where f.position = s.position and f.stem = s.stem and f.term is not null
    ) t
    -- A word the index does not hold: the closest one it does (docs/discovery.md, "Query understanding").
    left join lateral (
      select search_correction(s.word, ${audit}) as lexeme
      where cardinality(t.terms) = 0 and s.correctable
    ) fix on true
    order by s.position, s.stem`;
}

export const parseSignature = (parts: unknown): Signature => {
  const values = (parts as (string | number)[]).map((part) => BigInt(part));
  return [values[0] ?? 0n, values[1] ?? 0n, values[2] ?? 0n, values[3] ?? 0n] as const;
};

export function parseStemTerms(rows: Record<string, unknown>[]): StemTerms[] {
  return rows.map((row) => ({
    correction: typeof row.correction === "string" ? row.correction : null,
    position: Number(row.position),
    stem: String(row.stem),
    prefix: Boolean(row.prefix),
    terms: (row.terms as string[]) ?? [],
    beginning: typeof row.beginning === "string" ? row.beginning : null,
  }));
}

/** The statement giving the signature a site with tag `tag` holds. */
export const tagSignatureStatement = (tag: string): SQL =>
  sql`select search_signature(array['#' || ${tag}])::text[] as signature`;
