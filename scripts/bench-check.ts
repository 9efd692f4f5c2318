/**
 * `npm run bench:check`: how close does one check come to its lower bound under the Workers limit
 * of 6 connections, and how fast does one queue consumer crawl?
 *
 * Every request to the fixture web gets an injected latency (a fixed pseudo-random 50-400 ms per
 * URL, as from a distant site), spent while it holds one of the connections.
 *
 * 1. Check against its lower bound. For each site, the whole check runs once without a connection
 *    limit — its time is the longest dependent chain of fetches (nothing waits but for an answer
 *    it needs) — and once with 6 connections, adding up how long each of its fetches held a
 *    connection. No schedule can beat max(longest chain, total fetch time / 6): that is the lower
 *    bound, and the check's time over it is the ratio. Target: median ratio <= 1.2 (exits 1 when
 *    missed).
 * 2. Throughput. The crawl queue consumer's own code (consumeCrawlBatch) runs batches of 10 jobs
 *    over the fixture web's sites, writing to the database through the local stack, with and
 *    without injected latency: sites per minute of one consumer, requests per site, and the
 *    share of the time the 6 connections were busy (total fetch time / (6 x elapsed)). The sites
 *    are those whose crawl succeeds; a third run (BENCH_MIXED=0 skips it) adds the blocked,
 *    too-large and looping sites, as recrawls meet them.
 * 3. Requests per crawl: every fixture-web site whose crawl succeeds, and every site of the
 *    real-implementation farm (test/fixtures/farm/farm.ts: the official MCP SDKs v1 and v2,
 *    @hono/mcp, oidc-provider, the A2A JS SDK, fastify-swagger, an SPA, Cloudflare's managed
 *    robots.txt, Python's http.server), crawled once each with the full checklist: the
 *    distribution (min, median, p90, max against CRAWL_REQUEST_BUDGET) and how many checks were
 *    left unfetched by the budget (target: none). BENCH_FARM=0 skips the farm;
 *    BENCH_THROUGHPUT_ONLY=1 runs part 2 alone.
 * 4. With BENCH_PROBES=1, also the older parallelism table: each of the seven detectors (and the
 *    home page with its favicon) timed alone without a connection limit, and the check against
 *    1.3 x the slowest probe + 50 ms.
 *
 * Settings: BENCH_RUNS (repeats per site, default 5), BENCH_CRAWL_JOBS (default 200),
 * BENCH_DATABASE_URL (a Postgres server for the throughput part; default: embedded PGlite),
 * BENCH_FIXTURE_PORT, BENCH_SQL_PORT, BENCH_REDIS_PORT (default 16600, 16580, 16581).
 */
import { performance } from "node:perf_hooks";
import { createDatabase } from "../src/adapters/db.ts";
import { createDohResolver } from "../src/adapters/outbound/dns-over-https.ts";
import { createGuardedFetch } from "../src/adapters/outbound/guarded-fetch.ts";
import {
  CRAWL_REQUEST_BUDGET,
  createConcurrencyLimiter,
  createCrawlFetcher,
  WORKER_CONNECTION_LIMIT,
} from "../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, probeHome, SIGNAL_DETECTORS } from "../src/domain/crawling/crawl-site.ts";
import type { SiteFetcher } from "../src/domain/signals/types.ts";
import { SIGNAL_FIELDS } from "../src/domain/sites/site-fields.ts";
import { consumeCrawlBatch } from "../src/jobs/crawl-consumer.ts";
import { startFarm } from "../test/fixtures/farm/farm.ts";
import { FIXTURE_EXPECTATIONS, FIXTURE_SITE_NAMES } from "../test/fixtures/web/expectations.ts";
import { startFixtureWeb } from "../test/fixtures/web/server.ts";
import { startLocalStack } from "./local-stack.ts";
import { migrate } from "./migrate.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CRAWL_JOBS = Number(process.env.BENCH_CRAWL_JOBS ?? 200);
const FIXTURE_PORT = Number(process.env.BENCH_FIXTURE_PORT ?? 16600);
const log = (line: string) => console.log(`[bench] ${line}`);

/** Sites whose slowness is their point (timeouts, loops) say nothing about parallelism. */
const PATHOLOGICAL = new Set(["slow-site", "huge-body", "redirect-loop"]);

