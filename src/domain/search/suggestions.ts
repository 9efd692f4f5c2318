/**
 * Why a search found nothing, and the nearest words of the index's own vocabulary that would
 * match (docs/discovery.md, "When nothing matches"). The vocabulary is the lexemes the index
 * lists sites under (`w:<lexeme>` terms of search_postings, discovery inventory only); a
 * vocabulary is anything that can name its words near a given word (`Vocabulary`), so a
 * spelling corrector can use the same ranking over another word list.
 *
 * The nearest words of a word are the vocabulary's words within a small edit distance
 * (Damerau–Levenshtein: a letter added, dropped, changed or two swapped), at most 1 for words of up
 * to 4 letters, 2 from 5 and 3 from 9; a stem of the word counts at one edit more than the letters
 * it lacks would ("geolocaton" is 1 from the stem "geoloc" + what it adds). Closest first, then the
 * shorter difference in length, then alphabetically: the same words for every caller.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../adapters/db.ts";
import type { SiteFilters } from "./site-filters.ts";
import { queryWords } from "./text-query.ts";

/** Words of a vocabulary near a word: its candidates, which the ranking below narrows. */
export interface Vocabulary {
  /** The vocabulary's words sharing the word's first letters (a bounded list, any order). */
  wordsNear(word: string): Promise<string[]>;
  /** Which of these words some site is listed under (as a word or as the beginning of one). */
  known(words: readonly string[]): Promise<Set<string>>;
}

/** At most this many nearest words are offered for one query word. */
export const SUGGESTIONS_PER_WORD = 3;
/** At most this many suggestions in all. */
export const MAX_SUGGESTIONS = 6;

/** The edit distance of a and b, adjacent swaps counting one (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** How many edits a word of this length may be from a suggestion. */
export function allowedEdits(length: number): number {
  return length <= 4 ? 1 : length <= 8 ? 2 : 3;
}

/** How far a vocabulary word is from a query word: as spelt, or as a stem of it. */
function distanceTo(word: string, candidate: string): number {
  const whole = editDistance(word, candidate);
  if (candidate.length >= 4 && candidate.length < word.length) {
    return Math.min(whole, editDistance(word.slice(0, candidate.length), candidate) + 1);
  }
  return whole;
}

/** The nearest words of `candidates` to `word`, nearest first (see the module comment). */
export function rankNearest(word: string, candidates: readonly string[], limit = SUGGESTIONS_PER_WORD): string[] {
  const allowed = allowedEdits(word.length);
  return [...new Set(candidates)]
    .filter((candidate) => candidate !== word)
    .map((candidate) => ({ candidate, distance: distanceTo(word, candidate) }))
    .filter((each) => each.distance <= allowed)
    .sort(
      (a, b) =>
        a.distance - b.distance ||
        Math.abs(a.candidate.length - word.length) - Math.abs(b.candidate.length - word.length) ||
        (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0),
    )
    .slice(0, limit)
    .map((each) => each.candidate);
}

/** A word to try instead of one of the query's, and the query with it in that word's place. */
export interface Suggestion {
  word: string;
  replaces: string;
  query: string;
}

/** Why a search found nothing, in words and as a code. */
export interface NoMatch {
  reason: "unknown_words" | "filters";
  detail: string;
  /** The query's words no indexed site is listed under. */
  unknown_words: string[];
}

/** Whether any filter narrows the search. */
const hasFilters = (filters: SiteFilters) => Object.values(filters).some((value) => value !== undefined);

/**
 * Why a search with these words and filters found nothing, and the nearest words of the
 * vocabulary for each of its words no site is listed under. Called only for a search that found
 * nothing.
 */
export async function explainNoMatch(
  vocabulary: Vocabulary,
  input: { q?: string; filters: SiteFilters },
): Promise<{ no_match: NoMatch; suggestions: Suggestion[] }> {
  const words = input.q ? queryWords(input.q) : [];
  const filtered = hasFilters(input.filters);
  const known = words.length ? await vocabulary.known(words) : new Set<string>();
  const unknown = words.filter((word) => !known.has(word));
  if (unknown.length === 0) {
    const detail = words.length
      ? filtered
        ? "Every word is in the index, but no site with these filters has any of them: try fewer filters."
        : "Every word is in the index, but they only phrase a request (need, find, service…): add the words of what is needed."
      : "No site matches these filters: try fewer of them.";
    return { no_match: { reason: "filters", detail, unknown_words: [] }, suggestions: [] };
  }
  const suggestions: Suggestion[] = [];
  for (const word of unknown) {
    const nearest = rankNearest(word, await vocabulary.wordsNear(word));
    for (const near of nearest) {
      const query = words.map((each) => (each === word ? near : each)).join(" ");
      suggestions.push({ word: near, replaces: word, query });
    }
  }
  const quoted = unknown.map((word) => `“${word}”`).join(", ");
  const detail = `No indexed site has the word${unknown.length === 1 ? "" : "s"} ${quoted}${
    suggestions.length ? ": the nearest words that would match are offered in suggestions." : "."
  }`;
  return {
    no_match: { reason: "unknown_words", detail, unknown_words: unknown },
    suggestions: suggestions.slice(0, MAX_SUGGESTIONS),
  };
}

/** How many vocabulary words are read near a word (one index descent each). */
const CANDIDATES_READ = 400;

/** The "C"-collation bound just past every term that begins with `prefix`. */
const pastPrefix = (prefix: string) => `${prefix}\u{10FFFF}`;

/**
 * The index's vocabulary: the `w:` terms of discovery inventory's postings. Words near a word
 * are read by a skip scan of the list index over the terms sharing its first letters (3, or 2 for
 * a short word); a word is known when a term is the word itself or begins with it, as a word of 3
 * or more letters matches as a prefix, or is the word's English stem.
 */
export function postingsVocabulary(db: Database): Vocabulary {
  return {
    async wordsNear(word) {
      const prefix = `w:${word.slice(0, word.length <= 4 ? 2 : 3)}`;
      const rows = await db.execute(sql`
        with recursive walk(term) as (
          (select term from search_postings
            where audit = false and term >= ${prefix} and term < ${pastPrefix(prefix)}
            order by term limit 1)
          union all
          select (select p.term from search_postings p
                   where p.audit = false and p.term > walk.term and p.term < ${pastPrefix(prefix)}
                   order by p.term limit 1)
          from walk where walk.term is not null
        )
        select term from walk where term is not null limit ${CANDIDATES_READ}`);
      return (rows.rows as { term: string }[]).map((row) => row.term.slice(2));
    },
    async known(words) {
      const rows = await db.execute(sql`
        select word from unnest(${sql.raw("array[")}${sql.join(
          words.map((word) => sql`${word}::text`),
          sql`, `,
        )}${sql.raw("]")}) as word
        where exists (
          select 1 from search_postings
          where audit = false and term >= 'w:' || word and term < 'w:' || word || ${"\u{10FFFF}"}
            and (length(word) >= 3 or term = 'w:' || word)
        ) or exists (
          select 1 from unnest(to_tsvector('english', word)) as stem
          join search_postings on audit = false and term = 'w:' || stem.lexeme
        )`);
      return new Set((rows.rows as { word: string }[]).map((row) => row.word));
    },
  };
}
