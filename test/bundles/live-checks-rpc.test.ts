/**
 * The mcp Worker's check_site and verify_mcp run the live check in the checks Worker, over a real
 * service binding with Workers RPC: both deployable bundles, as `wrangler deploy --env mcp` and
 * `--env checks` build them, run side by side in workerd (Miniflare), the mcp one's CHECKS binding
 * naming the checks one's LiveChecksEntrypoint as wrangler.toml does, against the local stack
 * (embedded database, Redis stand-in) and the fixture web.
 *
 * What crosses the binding is held to what the all-in-one Worker answers in-process
 * (test/integration/mcp-server.test.ts): the same result as the checks Worker's own POST /check,
 * the client's limit spent once per call and in the mcp Worker only (check_site's admission is a
 * callback the checks Worker runs beside its index lookup; its refusal keeps its code), and the
 * client-facing errors
 * of the checks Worker (a DomainError, a store outage) answered with their own codes. A Worker
 * deployed without the binding answers 503 DEPENDENCY_UNAVAILABLE.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Miniflare, type WorkerOptions } from "miniflare";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { CHECK_LIMIT } from "../../src/routes/shared/live-check-limits.ts";
import { FIXTURE_EXPECTATIONS, fixtureOrigin, fixtureWebBasePort } from "../fixtures/web/expectations.ts";
import { type FixtureWeb, startFixtureWeb } from "../fixtures/web/server.ts";
import { LOADED_MACHINE_STORE_TIMEOUTS } from "../support/stack-settings.ts";

const root = resolve(import.meta.dirname, "../..");
const FIXTURE_BASE_PORT = fixtureWebBasePort(4);
const CHECKS_SERVICE = "agent-readiness-checks";
const ENTRYPOINT = "LiveChecksEntrypoint";

let outDir = "";
let stack: LocalStack | undefined;
let web: FixtureWeb | undefined;
let miniflare: Miniflare | undefined;

/** The bundle of one environment: `npm test`'s (WORKER_BUNDLES_DIR), or built here. */
async function bundlePath(environment: string): Promise<string> {
  const builtDir = process.env.WORKER_BUNDLES_DIR;
  if (builtDir) return resolve(root, builtDir, environment, `${environment}.js`);
  await promisify(execFile)(
    join(root, "node_modules/.bin/wrangler"),
    ["deploy", "--dry-run", "--outdir", join(outDir, environment), "--env", environment],
    { cwd: root, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
  );
  return join(outDir, environment, `${environment}.js`);
}

function fixture(name: string): string {
  return fixtureOrigin(name, FIXTURE_BASE_PORT);
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "live-checks-rpc-"));
  const [mcpScript, checksScript] = await Promise.all([bundlePath("mcp"), bundlePath("checks")]);
  // The fixture web's ports are fixed: taken first, before the free ports the rest asks for.
  web = await startFixtureWeb(FIXTURE_BASE_PORT);
  stack = await startLocalStack({
    pgliteDataDir: "memory",
    pgliteStartFrom: inject("migratedPglite"),
    sqlPort: 0,
    redisPort: 0,
  });
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  const compatibilityDate = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(
    await readFile(join(root, "wrangler.toml"), "utf8"),
  )?.[1];

  // One store for both Workers, as in production: the limit both would spend is one counter.
  const bindings = {
    DATABASE_URL: stack.databaseUrl,
    DATABASE_LOCAL_HTTP: "true",
    UPSTASH_REDIS_REST_URL: stack.redisRestUrl,
    UPSTASH_REDIS_REST_TOKEN: stack.redisRestToken,
    REDIS_KEY_PREFIX: `rpc-${Date.now().toString(36)}`,
    RATE_LIMIT_KEY_SECRET: "live-checks-rpc-rate-limit-key-secret-0123456789",
    FETCH_ALLOW_PRIVATE: "true",
    DOH_URL: stack.dohUrl,
    OWNERSHIP_DOH_URLS: stack.dohUrl,
    ...LOADED_MACHINE_STORE_TIMEOUTS,
  };
  const worker = (name: string, scriptPath: string, options: Partial<WorkerOptions> = {}): WorkerOptions =>
    ({
      name,
      modules: true,
      modulesRoot: resolve(scriptPath, ".."),
      scriptPath,
      compatibilityDate,
      bindings,
      ...options,
    }) as WorkerOptions;
  const boundTo = (service: string) => ({ CHECKS: { name: service, entrypoint: ENTRYPOINT } });
  miniflare = new Miniflare({
    cf: false,
    workers: [
      worker("mcp", mcpScript, { serviceBindings: boundTo(CHECKS_SERVICE) }),
      worker(CHECKS_SERVICE, checksScript, { queueProducers: { CRAWL_QUEUE: { queueName: "crawl-jobs" } } }),
      // A checks Worker that fetches public addresses only, behind an mcp Worker that allows the
      // fixture web's: the refusal can then only come from the checks Worker, across the binding.
      worker("mcp-before-public-checks", mcpScript, { serviceBindings: boundTo("public-checks") }),
      worker("public-checks", checksScript, { bindings: { ...bindings, FETCH_ALLOW_PRIVATE: "false" } }),
      // A checks Worker whose database is unreachable (a closed port).
      worker("mcp-before-checks-without-database", mcpScript, { serviceBindings: boundTo("checks-without-database") }),
      worker("checks-without-database", checksScript, {
        bindings: { ...bindings, DATABASE_URL: "postgres://local:local@127.0.0.1:9/local" },
      }),
      // An mcp Worker deployed without its binding.
      worker("mcp-unbound", mcpScript),
    ],
  });
  await miniflare.ready;
}, 240_000);

