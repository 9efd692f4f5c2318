/**
 * `npm run bundles`: each Worker as `wrangler deploy` would upload it (the all-in-one and every
 * `[env.*]` group), its size and gzip, its gzip's share of the all-in-one's, and its startup in
 * workerd: the time Miniflare takes from its construction to ready (the runtime started, the bundle
 * parsed and its top level run), then to the first answer of GET /healthz without stores
 * (a 503: the request path's first run). Medians of BUNDLE_STARTS starts (default 3). Prints a
 * Markdown table for docs/operations.md. The budget itself is checked by
 * test/bundles/worker-bundles.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { Miniflare } from "miniflare";
import { machineLine, percentile } from "./measure-support.ts";

const STARTS = Number(process.env.BUNDLE_STARTS ?? 3);
const toml = readFileSync("wrangler.toml", "utf8");
const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
const environments = ["", ...[...toml.matchAll(/^\[env\.([a-z0-9-]+)\]/gm)].map((m) => m[1] as string)];

// Settings that parse; the stores are unreachable, so /healthz answers without them.
const BINDINGS = {
  DATABASE_URL: "postgres://unused:unused@127.0.0.1:9/unused",
  UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9",
  UPSTASH_REDIS_REST_TOKEN: "unused",
  RATE_LIMIT_KEY_SECRET: "bundle-report-rate-limit-key-secret-0123456789",
};

interface Measured {
  name: string;
  bytes: number;
  gzip: number;
  readyMs: number;
  firstAnswerMs: number;
}

async function measure(environment: string, outdir: string): Promise<Measured> {
  const name = environment || "all";
  const build = spawnSync(
    process.execPath,
    [
      "node_modules/wrangler/bin/wrangler.js",
      "deploy",
      "--dry-run",
      "--outdir",
      join(outdir, name),
      ...(environment ? ["--env", environment] : []),
    ],
    { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
  );
  if (build.status !== 0) throw new Error(`wrangler deploy --dry-run ${environment} failed:\n${build.stderr}`);
  const script = join(outdir, name, `${name}.js`);
  const ready: number[] = [];
  const first: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const started = performance.now();
    const miniflare = new Miniflare({
      modules: true,
      modulesRoot: join(outdir, name),
      scriptPath: script,
      compatibilityDate,
      bindings: BINDINGS,
      queueProducers: { CRAWL_QUEUE: { queueName: "crawl-jobs" } },
      cf: false,
    });
    await miniflare.ready;
    ready.push(performance.now() - started);
    const response = await miniflare.dispatchFetch("http://127.0.0.1/healthz");
    await response.arrayBuffer();
    first.push(performance.now() - started);
    await miniflare.dispose();
  }
  const median = (values: number[]) =>
    percentile(
      values.sort((a, b) => a - b),
      50,
    );
  const source = readFileSync(script);
  return {
    name,
    bytes: statSync(script).size,
    gzip: gzipSync(source).length,
    readyMs: median(ready),
    firstAnswerMs: median(first),
  };
}

const outdir = mkdtempSync(join(tmpdir(), "bundle-report-"));
try {
  const started = machineLine();
  const rows: Measured[] = [];
  for (const environment of environments) {
    rows.push(await measure(environment, outdir));
    console.error(`[bundles] ${environment || "all"} measured`);
  }
  const all = rows[0] as Measured;
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`\nStarted ${started}\nEnded ${machineLine()}\nMedians of ${STARTS} starts.\n`);
  console.log("| Worker | size KiB | gzip KiB | gzip ÷ all-in-one | workerd ready ms | first answer ms |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${kib(row.bytes)} | ${kib(row.gzip)} | ${((row.gzip / all.gzip) * 100).toFixed(1)} % | ${row.readyMs.toFixed(0)} | ${row.firstAnswerMs.toFixed(0)} |`,
    );
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
