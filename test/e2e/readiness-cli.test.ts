/**
 * The command-line checker against the service it mirrors: `npm start` (private addresses allowed,
 * so the Worker reaches the fixture web on 127.0.0.1) and the whole fixture web. Every fixture site
 * is checked both ways — by POST /check with a priority key, and by the checker crawling from
 * this process — and must get the same verdicts: the signals (status, reason, the fetches behind
 * them), the score, the crawl status, the classification and, when the body carries one, every
 * check. Then the real bin: through the service with the key from READINESS_API_KEY, each exit
 * status, and the comparison with the index's last crawl.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runReadiness } from "../../scripts/readiness.ts";
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { PRIORITY_CHECK_LIMIT } from "../../src/routes/shared/live-check-limits.ts";
import { FIXTURE_EXPECTATIONS, FIXTURE_SITE_NAMES } from "../fixtures/web/expectations.ts";
import { type FixtureSites, serveFixtureSites } from "../support/fixture-sites.ts";
import { type RunningService, startService } from "../support/npm-start.ts";

const root = resolve(import.meta.dirname, "../..");

let service: RunningService | undefined;
let sites: FixtureSites;
let api = "";
let priorityKey = "";
/**
 * Keys for the comparison of the whole fixture web, one per PRIORITY_CHECK_LIMIT's worth of sites
 * (the service holds a key to 100 checks an hour, and the web has more sites than that), so the
 * other tests' key is not spent by it.
 */
let comparisonKeys: string[] = [];
const SITES_PER_KEY = PRIORITY_CHECK_LIMIT.limit - 10;

