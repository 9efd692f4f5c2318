/**
 * Turns a free-text `q` into a Postgres tsquery: every word must match (AND), stemmed as English,
 * and words of 3 or more characters also match as prefixes ("weath" finds "weather"). Only
 * letters and digits reach the query, so no tsquery syntax can be injected.
 */

import { canonicalSpellings } from "./spellings.ts";

export const MAX_QUERY_LENGTH = 200;
const MAX_WORDS = 8;
export const MIN_PREFIX_LENGTH = 3;
const MAX_WORD_LENGTH = 64;

/**
 * The words of a query, lower-cased, in order, without repeats. The text is first composed (NFC),
 * as indexed text and the Unicode form of punycode labels are: "mu" + a combining diaeresis +
 * "nchen" is the word "münchen", not two words split at the mark. Variant spellings become their
 * canonical word first ("e-mail" is "email", spellings.ts).
 */
export function queryWords(q: string): string[] {
  const words =
    canonicalSpellings(q.normalize("NFC"))
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length <= MAX_WORD_LENGTH))].slice(0, MAX_WORDS);
}

/** The text for `to_tsquery('english', …)`, or null when the query has no words. */
export function tsQueryText(q: string): string | null {
  const words = queryWords(q);
  if (words.length === 0) return null;
  return words.map((word) => (word.length >= MIN_PREFIX_LENGTH ? `${word}:*` : word)).join(" & ");
}
