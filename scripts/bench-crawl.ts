/**
 * `npm run bench:crawl`: how many requests one crawl makes, checklist included, as a distribution
 * (p50, p90, max against CRAWL_REQUEST_BUDGET) over
 * 1. the fixture web's sites whose crawl succeeds (test/fixtures/web),
 * 2. the real-implementation farm (test/fixtures/farm; BENCH_FARM=0 skips it),
 * 3. both real-world corpora (`../shared/realworld-corpus` and `…-2026` beside the repository):
 *    each document served alone, at the path its site publishes it under, by an in-memory site
 *    with a plain HTML home page (the document's own when it is a home page) and 404 elsewhere;
 * and how many checks the budget left unfetched (target: none). No latency is added: the count,
 * not the time, is measured here; `npm run bench:check` measures time and consumer throughput.
 * BENCH_FIXTURE_PORT sets the fixture web's base port (default 16700).
 */
import { existsSync, readFileSync } from "node:fs";
import { createDohResolver } from "../src/adapters/outbound/dns-over-https.ts";
import { createGuardedFetch } from "../src/adapters/outbound/guarded-fetch.ts";
import {
  CRAWL_REQUEST_BUDGET,
  createConcurrencyLimiter,
  WORKER_CONNECTION_LIMIT,
} from "../src/domain/crawling/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../src/domain/crawling/crawl-site.ts";
import type { ProbeAnswer, SiteFetcher } from "../src/domain/signals/types.ts";
import { startFarm } from "../test/fixtures/farm/farm.ts";
import { FIXTURE_EXPECTATIONS, FIXTURE_SITE_NAMES } from "../test/fixtures/web/expectations.ts";
import { startFixtureWeb } from "../test/fixtures/web/server.ts";

const log = (line: string) => console.log(`[bench:crawl] ${line}`);

/** The p-th percentile (0-100), by nearest rank. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}

interface Tally {
  counts: number[];
  unfetched: string[];
}

function record(tally: Tally, name: string, crawl: SiteCrawl): void {
  tally.counts.push(crawl.requestCount);
  for (const check of crawl.checklist?.checks ?? []) {
    if (/budget/.test(check.reason)) tally.unfetched.push(`${name}/${check.id}`);
  }
}

function report(label: string, { counts, unfetched }: Tally): void {
  const mean = counts.reduce((sum, each) => sum + each, 0) / Math.max(1, counts.length);
  log(
    `${label} (${counts.length} sites): p50 ${percentile(counts, 50)}, p90 ${percentile(counts, 90)}, max ${Math.max(...counts)}, mean ${mean.toFixed(1)}, min ${Math.min(...counts)} (budget ${CRAWL_REQUEST_BUDGET}); checks left unfetched by the budget: ${unfetched.length}${unfetched.length ? ` (${unfetched.slice(0, 8).join(", ")})` : ""}`,
  );
}

function guardedFetcher(): SiteFetcher {
  return createGuardedFetch({
    resolver: createDohResolver({ url: "http://127.0.0.1:9/unused" }),
    allowPrivate: true,
    userAgent: "AgentReadinessBot/1.0 (+bench)",
    deadline: Date.now() + 15_000,
  });
}

async function crawlEach(label: string, origins: Record<string, string>, names: string[]): Promise<Tally> {
  const tally: Tally = { counts: [], unfetched: [] };
  for (const name of names) {
    const crawl = await crawlSite({
      origin: origins[name]!,
      fetcher: guardedFetcher(),
      limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    });
    record(tally, name, crawl);
  }
  report(label, tally);
  return tally;
}

/** Where a corpus document is served: its well-known path, or the path its kind lives at. */
function servedPath(directory: string, file: string, sourcePath: string): string {
  const wellKnown = sourcePath.indexOf(".well-known/");
  if (wellKnown >= 0) return `/${sourcePath.slice(wellKnown)}`;
  if (/^html/.test(directory)) return "/";
  if (/^llms/.test(directory)) return /full/.test(file) ? "/llms-full.txt" : "/llms.txt";
  if (/^robots/.test(directory)) return "/robots.txt";
  if (directory === "plugin") return "/.well-known/ai-plugin.json";
  if (directory === "openapi") return /\.ya?ml$/.test(file) ? "/openapi.yaml" : "/openapi.json";
  return `/${sourcePath.split("/").at(-1)}`;
}

