/**
 * `npm run bench:search`: builds an index of BENCH_SITES (default 1,000,000) synthetic sites in a
 * real Postgres with the demo generator, then measures
 *   1. database time of the exact statements a search runs (from src/domain/search), per class:
 *      single words (the 100 most frequent of the vocabulary, and 100 others), filters alone,
 *      q plus filters, exact-domain q, and deep pages; and of the top list as a cache miss
 *      computes it (every filter set, at limits 50 and 100);
 *   2. end-to-end latency of GET /api/v1/search, and of GET /api/v1/top misses, through
 *      `wrangler dev` and the local stack.
 * Targets (TARGET, issue 42): p99 <= 25 ms and max <= 100 ms of database time for every class,
 * 12-word requests included, the prefix class faster at p50 than the GIN filter ordered by score,
 * and the top list p99 <= 25 ms. Exits 1 when one is missed.
 *
 * Settings: BENCH_DATABASE_URL (a server URL; the database BENCH_DATABASE_NAME, default
 * agent_readiness_bench, is created beside it; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_REDIS_URL (default
 * redis://127.0.0.1:6379/10), BENCH_SITES, BENCH_RUNS (repeats per query, default 3),
 * BENCH_E2E_REQUESTS (default 200; 0 skips the end-to-end part), PORT (of its `wrangler dev`,
 * default 8790), BENCH_CLASSES (comma-separated beginnings of class names to measure, e.g. `top`
 * or `word,filters`; default all; `none` only builds the index), BENCH_BASELINES (`0` leaves the
 * baselines out), BENCH_BASELINE_RUNS (default 1), BENCH_FOOTPRINT (`1` prints the index's size per
 * kind of list), BENCH_BEGINNINGS (`0` leaves the registered wide beginnings as they are; by
 * default they are refreshed as the daily cron does). An index already holding BENCH_SITES sites
 * is reused.
 *
 * Beside the project's search it measures, on the same queries in the same rounds, the two
 * baselines of scripts/search-baselines.ts, and prints each class's figures with their ratios.
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import pg from "pg";
import { demoSites } from "../db/seed/demo-index.ts";
import { createDatabase, type RunSqlBatch } from "../src/adapters/db.ts";
import type { DriverKind } from "../src/domain/search/search-plan.ts";
import { runSearchQuery } from "../src/domain/search/search-sites.ts";
import { runTopQuery, TOP_DEFAULT_LIMIT, TOP_MAX_LIMIT } from "../src/domain/search/top-sites.ts";
import { refreshWideBeginnings, wideBeginningShapes } from "../src/domain/search/wide-beginnings.ts";
import { startLocalStack } from "./local-stack.ts";
import { measuredWorkerVars, percentile } from "./measure-support.ts";
import { migrate } from "./migrate.ts";
import {
  BASELINES,
  type Baseline,
  type BaselineIndexReport,
  baselineStatements,
  ensureBaselineIndexes,
} from "./search-baselines.ts";
import {
  buildSearchCases,
  countVocabulary,
  type DemoSite,
  emptyVocabulary,
  everyTopFilterSet,
  PREFIX_CLASS,
  pgBatchRunner,
  type SearchCase,
  searchPath,
  topPath,
  type Vocabulary,
} from "./search-cases.ts";
import { footprintTable, indexFootprint } from "./search-footprint.ts";
import { startLocalWorker } from "./wrangler-dev.ts";

const SITES = Number(process.env.BENCH_SITES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const E2E_REQUESTS = Number(process.env.BENCH_E2E_REQUESTS ?? 200);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/10";
/** A database of its own per worktree, so that parallel runs on one server do not share an index. */
const BENCH_DATABASE = process.env.BENCH_DATABASE_NAME ?? "agent_readiness_bench";
if (!/^[a-z_][a-z0-9_]*$/.test(BENCH_DATABASE))
  throw new Error("BENCH_DATABASE_NAME must be a plain lower-case identifier");
