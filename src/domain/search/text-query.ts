/**
 * The words of a free-text `q` (docs/discovery.md, "Query understanding"): lower-cased, variant
 * spellings made canonical, at most MAX_WORDS of them, the words of a request that carry no need
 * marked (they never decide a match). Each is stemmed as English by Postgres (whose stop words
 * also yield no stem); the last word of 3 or more characters of a short query also matches as a
 * prefix ("weath" finds "weather"), as people type. Only letters and digits reach a query, so no
 * syntax can be injected.
 */

import { canonicalSpellings } from "./spellings.ts";

/**
 * Words that phrase a request rather than say what it needs ("I need an API which can…"), beyond
 * the English stop words Postgres' stemmer already drops (the Snowball list: "i", "an", "which",
 * "can", "my", "the"…): asking, wanting and finding, politeness, and placeholders. A short list
 * of the language of requests, written before any ranking was tuned, not of any topic.
 */
export const REQUEST_WORDS: ReadonlySet<string> = new Set([
  "need",
  "needs",
  "needed",
  "want",
  "wants",
  "wanted",
  "looking",
  "look",
  "find",
  "finding",
  "search",
  "searching",
  "please",
  "help",
  "helps",
  "would",
  "could",
  "like",
  "able",
  "let",
  "lets",
  "something",
  "anything",
  "someone",
  "somebody",
  "thing",
  "things",
  "way",
  "ways",
  "kind",
  "sort",
  "some",
  "any",
  "also",
  "just",
  "us",
  "me",
  "get",
  "use",
  "using",
  "recommend",
  "suggest",
  "know",
  "tell",
  "good",
  "best",
  "service",
  "services",
  "tool",
  "tools",
  "app",
  "apps",
]);

export const MAX_QUERY_LENGTH = 200;
/**
 * Words kept of a query, in order: a request of 16 words keeps them all; a longer one loses its
 * request words, then the words past the 16th.
 */
export const MAX_WORDS = 16;
export const MIN_PREFIX_LENGTH = 3;
/** A query of at most this many words is still being typed: its last word may be a prefix. */
export const MAX_PREFIX_QUERY_WORDS = 4;
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
  const kept = [...new Set(words.filter((word) => word.length <= MAX_WORD_LENGTH))];
  if (kept.length <= MAX_WORDS) return kept;
  return kept.filter((word) => !REQUEST_WORDS.has(word)).slice(0, MAX_WORDS);
}

/**
 * Whether word `index` of `words` only phrases the request (REQUEST_WORDS): such a word counts a
 * little towards a site that matches another word, and never makes a site match by itself. In a
 * query of request words alone ("tools") every word counts.
 */
export const isRequestWord = (words: readonly string[], index: number) =>
  REQUEST_WORDS.has(words[index] ?? "") && words.some((word) => !REQUEST_WORDS.has(word));

/**
 * Whether word `index` of `words` matches as a prefix: the last one, of 3 characters or more, of a
 * query short enough to be still typed (a whole request's last word is a word).
 */
export const isPrefixWord = (words: readonly string[], index: number) =>
  index === words.length - 1 &&
  words.length <= MAX_PREFIX_QUERY_WORDS &&
  (words[index]?.length ?? 0) >= MIN_PREFIX_LENGTH;

/**
 * The text for `to_tsquery('english', …)` that every word matches (the exact-domain check and the
 * baselines), or null when the query has no words.
 */
export function tsQueryText(q: string): string | null {
  const words = queryWords(q);
  if (words.length === 0) return null;
  return words.map((word, index) => (isPrefixWord(words, index) ? `${word}:*` : word)).join(" & ");
}
