/**
 * `npm run bench:check`: are the probes of one check really parallel, and how fast does one
 * queue consumer crawl?
 *
 * 1. Parallelism. Against the fixture web, every request gets an injected latency (a fixed
 *    pseudo-random 50-400 ms per URL, as from a distant site). For each site, each of the seven
 *    detectors (and the home-page fetch) is timed alone — that is one probe — and then the whole
 *    check. Target: check time <= 1.3 x the slowest probe + 50 ms, with the Workers limit of 6
 *    connections in force. Exits 1 when missed.
 * 2. Throughput. The crawl queue consumer's own code (consumeCrawlBatch) runs batches of 10 jobs
 *    over the fixture web's sites, writing to the database through the local stack, with and
 *    without injected latency; the result is sites per minute of one consumer.
 *
 * Settings: BENCH_RUNS (repeats per site, default 5), BENCH_CRAWL_JOBS (default 200),
 * BENCH_DATABASE_URL (a Postgres server for the throughput part; default: embedded PGlite).
 */
import { performance } from "node:perf_hooks";
import { createDatabase } from "../src/adapters/db.ts";
import { createDohResolver } from "../src/adapters/dns-over-https.ts";
import { createGuardedFetch } from "../src/adapters/guarded-fetch.ts";
import {
  createConcurrencyLimiter,
  createCrawlFetcher,
  WORKER_CONNECTION_LIMIT,
} from "../src/domain/crawl/crawl-fetcher.ts";
import { crawlSite, SIGNAL_DETECTORS } from "../src/domain/crawl/crawl-site.ts";
import type { SiteFetcher } from "../src/domain/crawl/types.ts";
import { SIGNAL_FIELDS } from "../src/domain/sites/site-fields.ts";
import { consumeCrawlBatch } from "../src/jobs/crawl-consumer.ts";
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

async function benchParallelism(origins: Record<string, string>): Promise<boolean> {
  log(`parallelism: ${RUNS} runs per site, latency 50-400 ms per URL, ${WORKER_CONNECTION_LIMIT} connections`);
  log("site                              slowest probe   check   limit (1.3x+50)  ok");
  let allOk = true;
  for (const name of FIXTURE_SITE_NAMES.filter((site) => !PATHOLOGICAL.has(site))) {
    const origin = origins[name] as string;
    const probeTimes: Record<string, number[]> = {};
    const checkTimes: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const probes: [string, (fetch: SiteFetcher) => Promise<unknown>][] = [
        ["home", (fetch) => fetch(`${origin}/`)],
        ...SIGNAL_FIELDS.map(
          (field) =>
            [field, (fetch: SiteFetcher) => SIGNAL_DETECTORS[field]({ origin, fetch })] as [
              string,
              (fetch: SiteFetcher) => Promise<unknown>,
            ],
        ),
      ];
      for (const [probe, run] of probes) {
        const fetch = createCrawlFetcher(
          withLatency(guardedFetcher(), true),
          createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
        );
        const elapsed = await timed(() => run(fetch));
        probeTimes[probe] = [...(probeTimes[probe] ?? []), elapsed];
      }
      checkTimes.push(
        await timed(() =>
          crawlSite({
            origin,
            fetcher: withLatency(guardedFetcher(), true),
            limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
          }),
        ),
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
    sqlPort: 16580,
    redisPort: 16581,
  });
  try {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    const sites = FIXTURE_SITE_NAMES.filter((name) => FIXTURE_EXPECTATIONS[name]?.crawlStatus === "success");
    const jobs = Array.from({ length: CRAWL_JOBS }, (_, i) => {
      const name = sites[i % sites.length] as string;
      return { domain: `${new URL(origins[name] as string).host}-${i}`, url: origins[name] as string };
    });
    for (const latency of [false, true]) {
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
        openFetcher: ({ deadline }: { deadline: number }) =>
          withLatency(
            createGuardedFetch({
              resolver: createDohResolver({ url: "http://127.0.0.1:9/unused" }),
              allowPrivate: true,
              userAgent: "AgentReadinessBot/1.0 (+bench)",
              deadline,
            }),
            latency,
          ),
      };
      let acked = 0;
      const elapsed = await timed(async () => {
        for (let start = 0; start < jobs.length; start += 10) {
          const { batch, outcomes } = fakeBatch(jobs.slice(start, start + 10));
          await consumeCrawlBatch(ctx, batch);
          acked += outcomes.acked;
        }
      });
      log(
        `throughput (${latency ? "50-400 ms per request" : "no added latency"}): ${jobs.length} jobs in ${(elapsed / 1000).toFixed(1)} s = ${((acked / elapsed) * 60_000).toFixed(0)} sites/min (${acked} written)`,
      );
    }
  } finally {
    await stack.stop();
  }
}

const web = await startFixtureWeb(FIXTURE_PORT);
try {
  const ok = await benchParallelism(web.origins);
  await benchThroughput(web.origins);
  log(ok ? "parallelism target met" : "parallelism target MISSED");
  process.exitCode = ok ? 0 : 1;
} finally {
  await web.stop();
}