const CLASSES = process.env.BENCH_CLASSES?.split(",").map((name) => name.trim().toLowerCase());
const BASELINES_ON = process.env.BENCH_BASELINES !== "0";
const BEGINNINGS_ON = process.env.BENCH_BEGINNINGS !== "0";
/**
 * Runs of each baseline per query after its warm-up (default 1): the GIN-by-score baseline takes
 * seconds for a rare word, whose matches the planner seeks by walking the score order.
 */
const BASELINE_RUNS = Number(process.env.BENCH_BASELINE_RUNS ?? 1);
/** Per class, the database-time target (issue 21); other classes p99 <= 50 and max <= 100 ms. */
const TARGET = { p99: 25, max: 100 };
/** The prefix class must beat this baseline at p50. */
const PREFIX_RIVAL = "GIN by score";
const TOP_CLASS = "top list, every filter set (cache miss)";
const TOP_TARGET = { p99: 25, max: 100 };

/** Whether BENCH_CLASSES asks for the class `name`. */
const measured = (name: string) => !CLASSES || CLASSES.some((wanted) => name.toLowerCase().startsWith(wanted));
const INSERT_BATCH = 5000;

const log = (line: string) => console.log(`[bench] ${line}`);

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [BENCH_DATABASE]);
    if (exists.rowCount === 0) await admin.query(`create database ${BENCH_DATABASE}`);
  } finally {
    await admin.end();
  }
}

/** Generates the index, inserting it when `client` is given, and counts its vocabulary either way. */
async function generateIndex(client: pg.Client | undefined): Promise<Vocabulary> {
  const vocabulary = emptyVocabulary();
  let batch: DemoSite[] = [];
  const flush = async () => {
    if (client && batch.length) await insertBatch(client, batch);
    batch = [];
  };
  let done = 0;
  for (const site of demoSites({ count: SITES })) {
    countVocabulary(vocabulary, site);
    batch.push(site);
    if (batch.length === INSERT_BATCH) {
      await flush();
      done += INSERT_BATCH;
      if (client && done % 100_000 === 0) log(`inserted ${done} sites`);
    }
  }
  await flush();
  return vocabulary;
}

type DemoRow = DemoSite;

async function insertBatch(client: pg.Client, rows: DemoRow[]): Promise<void> {
  const column = <T>(pick: (row: DemoRow) => T) => rows.map(pick);
  const iso = (value: Date | undefined | null) => (value ? value.toISOString() : null);
  await client.query(
    `insert into sites (domain, url, name, description, has_llms_txt, has_ai_plugin, has_openapi,
       has_structured_api, has_mcp_server, has_robots_ai, has_schema_org, agentic_score, score_version,
       category, tags, is_verified, is_featured, has_favicon, favicon_url, last_crawled_at, crawl_status,
       created_at, updated_at)
     select d, u, n, de, a1, a2, a3, a4, a5, a6, a7, sc, sv, cat, string_to_array(tg, ','), v, f, hf, fu,
       lc, cs, ca, ua
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bool[], $6::bool[], $7::bool[],
       $8::bool[], $9::bool[], $10::bool[], $11::bool[], $12::int[], $13::int[], $14::text[], $15::text[],
       $16::bool[], $17::bool[], $18::bool[], $19::text[], $20::timestamptz[], $21::text[],
       $22::timestamptz[], $23::timestamptz[])
       as t(d, u, n, de, a1, a2, a3, a4, a5, a6, a7, sc, sv, cat, tg, v, f, hf, fu, lc, cs, ca, ua)`,
    [
      column((r) => r.domain),
      column((r) => r.url),
      column((r) => r.name),
      column((r) => r.description),
      column((r) => r.hasLlmsTxt),
      column((r) => r.hasAiPlugin),
      column((r) => r.hasOpenapi),
      column((r) => r.hasStructuredApi),
      column((r) => r.hasMcpServer),
      column((r) => r.hasRobotsAi),
      column((r) => r.hasSchemaOrg),
      column((r) => r.agenticScore),
      column((r) => r.scoreVersion),
      column((r) => r.category),
      column((r) => (r.tags ?? []).join(",")),
      column((r) => r.isVerified),
      column((r) => r.isFeatured),
      column((r) => r.hasFavicon),
      column((r) => r.faviconUrl ?? null),
      column((r) => iso(r.lastCrawledAt)),
      column((r) => r.crawlStatus),
      column((r) => iso(r.createdAt)),
      column((r) => iso(r.updatedAt)),
    ],
  );
}

