/**
 * Each Worker bundles only the jobs it runs: `wrangler deploy --dry-run` of every environment
 * (as `npm test` runs it, with esbuild's metafile), and no module of src/jobs/ in the bundle of an
 * environment whose groups own no jobs. The all-in-one builds every group's routes (and scripts
 * build them all to describe the service), so this holds only while a group's jobs stay apart from
 * its route factory.
 *
 * `npm test` builds the bundles once (scripts/test.ts, into dist/ with their metafiles) and names
 * that folder in WORKER_BUNDLES_DIR, so this project reads them rather than bundling again; run
 * alone (`npm run test:bundles`) it builds its own.
 *
 * And the bundle budget (docs/operations.md, "Workers per group"): each group's Worker carries only
 * its group's routes and jobs, so its bundle's gzip is at most 60% of the all-in-one's (the web
 * group's at most 85%: BUNDLE_BUDGET says why); no bundle is over 1 MiB gzip.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { experimental_readRawConfig } from "wrangler";
import { ALL_GROUPS } from "../../src/routes/groups.ts";

const root = resolve(import.meta.dirname, "../..");
const environments = [
  "",
  ...Object.keys(experimental_readRawConfig({ config: join(root, "wrangler.toml") }).rawConfig.env ?? {}),
];

interface Metafile {
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }>;
}

let outDir = "";
const bundledJobModules = new Map<string, string[]>();
const gzipBytes = new Map<string, number>();

/**
 * A group's bundle's gzip at most this share of the all-in-one's: the web group renders most
 * capabilities. The mcp group's tools run the live check in the checks Worker over a service
 * binding (src/routes/mcp/live-checks-over-rpc.ts), so its bundle holds no crawler: 51.0% with the
 * MCP SDK v2 on 2026-12-01 (47.0% with v1 on 2026-11-27), within the common budget (it was 63.7%
 * with the live check bundled).
 */
const BUNDLE_BUDGET: Record<string, number> = { web: 0.85 };
const GROUP_BUDGET = 0.6;

/** `wrangler deploy --dry-run` of one environment into `outDir/<name>`, with its metafile beside it. */
async function buildBundle(environment: string, outDir: string): Promise<void> {
  const name = environment || "all";
  await promisify(execFile)(
    join(root, "node_modules/.bin/wrangler"),
    [
      "deploy",
      "--dry-run",
      "--outdir",
      join(outDir, name),
      "--metafile",
      join(outDir, `${name}.meta.json`),
      ...(environment ? ["--env", environment] : []),
    ],
    { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
  );
}

beforeAll(async () => {
  const builtDir = process.env.WORKER_BUNDLES_DIR;
  outDir = builtDir ? resolve(root, builtDir) : await mkdtemp(join(tmpdir(), "worker-bundles-"));
  if (!builtDir) await Promise.all(environments.map((environment) => buildBundle(environment, outDir)));
  for (const environment of environments) {
    const name = environment || "all";
    const { outputs } = JSON.parse(await readFile(join(outDir, `${name}.meta.json`), "utf8")) as Metafile;
    const [path, bundle] = Object.entries(outputs).find(([, output]) => output.entryPoint) ?? [];
    if (path) gzipBytes.set(environment, gzipSync(await readFile(resolve(root, path))).length);
    const jobModules = Object.entries(bundle?.inputs ?? {})
      .filter(([path, input]) => path.startsWith("src/jobs/") && input.bytesInOutput > 0)
      .map(([path]) => path);
    bundledJobModules.set(environment, jobModules.sort());
  }
}, 180_000);

afterAll(async () => {
  if (outDir && !process.env.WORKER_BUNDLES_DIR) await rm(outDir, { recursive: true, force: true });
});

describe.each(environments.map((name) => ({ name, label: name || "the default" })))(
  "the bundle of $label",
  ({ name }) => {
    const groups = name ? ALL_GROUPS.filter((group) => group.name === name) : ALL_GROUPS;
    const ownsJobs = groups.some((group) => (group.jobs?.crons?.length ?? 0) + (group.jobs?.queues?.length ?? 0) > 0);

    it(ownsJobs ? "holds its groups' jobs" : "holds no job, its groups owning none", () => {
      const modules = bundledJobModules.get(name);
      expect(modules).toBeDefined();
      if (ownsJobs) expect(modules).not.toEqual([]);
      else expect(modules).toEqual([]);
    });
  },
);

describe("the bundle budget", () => {
  it.each(environments.filter(Boolean))("the %s Worker's gzip is within its share of the all-in-one's", (name) => {
    const all = gzipBytes.get("");
    const own = gzipBytes.get(name);
    expect(all).toBeGreaterThan(0);
    expect(own).toBeGreaterThan(0);
    const share = BUNDLE_BUDGET[name] ?? GROUP_BUDGET;
    const ratio = (own as number) / (all as number);
    expect(
      ratio,
      `${name}: ${((own as number) / 1024).toFixed(1)} KiB gzip, ${(ratio * 100).toFixed(0)}% of the all-in-one's`,
    ).toBeLessThanOrEqual(share);
  });

  it("keeps every bundle under 1 MiB gzip", () => {
    expect(gzipBytes.size).toBe(environments.length);
    for (const bytes of gzipBytes.values()) expect(bytes).toBeLessThanOrEqual(1024 * 1024);
  });
});
