/**
 * The searches and top lists the benchmarks send, shared by `npm run bench:search` (database
 * time per class) and `npm run load` (the request path under load): the vocabulary of the demo
 * index, the classes of search built from it, their query strings, the top list's filter sets,
 * and `runSearchQuery`'s batches over one direct `pg` connection.
 */
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { demoSites, seededRandom } from "../db/seed/demo-index.ts";
import type { RunSqlBatch } from "../src/adapters/db.ts";
import type { SiteFilters } from "../src/domain/search/site-filters.ts";
import type { TopFilters } from "../src/domain/search/top-sites.ts";
import { CATEGORIES, type Category } from "../src/domain/sites/site-fields.ts";

/** Document frequency of every word in names, descriptions and domain labels, and of every tag. */
export interface Vocabulary {
  words: Map<string, number>;
  tags: Map<string, number>;
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

export type DemoSite = ReturnType<typeof demoSites> extends Generator<infer T> ? T : never;

export const emptyVocabulary = (): Vocabulary => ({ words: new Map(), tags: new Map() });

/** Adds one site's words and tags to `vocabulary`. */
export function countVocabulary(vocabulary: Vocabulary, site: DemoSite): void {
  const words = new Set(`${site.name} ${site.description}`.toLowerCase().match(/[a-z]+/g) ?? []);
  for (const word of words) bump(vocabulary.words, word);
  for (const tag of site.tags ?? []) bump(vocabulary.tags, tag);
}

/** The vocabulary of the first `count` sites of the demo generator (its sequence never changes). */
export function demoVocabulary(count: number): Vocabulary {
  const vocabulary = emptyVocabulary();
  for (const site of demoSites({ count })) countVocabulary(vocabulary, site);
  return vocabulary;
}

export interface SearchCase {
  label: string;
  q?: string;
  filters: SiteFilters;
  page: number;
}

/** A deterministic filter set: each filter present with a fixed chance. */
export function randomFilters(random: () => number, tags: string[]): SiteFilters {
  const flag = () => (random() < 0.25 ? random() < 0.7 : undefined);
  const filters: SiteFilters = {
    category: random() < 0.4 ? (CATEGORIES[Math.floor(random() * CATEGORIES.length)] as Category) : undefined,
    tag: random() < 0.2 ? tags[Math.floor(random() * tags.length)] : undefined,
    minScore: random() < 0.3 ? 5 * Math.floor(random() * 19) : undefined,
    hasApi: flag(),
    hasMcp: flag(),
    hasOpenapi: flag(),
    hasLlmsTxt: flag(),
  };
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined)) as SiteFilters;
}

/**
 * The search classes, by name: the 100 most frequent searchable words, 100 others, filters alone,
 * q plus filters, exact-domain q (20 domains of the index), 100 beginnings of 3 and 4 letters
 * (PREFIX_CLASS), deep pages, topics of 2 to 4 words, and requests of 12 words as agents send them
 * (REQUEST_FRAMES around 6 words of the vocabulary, half of them among its 100 most frequent),
 * alone and with filters.
 */
export const PREFIX_CLASS = "prefix, 3 and 4 letters";

/**
 * The phrasing of a request, 6 words each, around which a request's 6 words of need are set: stop
 * words and request words (text-query.ts) as agents write them.
 */
const REQUEST_FRAMES = [
  ["i", "need", "an", "api", "that", "can"],
  ["please", "find", "me", "a", "service", "to"],
  ["which", "tool", "lets", "my", "app", "quickly"],
  ["looking", "for", "something", "that", "will", "help"],
  ["is", "there", "a", "way", "to", "automatically"],
] as const;

/** A request of 12 words: a frame, then three frequent words and three others, interleaved. */
function requestOf(random: () => number, frequent: string[], others: string[]): string {
  const frame = REQUEST_FRAMES[Math.floor(random() * REQUEST_FRAMES.length)] ?? REQUEST_FRAMES[0];
  const need = Array.from({ length: 6 }, (_, index) => {
    const pool = index % 2 ? others : frequent;
    return pool[Math.floor(random() * pool.length)] as string;
  });
  return [...frame, ...need].join(" ");
}