/** Loads the index unless it is already there; secondary indexes are rebuilt after the load. */
async function prepareIndex(client: pg.Client): Promise<Vocabulary> {
  const { rows } = await client.query<{ n: string }>("select count(*) as n from sites");
  if (Number(rows[0]?.n) === SITES) {
    log(`reusing the ${SITES} sites already loaded; counting the vocabulary`);
    // A migration that rewrote the index leaves its pages not yet marked all-visible, and every
    // index-only read then visits the table too, until autovacuum has passed; this does it now.
    await client.query("vacuum sites, search_postings");
    return generateIndex(undefined);
  }
  log(`loading ${SITES} synthetic sites`);
  const started = performance.now();
  await client.query("truncate sites cascade");
  // The sites' secondary indexes and the search index's list index are built after the load.
  const secondary = await client.query<{ indexname: string; indexdef: string }>(
    `select i.indexname, i.indexdef from pg_indexes i
     left join pg_constraint c on c.conname = i.indexname
     where i.schemaname = 'public' and i.tablename in ('sites', 'search_postings') and c.conname is null`,
  );
  for (const index of secondary.rows) await client.query(`drop index ${index.indexname}`);
  const vocabulary = await generateIndex(client);
  await client.query("set maintenance_work_mem = '1GB'");
  log(`inserted in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const index of secondary.rows) {
    const building = performance.now();
    await client.query(index.indexdef);
    log(`built ${index.indexname} in ${((performance.now() - building) / 1000).toFixed(1)} s`);
  }
  await client.query("vacuum analyze sites");
  await client.query("vacuum analyze search_postings");
  log(`loaded and indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return vocabulary;
}

type Case = SearchCase;

async function buildCases(client: pg.Client, vocabulary: Vocabulary): Promise<Map<string, Case[]>> {
  const cases = await buildSearchCases(client, vocabulary);
  const words = [...vocabulary.words.keys()].length;
  log(`vocabulary: ${words} words; ${vocabulary.tags.size} tags`);
  return cases;
}

interface ClassResult {
  name: string;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  slowest: string;
  /** How many of the class's queries each kind of list drove (search-plan.ts). */
  drivers?: string;
}

function summarise(name: string, samples: { ms: number; label: string }[]): ClassResult {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const slowest = samples.reduce((a, b) => (b.ms > a.ms ? b : a));
  return {
    name,
    n: samples.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    slowest: slowest.label,
  };
}

/** Database time of one search: `runSearchQuery` itself, over a direct connection. */
async function timeSearch(run: RunSqlBatch, testCase: Case): Promise<{ ms: number; driver: DriverKind | "none" }> {
  let driver: DriverKind | "none" = "none";
  const started = performance.now();
  await runSearchQuery(
    run,
    { q: testCase.q, filters: testCase.filters, page: testCase.page },
    {
      observePlan: (plan) => {
        driver = plan.driver.kind;
      },
    },
  );
  return { ms: performance.now() - started, driver };
}

/** Database time of the same search as a baseline writes it (scripts/search-baselines.ts). */
async function timeBaseline(run: RunSqlBatch, baseline: Baseline, testCase: Case): Promise<number> {
  const started = performance.now();
  await run(baselineStatements(baseline, testCase));
  return performance.now() - started;
}

/** A class measured: the project's search, and each baseline's on the same queries. */
interface ClassComparison {
  ours: ClassResult;
  baselines: { baseline: Baseline; result: ClassResult }[];
}

/**
 * Every query of every chosen class, once to warm up and then RUNS times (the baselines
 * BASELINE_RUNS times); within a round each query runs as the project's search and then as each
 * baseline, so all see the same moment.
 */
async function measureDatabase(
  client: pg.Client,
  cases: Map<string, Case[]>,
  baselines: readonly Baseline[],
): Promise<ClassComparison[]> {
  const run = pgBatchRunner(client);
  const chosen = [...cases].filter(([name]) => measured(name));
  for (const [, list] of chosen) {
    for (const testCase of list) {
      await timeSearch(run, testCase);
      for (const baseline of baselines) await timeBaseline(run, baseline, testCase);
    }
  }
  const comparisons: ClassComparison[] = [];
  for (const [name, list] of chosen) {
    const samples: { ms: number; label: string }[] = [];
    const baselineSamples = baselines.map(() => [] as { ms: number; label: string }[]);
    const drivers = new Map<string, number>();
    for (let round = 0; round < RUNS; round++) {
      for (const testCase of list) {
        const { ms, driver } = await timeSearch(run, testCase);
        samples.push({ ms, label: testCase.label });
        if (round === 0) drivers.set(driver, (drivers.get(driver) ?? 0) + 1);
        if (round >= BASELINE_RUNS) continue;
        for (const [index, baseline] of baselines.entries()) {
          baselineSamples[index]?.push({ ms: await timeBaseline(run, baseline, testCase), label: testCase.label });
        }
      }
    }
    const driven = [...drivers].map(([driver, count]) => `${driver} ${count}`).join(", ");
    comparisons.push({
      ours: { ...summarise(name, samples), drivers: driven },
      baselines: baselines.map((baseline, index) => ({
        baseline,
        result: summarise(name, baselineSamples[index] ?? []),
      })),
    });
  }
  return comparisons;
}

/**
 * Database time of the top list as a cache miss computes it (`runTopQuery` itself): every filter
 * set at the default limit and at the largest.
 */
async function measureTop(client: pg.Client): Promise<ClassResult> {
  const run = pgBatchRunner(client);
  const inputs = everyTopFilterSet().flatMap((filters) =>
    [TOP_DEFAULT_LIMIT, TOP_MAX_LIMIT].map((limit) => ({ filters, limit })),
  );
  for (const input of inputs) await runTopQuery(run, input);
  const samples: { ms: number; label: string }[] = [];
  for (let round = 0; round < RUNS; round++) {
    for (const input of inputs) {
      const started = performance.now();
      await runTopQuery(run, input);
      samples.push({ ms: performance.now() - started, label: JSON.stringify(input) });
    }
  }
  return summarise(TOP_CLASS, samples);
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function measureEndToEnd(cases: Map<string, Case[]>): Promise<ClassResult[]> {
  const stack = await startLocalStack({
    databaseUrl: databaseUrl(BENCH_DATABASE),
    redisUrl: REDIS_URL,
    sqlPort: 0,
    redisPort: 0,
  });
  const port = Number(process.env.PORT ?? 8790);
  const vars = measuredWorkerVars(stack, "bench");
  const worker = await startLocalWorker(port, vars, { stdio: "ignore", detached: true });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, 60_000);
    const all = [...cases.values()].flat().filter((testCase) => testCase.page === 1);
    const requests = Array.from({ length: E2E_REQUESTS }, (_, index) => all[(index * 7) % all.length] as Case);
    const url = (testCase: Case) => `${base}${searchPath(testCase)}`;
    const headers = { "X-SVC-Synthetic": "true" };
    for (const testCase of requests.slice(0, 10)) await (await fetch(url(testCase), { headers })).arrayBuffer();
    const samples: { ms: number; label: string }[] = [];
    for (const testCase of requests.slice(10)) {
      const started = performance.now();
      const response = await fetch(url(testCase), { headers });
      const body = (await response.json()) as { receipt_recorded?: boolean };
      if (response.status !== 200 || !body.receipt_recorded) {
        throw new Error(`search ${url(testCase)} answered ${response.status}`);
      }
      samples.push({ ms: performance.now() - started, label: testCase.label });
    }
    const topSamples = await measureTopEndToEnd(base);
    return [
      summarise("GET /search end to end (Worker + local stack)", samples),
      summarise("GET /top misses end to end (Worker + local stack)", topSamples),
    ];
  } finally {
    await worker.stop();
    await stack.stop();
  }
}