/** A priority key bought through the local pay page, so the checks are not held to the free hourly ten. */
async function buyPriorityKey(origin: string, email = "readiness-cli@example.com"): Promise<string> {
  const order = (await (
    await fetch(`${origin}/api/v1/api-keys/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    })
  ).json()) as { checkout_url: string };
  const paid = await fetch(order.checkout_url, { method: "POST", redirect: "manual" });
  expect(paid.status).toBe(303);
  const activation = await fetch(paid.headers.get("location") as string);
  const { api_key: key } = (await activation.json()) as { api_key: string };
  expect(key).toMatch(/^svcpri_/);
  return key;
}

beforeAll(async () => {
  sites = await serveFixtureSites(FIXTURE_SITE_NAMES);
  service = await startService({
    PGLITE_DATA_DIR: "memory",
    PGLITE_START_FROM: inject("migratedPglite"),
    DEMO_SITES: "50",
    FETCH_ALLOW_PRIVATE: "true",
  });
  api = `${service.origin}/api/v1`;
  priorityKey = await buyPriorityKey(service.origin);
  const needed = Math.ceil(FIXTURE_SITE_NAMES.length / SITES_PER_KEY);
  comparisonKeys = [];
  for (let n = 0; n < needed; n++)
    comparisonKeys.push(await buyPriorityKey(service.origin, `readiness-cli-web-${n}@example.com`));
});

afterAll(async () => {
  service?.stop();
  await sites?.stop();
});

type Body = Record<string, unknown> & {
  signals: Record<string, { status: string; reason: string; fetched: { url: string; status: number | null }[] }>;
  checks?: { id: string; status: string; reason: string; evidence: { url: string }[] }[];
};

/**
 * What a check decided, without when it ran, how long it took and what the index holds. Each
 * crawl asks for a random path of its own as a control (a site answering 200 to anything proves
 * nothing): its name is the one thing two crawls of a site may not share.
 */
function verdicts(body: Body) {
  const decided = decisions(body);
  return JSON.parse(JSON.stringify(decided).replace(CONTROL_NAME, "<control>")) as typeof decided;
}

const CONTROL_NAME = /\b[0-9a-f]{20}\b/g;
const named = (url: string) => url.replace(CONTROL_NAME, "<control>");

function decisions(body: Body) {
  const {
    checked_at: _at,
    duration_ms: _ms,
    indexed: _indexed,
    recrawl_queued: _queued,
    signals,
    checks,
    ...rest
  } = body;
  return {
    ...rest,
    signals: Object.fromEntries(
      SIGNAL_FIELDS.map((field) => {
        const evidence = signals[field]!;
        const fetched = evidence.fetched.map((fetch) => `${named(fetch.url)} ${fetch.status}`).sort();
        return [field, { status: evidence.status, reason: evidence.reason, fetched }];
      }),
    ),
    ...(checks
      ? {
          checks: checks.map(({ evidence, ...check }) => ({
            ...check,
            evidence: evidence.map((fetch) => named(fetch.url)).sort(),
          })),
        }
      : {}),
  };
}

async function serviceCheck(url: string, key: string = priorityKey): Promise<Body> {
  const response = await fetch(`${api}/check`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ url }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Body;
}

async function checkerInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runReadiness({
    argv,
    env: {},
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/** The real bin, as `npx agent-readiness` runs it. */
function checkerBin(
  argv: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, "bin/agent-readiness.mjs"), ...argv], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  return new Promise((done) => child.on("close", (code) => done({ code: code ?? -1, stdout, stderr })));
}

/** Runs `task` over `items`, `width` at a time. */
async function pooled<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!);
      }
    }),
  );
  return results;
}

describe("the checker and POST /check on the fixture web", () => {
  it("give every fixture site the same verdicts", async () => {
    const outcomes = await pooled(FIXTURE_SITE_NAMES, 4, async (name) => {
      const url = `${sites.origins[name]}/`;
      // One after the other: two crawls of one site at once would share its time budget's margins.
      const key = comparisonKeys[Math.floor(FIXTURE_SITE_NAMES.indexOf(name) / SITES_PER_KEY)]!;
      const fromService = await serviceCheck(url, key);
      const local = await checkerInProcess([url, "--json"]);
      const fromChecker = JSON.parse(local.stdout) as Body;
      return { name, fromService, fromChecker, code: local.code };
    });
    const differing = outcomes
      .filter(
        ({ fromService, fromChecker }) =>
          JSON.stringify(verdicts(fromService)) !== JSON.stringify(verdicts(fromChecker)),
      )
      .map(({ name, fromService, fromChecker }) => ({
        name,
        service: verdicts(fromService),
        checker: verdicts(fromChecker),
      }));
    expect(differing).toEqual([]);
    for (const { name, fromChecker, code } of outcomes) {
      // The whole checklist was compared, not an absent one.
      expect({ name, checks: fromChecker.checks?.map((check) => check.id).sort() }).toEqual({
        name,
        checks: [...CHECK_IDS].sort(),
      });
      // Both agree with what the fixture is known to be, so the agreement is not two wrongs.
      const expected = FIXTURE_EXPECTATIONS[name]!;
      const statuses = Object.fromEntries(SIGNAL_FIELDS.map((field) => [field, fromChecker.signals[field]?.status]));
      expect({ name, statuses, score: fromChecker.agentic_score, crawl: fromChecker.crawl_status }).toEqual({
        name,
        statuses: expected.signals,
        score: expected.score,
        crawl: expected.crawlStatus,
      });
      // No gate was asked for: 0 for a site that was read, 2 for one that was not.
      expect({ name, code }).toEqual({ name, code: expected.crawlStatus === "success" ? 0 : 2 });
    }
  }, 300_000);
});

describe("the checker's bin", () => {
  it("checks through the service with the priority key from the environment, with the same verdicts", async () => {
    const url = `${sites.origins["all-six-signals"]}/`;
    const remote = await checkerBin([url, "--api", api, "--json"], { READINESS_API_KEY: priorityKey });
    expect(remote.code, remote.stderr).toBe(0);
    const local = await checkerInProcess([url, "--json"]);
    expect(verdicts(JSON.parse(remote.stdout) as Body)).toEqual(verdicts(JSON.parse(local.stdout) as Body));
    const wrongKey = await checkerBin([url, "--api", api, "--json"], { READINESS_API_KEY: "svcpri_not_a_key" });
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toContain("HTTP 401");
  }, 120_000);

  it("exits 0 when every gate passes, 1 when one fails, 2 when the site cannot be checked", async () => {
    const mcp = `${sites.origins["mcp-json"]}/`;
    const [passed, failed, notChecked] = await Promise.all([
      checkerBin([mcp, "--require", "has_mcp_server", "--fail-under", String(FIXTURE_EXPECTATIONS["mcp-json"]!.score)]),
      checkerBin([`${sites.origins["all-six-signals"]}/`, "--require", "robots_txt,has_mcp_server", "--markdown"]),
      checkerBin([`${sites.origins["slow-site"]}/`, "--fail-under", "0"]),
    ]);
    expect(passed.code, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/✓ passed\s+require has_mcp_server: MCP server is present/);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/\| require has_mcp_server \| ❌ failed \|/);
    // A checklist id is gated on the check's own status.
    expect(failed.stdout).toMatch(/\| require robots_txt \| ✅ passed \| pass: /);
    expect(notChecked.code).toBe(2);
    expect(notChecked.stdout).toContain("crawl unreachable");
  }, 120_000);

  it("compares a local check with the index's last crawl of a domain", async () => {
    const top = (await (await fetch(`${api}/top?limit=1`)).json()) as {
      results: { domain: string; agentic_score: number }[];
    };
    const indexed = top.results[0]!;
    const url = `${sites.origins["all-six-signals"]}/`;
    const compared = await checkerInProcess([url, "--api", api, "--local", "--compare", indexed.domain]);
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain(`Changes since the index's last crawl of ${indexed.domain}`);
    const after = FIXTURE_EXPECTATIONS["all-six-signals"]!.score;
    expect(compared.stdout).toContain(`score ${indexed.agentic_score} → ${after}`);
    const unknown = await checkerInProcess([url, "--api", api, "--local", "--compare", "never-indexed.example"]);
    expect(unknown.stdout).toContain("never-indexed.example is not in the index");
  }, 120_000);
});