/** A fixed latency per URL in [50, 400) ms, the same in every run. */
function latencyOf(url: string): number {
  let hash = 2166136261;
  for (const char of url) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return 50 + (hash % 350);
}

function withLatency(fetcher: SiteFetcher, enabled: boolean): SiteFetcher {
  if (!enabled) return fetcher;
  return async (url, request) => {
    await new Promise((resolve) => setTimeout(resolve, latencyOf(url)));
    return fetcher(url, request);
  };
}

interface FetchClock {
  busyMs: number;
  requests: number;
}

/** Adds up how long the fetches made through it took (inside the connection limit, so queueing is not counted). */
function withFetchClock(
  fetcher: SiteFetcher,
  clock: FetchClock = { busyMs: 0, requests: 0 },
): { fetcher: SiteFetcher; clock: FetchClock } {
  return {
    clock,
    fetcher: async (url, request) => {
      const start = performance.now();
      try {
        return await fetcher(url, request);
      } finally {
        clock.busyMs += performance.now() - start;
        clock.requests++;
      }
    },
  };
}

function guardedFetcher(): SiteFetcher {
  return createGuardedFetch({
    resolver: createDohResolver({ url: "http://127.0.0.1:9/unused" }),
    allowPrivate: true,
    userAgent: "AgentReadinessBot/1.0 (+bench)",
    deadline: Date.now() + 15_000,
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function timed(task: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await task();
  return performance.now() - start;
}

/**
 * One table of the parallelism part: each probe alone, then the whole check, with at most
 * `connections` requests in flight (Infinity: the design's parallelism alone; 6: Workers).
 */
async function benchParallelism(origins: Record<string, string>, connections: number): Promise<boolean> {
  const bound = Number.isFinite(connections) ? `${connections} connections (the Workers limit)` : "no connection limit";
  log(`parallelism, ${bound}: median of ${RUNS} runs, latency 50-400 ms per URL`);
  log("site                              slowest probe   check   limit (1.3x+50)  ok");
  let allOk = true;
  for (const name of FIXTURE_SITE_NAMES.filter((site) => !PATHOLOGICAL.has(site))) {
    const origin = origins[name] as string;
    const probeTimes: Record<string, number[]> = {};
    const checkTimes: number[] = [];
    const probes: [string, (fetch: SiteFetcher) => Promise<unknown>][] = [
      ["home page and favicon", (fetch) => probeHome(fetch, origin)],
      ...SIGNAL_FIELDS.map((field): [string, (fetch: SiteFetcher) => Promise<unknown>] => [
        field,
        (fetch) => SIGNAL_DETECTORS[field]({ origin, fetch }),
      ]),
    ];
    for (let run = 0; run < RUNS; run++) {
      for (const [probe, runProbe] of probes) {
        const fetch = createCrawlFetcher(withLatency(guardedFetcher(), true), createConcurrencyLimiter(connections));
        const elapsed = await timed(() => runProbe(fetch));
        probeTimes[probe] = [...(probeTimes[probe] ?? []), elapsed];
      }
      const fetcher = withLatency(guardedFetcher(), true);
      checkTimes.push(
        await timed(() => crawlSite({ origin, fetcher, limiter: createConcurrencyLimiter(connections) })),
      );
    }
    const slowest = Math.max(...Object.values(probeTimes).map(median));
    const check = median(checkTimes);
    const limit = 1.3 * slowest + 50;
    const ok = check <= limit;
    allOk &&= ok;
    log(
      `${name.padEnd(34)}${slowest.toFixed(0).padStart(9)} ms${check.toFixed(0).padStart(8)} ms${limit.toFixed(0).padStart(13)} ms  ${ok ? "yes" : "NO"}`,
    );
  }
  return allOk;
}

/**
 * The check against its lower bound (see the module comment), per site, with medians over runs.
 * Returns the median ratio over the sites.
 */
async function benchLowerBound(origins: Record<string, string>): Promise<number> {
  const connections = WORKER_CONNECTION_LIMIT;
  log(`check vs its lower bound, ${connections} connections: median of ${RUNS} runs, latency 50-400 ms per URL`);
  log("site                              requests  chain  fetch/6  bound  check  ratio  ok (<= 1.2)");
  const ratios: number[] = [];
  for (const name of FIXTURE_SITE_NAMES.filter((site) => !PATHOLOGICAL.has(site))) {
    const origin = origins[name] as string;
    const chains: number[] = [];
    const works: number[] = [];
    const checks: number[] = [];
    const requests: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      chains.push(
        await timed(() =>
          crawlSite({
            origin,
            fetcher: withLatency(guardedFetcher(), true),
            limiter: createConcurrencyLimiter(Number.POSITIVE_INFINITY),
          }),
        ),
      );
      const { fetcher, clock } = withFetchClock(withLatency(guardedFetcher(), true));
      checks.push(await timed(() => crawlSite({ origin, fetcher, limiter: createConcurrencyLimiter(connections) })));
      works.push(clock.busyMs / connections);
      requests.push(clock.requests);
    }
    const chain = median(chains);
    const work = median(works);
    const bound = Math.max(chain, work);
    const check = median(checks);
    const ratio = check / bound;
    ratios.push(ratio);
    const ms = (value: number, width: number) => `${value.toFixed(0)}`.padStart(width);
    log(
      `${name.padEnd(34)}${ms(median(requests), 8)}${ms(chain, 7)}${ms(work, 9)}${ms(bound, 7)}${ms(check, 7)}${ratio.toFixed(2).padStart(7)}  ${ratio <= 1.2 ? "yes" : "NO"}`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  log(
    `ratio over ${ratios.length} sites: median ${median(ratios).toFixed(2)}, min ${sorted[0]?.toFixed(2)}, max ${sorted.at(-1)?.toFixed(2)}; target median <= 1.2`,
  );
  return median(ratios);
}

function fakeBatch(jobs: { domain: string; url: string }[]) {
  const outcomes = { acked: 0, retried: 0 };
  const messages = jobs.map((job, i) => ({
    id: String(i),
    timestamp: new Date(),
    attempts: 1,
    body: { ...job, reason: "submit", requested_at: new Date().toISOString() },
    ack: () => void outcomes.acked++,
    retry: () => void outcomes.retried++,
  }));
  return {
    batch: { queue: "crawl-jobs", messages, ackAll() {}, retryAll() {} } as unknown as MessageBatch<unknown>,
    outcomes,
  };
}

async function benchThroughput(origins: Record<string, string>): Promise<void> {
  const stack = await startLocalStack({
    databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
    pgliteDataDir: "memory",
    sqlPort: Number(process.env.BENCH_SQL_PORT ?? 16580),
    redisPort: Number(process.env.BENCH_REDIS_PORT ?? 16581),
  });
  try {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    const jobsOver = (sites: string[]) =>
      Array.from({ length: CRAWL_JOBS }, (_, i) => {
        const name = sites[i % sites.length] as string;
        return { domain: `${new URL(origins[name] as string).host}-${i}`, url: origins[name] as string };
      });
    const succeeding = FIXTURE_SITE_NAMES.filter((name) => FIXTURE_EXPECTATIONS[name]?.crawlStatus === "success");
    // Every site but the slow one (its time is the 5 s fetch cap): success sites, and a blocked, a
    // too-large and a looping one, as a recrawl meets them.
    const mixed = FIXTURE_SITE_NAMES.filter((name) => name !== "slow-site");
    const runs: { latency: boolean; label: string; sites: string[] }[] = [
      { latency: false, label: "no added latency", sites: succeeding },
      { latency: true, label: "50-400 ms per request", sites: succeeding },
      ...(process.env.BENCH_MIXED === "0"
        ? []
        : [{ latency: true, label: "50-400 ms, with failing sites", sites: mixed }]),
    ];
    for (const { latency, label, sites } of runs) {
      const jobs = jobsOver(sites);
      const clock: FetchClock = { busyMs: 0, requests: 0 };
      const ctx = {
        db,
        // The consumer never reads the cache.
        cache: {
          remember: async <T>(_key: string, _ttl: number, compute: () => Promise<T>) => ({
            value: await compute(),
            hit: false,
          }),
        },
        origin: "https://bench.invalid",
        openFetcher: ({ deadline }: { deadline: number }) => {
          return withFetchClock(
            withLatency(
              createGuardedFetch({
                resolver: createDohResolver({ url: "http://127.0.0.1:9/unused" }),
                allowPrivate: true,
                userAgent: "AgentReadinessBot/1.0 (+bench)",
                deadline,
              }),
              latency,
            ),
            clock,
          ).fetcher;
        },
      };
      let acked = 0;
      let retried = 0;
      const elapsed = await timed(async () => {
        for (let start = 0; start < jobs.length; start += 10) {
          const { batch, outcomes } = fakeBatch(jobs.slice(start, start + 10));
          await consumeCrawlBatch(ctx, batch);
          acked += outcomes.acked;
          retried += outcomes.retried;
        }
      });
      const busy = clock.busyMs / (WORKER_CONNECTION_LIMIT * elapsed);
      // Sites crawled: written, or sent back for a retry (an unreachable site before its last attempt).
      const crawled = acked + retried;
      const bound = (crawled / (clock.busyMs / WORKER_CONNECTION_LIMIT)) * 60_000;
      log(
        `throughput (${label}): ${jobs.length} jobs in ${(elapsed / 1000).toFixed(1)} s = ${((crawled / elapsed) * 60_000).toFixed(0)} sites/min (${acked} written, ${retried} to retry), ${(clock.requests / jobs.length).toFixed(1)} requests per site, connections busy ${(busy * 100).toFixed(0)}% of the time${latency ? ` (at 100%: ${bound.toFixed(0)} sites/min)` : ""}`,
      );
    }
  } finally {
    await stack.stop();
  }
}

/** The p-th percentile (0-100) of `values`, by nearest rank. */
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
};

/** Part 3: each site crawled once, checklist included; the distribution of its requests and any check the budget left unfetched. */
async function benchRequestsPerCrawl(label: string, origins: Record<string, string>, names: string[]): Promise<void> {
  const counts: number[] = [];
  const unfetched: string[] = [];
  for (const name of names) {
    const crawl = await crawlSite({
      origin: origins[name] as string,
      fetcher: guardedFetcher(),
      limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    });
    counts.push(crawl.requestCount);
    for (const check of crawl.checklist?.checks ?? []) {
      if (/budget/.test(check.reason)) unfetched.push(`${name}/${check.id}`);
    }
  }
  log(
    `requests per crawl (${label}, ${names.length} sites, checklist included): min ${Math.min(...counts)}, median ${median(counts)}, p90 ${percentile(counts, 90)}, max ${Math.max(...counts)} (budget ${CRAWL_REQUEST_BUDGET}); checks left unfetched by the budget: ${unfetched.length}${unfetched.length > 0 ? ` (${unfetched.slice(0, 8).join(", ")})` : ""}`,
  );
}

const web = await startFixtureWeb(FIXTURE_PORT);
try {
  const parallel =
    process.env.BENCH_PROBES === "1" ? await benchParallelism(web.origins, Number.POSITIVE_INFINITY) : true;
  // BENCH_THROUGHPUT_ONLY=1 runs part 2 alone (a quick figure while tuning the crawl plan).
  const throughputOnly = process.env.BENCH_THROUGHPUT_ONLY === "1";
  const ratio = throughputOnly ? 0 : await benchLowerBound(web.origins);
  const succeeding = FIXTURE_SITE_NAMES.filter((name) => FIXTURE_EXPECTATIONS[name]?.crawlStatus === "success");
  if (!throughputOnly) await benchRequestsPerCrawl("fixture web", web.origins, succeeding);
  if (!throughputOnly && process.env.BENCH_FARM !== "0") {
    const farm = await startFarm();
    try {
      await benchRequestsPerCrawl("real-implementation farm", farm.origins, Object.keys(farm.origins));
    } finally {
      await farm.stop();
    }
  }
  await benchThroughput(web.origins);
  if (process.env.BENCH_PROBES === "1") log(`parallelism target, no connection limit: ${parallel ? "met" : "MISSED"}`);
  if (!throughputOnly) {
    log(`check within 1.2 x its lower bound (median): ${ratio <= 1.2 ? "met" : "MISSED"} (${ratio.toFixed(2)})`);
  }
  process.exitCode = parallel && ratio <= 1.2 ? 0 : 1;
} finally {
  await web.stop();
}