/**
 * GET /api/v1/top for E2E_REQUESTS distinct filter sets and limits: the run's fresh Redis prefix
 * makes each the first of its key, a cache miss (the response says so in X-Cache).
 */
async function measureTopEndToEnd(base: string): Promise<{ ms: number; label: string }[]> {
  const sets = everyTopFilterSet();
  const urls = Array.from({ length: E2E_REQUESTS }, (_, index) => {
    const filters = sets[(index * 53) % sets.length] ?? {};
    return `${base}${topPath(filters, 1 + ((index * 37) % TOP_MAX_LIMIT))}`;
  });
  const samples: { ms: number; label: string }[] = [];
  for (const [index, url] of urls.entries()) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    const ms = performance.now() - started;
    if (response.status !== 200 || response.headers.get("x-cache") !== "MISS") {
      throw new Error(`top ${url} answered ${response.status} ${response.headers.get("x-cache")}`);
    }
    // The first ten warm the Worker up.
    if (index >= 10) samples.push({ ms, label: url.slice(base.length) });
  }
  return samples;
}

function table(results: ClassResult[]): string {
  const lines = [
    "| class | n | p50 ms | p95 ms | p99 ms | max ms | driver lists | slowest |",
    "|---|---|---|---|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.drivers ?? "-"} | ${r.slowest.replaceAll("|", "/")} |`,
    ),
  ];
  return lines.join("\n");
}