export async function buildSearchCases(client: pg.Client, vocabulary: Vocabulary): Promise<Map<string, SearchCase[]>> {
  const byFrequency = [...vocabulary.words.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  // English stop words are dropped by the query parser and would measure nothing.
  const { rows } = await client.query<{ word: string }>(
    "select word from unnest($1::text[]) as word where to_tsvector('english', word) <> ''::tsvector",
    [byFrequency.map(([word]) => word)],
  );
  const searchable = new Set(rows.map((row) => row.word));
  const ranked = byFrequency.filter(([word]) => searchable.has(word)).map(([word]) => word);
  const frequent = ranked.slice(0, 100);
  const random = seededRandom(42);
  const others = ranked.slice(100);
  const sampled: string[] = [];
  while (sampled.length < Math.min(100, others.length)) {
    const word = others[Math.floor(random() * others.length)] as string;
    if (!sampled.includes(word)) sampled.push(word);
  }
  // Beginnings of 3 and 4 letters of longer words, as a person types them: each matches every
  // lexeme it begins (stop words among them dropped, as above). A seed of their own keeps the
  // other classes' draws as they were.
  const beginnings = [
    ...new Set(
      ranked.flatMap((word) => [3, 4].filter((size) => word.length > size).map((size) => word.slice(0, size))),
    ),
  ];
  const typed = await client.query<{ word: string }>(
    "select word from unnest($1::text[]) as word where to_tsvector('english', word) <> ''::tsvector order by word",
    [beginnings],
  );
  const prefixRandom = seededRandom(7);
  const prefixPool = typed.rows.map((row) => row.word);
  const prefixes: string[] = [];
  while (prefixes.length < Math.min(100, prefixPool.length)) {
    const prefix = prefixPool[Math.floor(prefixRandom() * prefixPool.length)] as string;
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
  }
  const tags = [...vocabulary.tags.keys()].sort();
  const domains = await client.query<{ domain: string }>(
    "select domain from sites order by domain limit 20 offset (select count(*) / 2 from sites)",
  );

  const cases = new Map<string, SearchCase[]>();
  cases.set(
    "word, 100 most frequent",
    frequent.map((q) => ({ label: q, q, filters: {}, page: 1 })),
  );
  cases.set(
    "word, 100 others",
    sampled.map((q) => ({ label: q, q, filters: {}, page: 1 })),
  );
  cases.set(
    "filters alone",
    Array.from({ length: 100 }, () => {
      const filters = randomFilters(random, tags);
      return { label: JSON.stringify(filters), filters, page: 1 };
    }),
  );
  cases.set(
    "q plus filters",
    Array.from({ length: 100 }, (_, index) => {
      const q = (index % 2 ? frequent : sampled)[Math.floor(random() * 100)] as string;
      const filters = randomFilters(random, tags);
      return { label: `${q} ${JSON.stringify(filters)}`, q, filters, page: 1 };
    }),
  );
  cases.set(
    "exact-domain q",
    domains.rows.map(({ domain }) => ({ label: domain, q: domain, filters: {}, page: 1 })),
  );
  cases.set(
    PREFIX_CLASS,
    prefixes.map((q) => ({ label: q, q, filters: {}, page: 1 })),
  );
  cases.set("deep pages (25 and 50)", [
    ...frequent.slice(0, 25).map((q, index) => ({ label: `${q} p50`, q, filters: {}, page: index % 2 ? 25 : 50 })),
    ...Array.from({ length: 25 }, (_, index) => {
      const filters = randomFilters(random, tags);
      return { label: `${JSON.stringify(filters)} p50`, filters, page: index % 2 ? 25 : 50 };
    }),
    { label: "everything p50", filters: {}, page: 50 },
  ]);
  // Their own seed, so that the classes above keep their draws.
  const requestRandom = seededRandom(12);
  cases.set(
    "topic, 2 to 4 words",
    Array.from({ length: 100 }, () => {
      const words = Array.from({ length: 2 + Math.floor(requestRandom() * 3) }, (_, index) => {
        const pool = index % 2 ? sampled : frequent;
        return pool[Math.floor(requestRandom() * pool.length)] as string;
      });
      const q = words.join(" ");
      return { label: q, q, filters: {}, page: 1 };
    }),
  );
  cases.set(
    "request, 12 words",
    Array.from({ length: 100 }, () => {
      const q = requestOf(requestRandom, frequent, sampled);
      return { label: q, q, filters: {}, page: 1 };
    }),
  );
  cases.set(
    "request, 12 words, plus filters",
    Array.from({ length: 100 }, () => {
      const q = requestOf(requestRandom, frequent, sampled);
      const filters = randomFilters(requestRandom, tags);
      return { label: `${q} ${JSON.stringify(filters)}`, q, filters, page: 1 };
    }),
  );
  return cases;
}

/** The interface's names of the filters. */
const PARAMETER_NAMES: Record<string, string> = {
  minScore: "min_score",
  hasApi: "has_api",
  hasMcp: "has_mcp",
  hasOpenapi: "has_openapi",
  hasLlmsTxt: "has_llms_txt",
};

function filterParams(params: URLSearchParams, filters: SiteFilters | TopFilters): URLSearchParams {
  for (const [name, value] of Object.entries(filters)) params.set(PARAMETER_NAMES[name] ?? name, String(value));
  return params;
}

/** `GET /api/v1/search` of a case: path and query string. */
export function searchPath(testCase: SearchCase): string {
  const params = new URLSearchParams();
  if (testCase.q) params.set("q", testCase.q);
  filterParams(params, testCase.filters);
  if (testCase.page !== 1) params.set("page", String(testCase.page));
  return `/api/v1/search?${params}`;
}

/** `GET /api/v1/top` of a filter set and limit: path and query string. */
export function topPath(filters: TopFilters, limit: number): string {
  return `/api/v1/top?${filterParams(new URLSearchParams({ limit: String(limit) }), filters)}`;
}

const FLAG_NAMES = ["hasApi", "hasMcp", "hasOpenapi", "hasLlmsTxt"] as const;

/** Every filter set of the top list: no category or one of each, times each flag unset, true or false. */
export function everyTopFilterSet(): TopFilters[] {
  return [undefined, ...CATEGORIES].flatMap((category) =>
    Array.from({ length: 3 ** FLAG_NAMES.length }, (_, setting) => {
      const filters: TopFilters = category ? { category } : {};
      FLAG_NAMES.forEach((flag, index) => {
        const value = Math.floor(setting / 3 ** index) % 3;
        if (value > 0) filters[flag] = value === 1;
      });
      return filters;
    }),
  );
}

const dialect = new PgDialect();

/** `RunSqlBatch` over one pg connection: each batch one transaction, as a Neon batch is. */
export function pgBatchRunner(client: pg.Client): RunSqlBatch {
  return async (statements) => {
    await client.query("begin");
    try {
      const results = [];
      for (const statement of statements) {
        const query = dialect.sqlToQuery(statement);
        results.push((await client.query(query.sql, query.params as unknown[])).rows);
      }
      await client.query("commit");
      return results;
    } catch (error) {
      await client.query("rollback");
      throw error;
    }
  };
}