function typeOf(path: string, file: string): string {
  if (path === "/" || /\.html?$/.test(file)) return "text/html; charset=utf-8";
  if (/\.ya?ml$/.test(file)) return "application/yaml";
  if (/\.json$/.test(file) || path.startsWith("/.well-known/")) return "application/json";
  if (/\.md$|llms/.test(path)) return "text/markdown; charset=utf-8";
  return "text/plain; charset=utf-8";
}

const HOME = "<!DOCTYPE html><html><head><title>A corpus site</title></head><body><h1>Hello</h1></body></html>";

function corpusFetcher(origin: string, path: string, type: string, body: string): SiteFetcher {
  return async (url, request = {}) => {
    const { pathname } = new URL(url);
    const served =
      (request.method ?? "GET") !== "GET"
        ? null
        : pathname === path
          ? { type, body }
          : pathname === "/"
            ? { type: "text/html; charset=utf-8", body: HOME }
            : null;
    const answer: ProbeAnswer = {
      ok: true,
      url,
      finalUrl: url,
      redirects: [],
      status: served ? 200 : 404,
      headers: new Headers({ "content-type": served?.type ?? "text/plain" }),
      contentType: (served?.type ?? "text/plain").split(";")[0]!.trim(),
      body: served?.body ?? "Not found",
    };
    return url.startsWith(origin) ? answer : { ...answer, status: 404, body: "Not found" };
  };
}

async function crawlCorpus(label: string, root: URL): Promise<Tally | null> {
  const sources = new URL("SOURCES.tsv", root);
  if (!existsSync(sources)) {
    log(`${label}: not found beside the repository, skipped`);
    return null;
  }
  const tally: Tally = { counts: [], unfetched: [] };
  const rows = readFileSync(sources, "utf8").trim().split("\n").slice(1);
  for (const [i, row] of rows.entries()) {
    const [file, , sourcePath = ""] = row.split("\t");
    if (!file) continue;
    const [directory = "", name = ""] = file.split("/");
    const path = servedPath(directory, name, sourcePath);
    const origin = `https://corpus-${i}.example.org`;
    const body = readFileSync(new URL(file, root), "utf8");
    const crawl = await crawlSite({
      origin,
      fetcher: corpusFetcher(origin, path, typeOf(path, name), body),
      limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    });
    record(tally, file, crawl);
  }
  report(label, tally);
  return tally;
}

const web = await startFixtureWeb(Number(process.env.BENCH_FIXTURE_PORT ?? 16700));
const all: Tally = { counts: [], unfetched: [] };
const add = (tally: Tally | null) => {
  if (!tally) return;
  all.counts.push(...tally.counts);
  all.unfetched.push(...tally.unfetched);
};
try {
  const succeeding = FIXTURE_SITE_NAMES.filter((name) => FIXTURE_EXPECTATIONS[name]?.crawlStatus === "success");
  add(await crawlEach("fixture web", web.origins, succeeding));
} finally {
  await web.stop();
}
if (process.env.BENCH_FARM !== "0") {
  const farm = await startFarm();
  try {
    add(await crawlEach("real-implementation farm", farm.origins as Record<string, string>, Object.keys(farm.origins)));
  } finally {
    await farm.stop();
  }
}
add(await crawlCorpus("real-world corpus", new URL("../../shared/realworld-corpus/", import.meta.url)));
add(await crawlCorpus("2026 corpus", new URL("../../shared/realworld-corpus-2026/", import.meta.url)));
report("all together", all);
process.exitCode = all.unfetched.length === 0 ? 0 : 1;