/** p50 / p99 / max of each class, the project's and each baseline's, and the baselines' ratios to it. */
function comparisonTable(comparisons: ClassComparison[]): string {
  const names = comparisons[0]?.baselines.map(({ baseline }) => baseline.name) ?? [];
  const figures = (r: ClassResult) => `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)} / ${r.max.toFixed(1)}`;
  const ratio = (theirs: number, ours: number) => `${(theirs / ours).toFixed(1)}×`;
  const lines = [
    `| class | n | project p50 / p99 / max ms | ${names.map((name) => `${name} p50 / p99 / max ms | ÷ project p50, p99`).join(" | ")} |`,
    `|---|---|---|${names.map(() => "---|---|").join("")}`,
    ...comparisons.map(({ ours, baselines }) => {
      const cells = baselines.map(
        ({ result }) => `${figures(result)} | ${ratio(result.p50, ours.p50)}, ${ratio(result.p99, ours.p99)}`,
      );
      return `| ${ours.name} | ${ours.n} | ${figures(ours)} | ${cells.join(" | ")} |`;
    }),
  ];
  return lines.join("\n");
}

/** The classes that miss their target, each with why. */
function missedTargets(comparisons: ClassComparison[], top: ClassResult | undefined): string[] {
  const missed: string[] = [];
  for (const { ours, baselines } of comparisons) {
    const target = TARGET;
    if (ours.p99 > target.p99 || ours.max > target.max) {
      missed.push(
        `${ours.name}: p99 ${ours.p99.toFixed(1)} / max ${ours.max.toFixed(1)} ms over ${target.p99} / ${target.max}`,
      );
    }
    const rival = baselines.find(({ baseline }) => baseline.name === PREFIX_RIVAL)?.result;
    if (ours.name === PREFIX_CLASS && rival && ours.p50 >= rival.p50) {
      missed.push(`${ours.name}: p50 ${ours.p50.toFixed(1)} ms not below ${PREFIX_RIVAL}'s ${rival.p50.toFixed(1)} ms`);
    }
  }
  if (top && (top.p99 > TOP_TARGET.p99 || top.max > TOP_TARGET.max)) {
    missed.push(
      `${top.name}: p99 ${top.p99.toFixed(1)} / max ${top.max.toFixed(1)} ms over ${TOP_TARGET.p99} / ${TOP_TARGET.max}`,
    );
  }
  return missed;
}