afterAll(async () => {
  await miniflare?.dispose();
  await web?.stop();
  await stack?.stop();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

let nextIp = 1;
const newClientIp = () => `198.51.100.${nextIp++}`;

interface ToolCallResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** tools/call of `name` on the Worker `workerName`, from client `ip`. */
async function callTool(workerName: string, ip: string, name: string, args: Record<string, unknown>) {
  const worker = await (miniflare as Miniflare).getWorker(workerName);
  const response = await worker.fetch("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "CF-Connecting-IP": ip,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  expect(response.status).toBe(200);
  const reply = (await response.json()) as { result: ToolCallResult };
  return reply.result;
}

async function callOk(workerName: string, ip: string, name: string, args: Record<string, unknown>) {
  const result = await callTool(workerName, ip, name, args);
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

async function callFails(workerName: string, ip: string, name: string, args: Record<string, unknown>) {
  const result = await callTool(workerName, ip, name, args);
  expect(result.isError).toBe(true);
  return JSON.parse(result.content[0]?.text ?? "{}") as Record<string, unknown>;
}

/**
 * A live result without what differs between two runs of one check: its timing, and the random
 * path of the catch-all probe (src/domain/signals/catch-all.ts) in the evidence.
 */
function comparable({ checked_at: _at, duration_ms: _ms, ...rest }: Record<string, unknown>): unknown {
  return JSON.parse(JSON.stringify(rest).replace(/\/(\.well-known\/)?[0-9a-f]{20}\.(txt|json)"/g, '/$1<random>.$2"'));
}

describe("check_site and verify_mcp in the mcp Worker, over the CHECKS binding", () => {
  it("check_site answers the checks Worker's own POST /check result", async () => {
    const url = fixture("all-six-signals");
    const viaMcp = await callOk("mcp", newClientIp(), "check_site", { url });
    expect(viaMcp).toMatchObject({
      url,
      agentic_score: FIXTURE_EXPECTATIONS["all-six-signals"]?.score,
      indexed: false,
    });

    const checks = await (miniflare as Miniflare).getWorker(CHECKS_SERVICE);
    const rest = await checks.fetch("http://127.0.0.1/api/v1/check", {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": newClientIp() },
      body: JSON.stringify({ url }),
    });
    expect(rest.status).toBe(200);
    expect(comparable(viaMcp)).toStrictEqual(comparable((await rest.json()) as Record<string, unknown>));
  }, 60_000);

  it("verify_mcp performs the handshake in the checks Worker", async () => {
    const url = fixture("mcp-json");
    const result = await callOk("mcp", newClientIp(), "verify_mcp", { url });
    expect(result).toMatchObject({ verified: true, endpoint: expect.stringContaining(new URL(url).host) });
  }, 60_000);

  it("spends the client's check limit once per call, in the mcp Worker only", async () => {
    const ip = newClientIp();
    const url = fixture("nothing");
    // Refused before the call: costs nothing, as REST.
    for (let i = 0; i < 3; i++) {
      expect(await callFails("mcp", ip, "check_site", { url: "ftp://example.com/" })).toMatchObject({
        code: "INVALID_URL",
      });
    }
    // Were the checks Worker to spend the limit as well, the sixth call would already be refused.
    for (let i = 0; i < CHECK_LIMIT.limit; i++) await callOk("mcp", ip, "check_site", { url });
    expect(await callFails("mcp", ip, "check_site", { url })).toMatchObject({
      code: "RATE_LIMITED",
      limit: CHECK_LIMIT.limit,
    });
  }, 120_000);

  it("answers the checks Worker's DomainError with its code and message", async () => {
    const url = fixture("nothing");
    const error = await callFails("mcp-before-public-checks", newClientIp(), "check_site", { url });
    expect(error).toMatchObject({ code: "URL_NOT_ALLOWED", message: expect.stringContaining("url is not allowed") });
    const verification = await callFails("mcp-before-public-checks", newClientIp(), "verify_mcp", {
      url: fixture("mcp-json"),
    });
    expect(verification).toMatchObject({ code: "URL_NOT_ALLOWED" });
  }, 60_000);

  it("answers the checks Worker's database outage as REST does: 503 DEPENDENCY_UNAVAILABLE", async () => {
    const error = await callFails("mcp-before-checks-without-database", newClientIp(), "check_site", {
      url: fixture("nothing"),
    });
    expect(error).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", retry_after_seconds: expect.any(Number) });
  }, 60_000);

  it("answers 503 DEPENDENCY_UNAVAILABLE when the mcp Worker has no binding", async () => {
    for (const tool of ["check_site", "verify_mcp"]) {
      const error = await callFails("mcp-unbound", newClientIp(), tool, { url: fixture("nothing") });
      expect(error).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", retry_after_seconds: expect.any(Number) });
    }
  });
});