function printBaselineIndexes(reports: BaselineIndexReport[]): void {
  for (const report of reports) {
    const built = report.buildSeconds === undefined ? "already built" : `built in ${report.buildSeconds.toFixed(1)} s`;
    log(`baseline index ${report.name}: ${(report.bytes / 2 ** 20).toFixed(0)} MB, ${built}`);
  }
}

/** Registers the wide beginnings the index calls for, as the daily cron does, and times it. */
async function refreshBeginnings(stackUrl: string): Promise<void> {
  const db = createDatabase({ DATABASE_URL: stackUrl, DATABASE_LOCAL_HTTP: true });
  const started = performance.now();
  const index = await wideBeginningShapes(db);
  log(`read the index's wide beginnings in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const registering = performance.now();
  const summary = await refreshWideBeginnings(db, { index, maxChanges: Number.POSITIVE_INFINITY });
  const seconds = (performance.now() - registering) / 1000;
  const lists = await db.execute(sql`
    select count(*)::int as beginnings,
      (select count(*) from search_postings
        where audit = any (array[false, true]) and term >= 'b:' and term < 'b;')::int8 as postings
    from search_beginnings`);
  // As autovacuum does soon after (migration 0026): the new lists' pages marked all-visible.
  if (summary.registered.length) await db.execute(sql`vacuum search_postings`);
  log(
    `wide beginnings: ${summary.chosen.length} called for (${summary.chosen.join(", ")}); registered ${summary.registered.length}, unregistered ${summary.unregistered.length} in ${seconds.toFixed(1)} s with the analysis; lists: ${lists.rows[0]?.beginnings} beginnings, ${lists.rows[0]?.postings} postings`,
  );
}

async function main() {
  await ensureDatabase();
  const benchUrl = databaseUrl(BENCH_DATABASE);
  const migrationStack = await startLocalStack({ databaseUrl: benchUrl, sqlPort: 0, redisPort: 0 });
  const migrationStarted = performance.now();
  // Over a Postgres connection, as `npm run migrate -- --direct` does (docs/operations.md): at
  // 1,000,000 sites a migration that rewrites the index outlasts an HTTP request.
  await migrate({
    databaseUrl: benchUrl,
    localHttp: false,
    direct: true,
    log: (line) => log(`${line} (${((performance.now() - migrationStarted) / 1000).toFixed(1)} s since start)`),
  });

  const client = new pg.Client({ connectionString: benchUrl });
  await client.connect();
  let missed: string[] = [];
  try {
    const vocabulary = await prepareIndex(client);
    if (BEGINNINGS_ON) await refreshBeginnings(migrationStack.databaseUrl);
    if (BASELINES_ON) printBaselineIndexes(await ensureBaselineIndexes(client));
    if (process.env.BENCH_FOOTPRINT === "1") console.log(`\n${footprintTable(await indexFootprint(client))}\n`);
    const cases = await buildCases(client, vocabulary);
    log(`measuring database time, ${RUNS} runs per query${BASELINES_ON ? ", with the baselines" : ""}`);
    const comparisons = await measureDatabase(client, cases, BASELINES_ON ? BASELINES : []);
    const top = measured(TOP_CLASS) ? await measureTop(client) : undefined;
    const server = await client.query<{ version: string }>("select version()");
    log(server.rows[0]?.version ?? "");
    const results = [...comparisons.map(({ ours }) => ours), ...(top ? [top] : [])];
    console.log(`\nDatabase time per search and top list, ${SITES} sites:\n\n${table(results)}\n`);
    if (BASELINES_ON && comparisons.length) {
      console.log(`Against the baselines (same queries, same rounds):\n\n${comparisonTable(comparisons)}\n`);
    }
    if (E2E_REQUESTS > 0 && results.length > 0) {
      const endToEnd = await measureEndToEnd(cases);
      console.log(`End to end, sequential requests:\n\n${table(endToEnd)}\n`);
    }
    missed = missedTargets(comparisons, top);
  } finally {
    await client.end();
    await migrationStack.stop();
  }
  if (missed.length) {
    console.log(`targets missed:\n- ${missed.join("\n- ")}`);
    process.exit(1);
  }
  console.log("every target met");
}

await main();
