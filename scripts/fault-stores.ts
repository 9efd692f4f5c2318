/**
 * `npm run fault:stores`: takes the stores away from under a running Worker and measures what
 * clients get and how soon the service recovers. The Worker (`wrangler dev` behind the local
 * edge, default settings) reaches the local stack's two endpoints, in front of a real Postgres
 * and a real Redis, through fault proxies (scripts/fault-proxy.ts) that are switched to:
 *
 *   refuse  the endpoint is stopped: connections refused
 *   drop    each request is read, then its connection cut (lost mid-request)
 *   hang    each request is read and never answered
 *
 * For the SQL endpoint: every database-backed endpoint and MCP tool, with status, code,
 * Retry-After and time to answer, then the time from the endpoint's return to the first 200.
 * For the Redis endpoint: searches during the outage (allowed, uncounted), then whether they were
 * counted once Redis is back, and the time to the first counted answer. Prints Markdown tables
 * with the machine and the date; exits 1 when a database-backed answer is not a 503 within 2 s
 * (a check: after its crawl) or a recovery takes longer than 5 s. Talks to 127.0.0.1 only.
 *
 * Settings: FAULT_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/agent_readiness_load),
 * FAULT_REDIS_URL (default redis://127.0.0.1:6379/11), FAULT_PORT (default 8796),
 * FAULT_WORKER_LOG=1 to see the Worker's log.
 */
import { randomBytes } from "node:crypto";
import { Agent, createServer, request } from "node:http";
import { performance } from "node:perf_hooks";
import { type FaultMode, type FaultProxy, startFaultProxy } from "./fault-proxy.ts";
import { close, listen } from "./local-stack/http.ts";
import { startLocalStack } from "./local-stack.ts";
import { ensureDatabase, machineLine, waitForHttp } from "./measure-support.ts";
import { migrate } from "./migrate.ts";
import { loadDemoIndexIfEmpty } from "./seed-demo.ts";
import { startLocalWorker } from "./wrangler-dev.ts";

const DATABASE_URL = process.env.FAULT_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agent_readiness_load";
const REDIS_URL = process.env.FAULT_REDIS_URL ?? "redis://127.0.0.1:6379/11";
const PORT = Number(process.env.FAULT_PORT ?? 8796);
const ANSWER_WITHIN_MS = 2_000;
const RECOVER_WITHIN_MS = 5_000;

const log = (line: string) => console.log(`[fault] ${line}`);
const agent = new Agent({ keepAlive: false });

interface Answer {
  status: number;
  ms: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request to the Worker from `client` (a loopback address the edge reports as the caller). */
function send(client: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const started = performance.now();
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: PORT,
        path,
        method: init.method ?? "GET",
        agent,
        localAddress: client,
        headers: payload
          ? { "content-type": "application/json", accept: "application/json, text/event-stream" }
          : undefined,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            ms: performance.now() - started,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/** The `code` of a problem document, or of an MCP tool error. */
function codeOf(answer: Answer): string {
  try {
    const body = JSON.parse(answer.body) as {
      code?: string;
      result?: { isError?: boolean; content?: { text: string }[] };
    };
    if (body.result) {
      if (!body.result.isError) return "(tool result)";
      return (JSON.parse(body.result.content?.[0]?.text ?? "{}") as { code?: string }).code ?? "?";
    }
    return body.code ?? "-";
  } catch {
    return "?";
  }
}

const tool = (name: string, args: Record<string, unknown>) => ({
  method: "POST",
  body: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } },
});

interface Probe {
  name: string;
  /** MCP tools answer HTTP 200 with a tool error; the code tells. */
  mcp?: boolean;
  /** A check crawls before it reads the index: its answer comes after the crawl. */
  crawls?: boolean;
  path: (run: number) => string;
  init?: (run: number) => { method?: string; body?: unknown };
}

function databaseProbes(siteOrigin: string): Probe[] {
  const interest = (run: number) => ({
    search_id: "AAAAAAAAAAAAAAAAAAAAAA",
    domain: `fault-${run}.example`,
    action_type: "quote",
    caller_attests_principal_interest: true,
    confirmation_version: "svc-action-interest-v1",
  });
  return [
    { name: "GET /api/v1/search", path: (run) => `/api/v1/search?q=fault${run}` },
    // A limit of its own per run: the top list is cached for 5 minutes per query.
    { name: "GET /api/v1/top", path: (run) => `/api/v1/top?limit=${run + 10}` },
    { name: "GET /api/v1/site/{domain}", path: (run) => `/api/v1/site/fault-${run}.example` },
    { name: "GET /api/v1/categories", path: () => "/api/v1/categories" },
    { name: "GET /api/v1/stats", path: () => "/api/v1/stats" },
    {
      name: "POST /api/v1/submit",
      path: () => "/api/v1/submit",
      init: () => ({ method: "POST", body: { url: siteOrigin } }),
    },
    {
      name: "POST /api/v1/action-interests",
      path: () => "/api/v1/action-interests",
      init: (run) => ({ method: "POST", body: interest(run) }),
    },
    {
      name: "POST /api/v1/check",
      crawls: true,
      path: () => "/api/v1/check",
      init: () => ({ method: "POST", body: { url: siteOrigin } }),
    },
    {
      name: "MCP search_sites",
      mcp: true,
      path: () => "/mcp",
      init: (run) => tool("search_sites", { q: `fault${run}` }),
    },
    {
      name: "MCP get_top_sites",
      mcp: true,
      path: () => "/mcp",
      init: (run) => tool("get_top_sites", { limit: run + 40 }),
    },
    {
      name: "MCP get_site",
      mcp: true,
      path: () => "/mcp",
      init: (run) => tool("get_site", { domain: `fault-${run}.example` }),
    },
    { name: "MCP list_categories", mcp: true, path: () => "/mcp", init: () => tool("list_categories", {}) },
    { name: "MCP get_stats", mcp: true, path: () => "/mcp", init: () => tool("get_stats", {}) },
    { name: "MCP submit_site", mcp: true, path: () => "/mcp", init: () => tool("submit_site", { url: siteOrigin }) },
    {
      name: "MCP record_action_interest",
      mcp: true,
      path: () => "/mcp",
      init: (run) => tool("record_action_interest", interest(run)),
    },
    {
      name: "MCP check_site",
      mcp: true,
      crawls: true,
      path: () => "/mcp",
      init: () => tool("check_site", { url: siteOrigin }),
    },
  ];
}

/** Polls `path` every 50 ms until it answers 200; the time from now until it did. */
async function timeToOk(client: string, path: (attempt: number) => string, limitMs = 30_000): Promise<number> {
  const started = performance.now();
  for (let attempt = 0; performance.now() - started < limitMs; attempt++) {
    const answer = await send(client, path(attempt)).catch(() => undefined);
    if (answer?.status === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Number.POSITIVE_INFINITY;
}

/** A one-page site for /check to crawl, on a free port. */
async function startTinySite() {
  const server = createServer((incoming, outgoing) => {
    if (incoming.url === "/") {
      outgoing.writeHead(200, { "content-type": "text/html" });
      outgoing.end("<!doctype html><html><head><title>Fault site</title></head><body>A page.</body></html>");
    } else {
      outgoing.writeHead(404, { "content-type": "text/plain" });
      outgoing.end("not found");
    }
  });
  const port = await listen(server, 0);
  return { origin: `http://127.0.0.1:${port}/`, stop: () => close(server) };
}

async function main() {
  const startedOn = machineLine();
  const failures: string[] = [];
  await ensureDatabase(DATABASE_URL);
  const stack = await startLocalStack({ databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, sqlPort: 0, redisPort: 0 });
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  await loadDemoIndexIfEmpty({ databaseUrl: stack.databaseUrl, localHttp: true, count: 3000 });
  const sqlPort = new URL(stack.databaseUrl).port;
  const sqlProxy: FaultProxy = await startFaultProxy(`http://127.0.0.1:${sqlPort}`);
  const redisProxy: FaultProxy = await startFaultProxy(stack.redisRestUrl);
  const site = await startTinySite();
  const worker = await startLocalWorker(
    PORT,
    {
      DATABASE_URL: `postgres://local:local@127.0.0.1:${sqlProxy.port}/local`,
      DATABASE_LOCAL_HTTP: "true",
      UPSTASH_REDIS_REST_URL: redisProxy.url,
      UPSTASH_REDIS_REST_TOKEN: stack.redisRestToken,
      REDIS_KEY_PREFIX: `fault-${Date.now()}`,
      RATE_LIMIT_KEY_SECRET: randomBytes(32).toString("base64url"),
      FETCH_ALLOW_PRIVATE: "true",
    },
    { stdio: process.env.FAULT_WORKER_LOG ? ["ignore", "inherit", "inherit"] : "ignore", detached: true },
  );
  const stopAll = async () => {
    await worker.stop();
    await Promise.all([sqlProxy.stop(), redisProxy.stop(), site.stop()]);
    await stack.stop();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  }

  // call name → mode → "status, ms" (the code and Retry-After are checked, and failures listed).
  const databaseCells = new Map<string, Map<FaultMode, string>>();
  const cell = (name: string, mode: FaultMode, text: string) => {
    const row = databaseCells.get(name) ?? new Map<FaultMode, string>();
    row.set(mode, text);
    databaseCells.set(name, row);
  };
  const recoveryRows: string[] = [];
  const redisRows: string[] = [];
  const modes: FaultMode[] = ["refuse", "drop", "hang"];
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/healthz`, 120_000);
    // Warm the isolate (first requests compile and connect) with a client of its own.
    for (let i = 0; i < 3; i++) await send("127.0.0.200", `/api/v1/search?q=warm${i}`);

    const probes = databaseProbes(site.origin);
    for (const [index, mode] of modes.entries()) {
      const run = index + 1;
      const client = `127.0.1.${run}`;
      log(`SQL endpoint: ${mode}`);
      await sqlProxy.setMode(mode);
      for (const probe of probes) {
        const answer = await send(client, probe.path(run), probe.init?.(run));
        const code = codeOf(answer);
        const retryAfter = String(answer.headers["retry-after"] ?? "-");
        const shown = probe.mcp ? (code === "DEPENDENCY_UNAVAILABLE" ? "tool error" : code) : String(answer.status);
        cell(probe.name, mode, `${shown}, ${answer.ms.toFixed(0)} ms`);
        const unavailable = probe.mcp
          ? answer.status === 200 && code === "DEPENDENCY_UNAVAILABLE"
          : answer.status === 503 && code === "DEPENDENCY_UNAVAILABLE" && retryAfter === "5";
        if (!unavailable) failures.push(`${mode}: ${probe.name} answered ${answer.status} ${code}`);
        if (!probe.crawls && answer.ms > ANSWER_WITHIN_MS) {
          failures.push(`${mode}: ${probe.name} took ${answer.ms.toFixed(0)} ms`);
        }
      }
      const health = await send(client, "/healthz");
      cell("GET /healthz", mode, `${health.status}, ${health.ms.toFixed(0)} ms`);

      await sqlProxy.setMode("pass");
      const recovered = await timeToOk(client, (attempt) => `/api/v1/search?q=back${run}x${attempt}`);
      recoveryRows.push(`| SQL endpoint, ${mode} | ${recovered.toFixed(0)} |`);
      if (recovered > RECOVER_WITHIN_MS) failures.push(`SQL ${mode}: recovered after ${recovered.toFixed(0)} ms`);
    }

    for (const [index, mode] of modes.entries()) {
      const client = `127.0.2.${index + 1}`;
      log(`Redis endpoint: ${mode}`);
      const before = await send(client, `/api/v1/search?q=redis${index}`);
      const remainingBefore = Number(before.headers["ratelimit-remaining"]);
      await redisProxy.setMode(mode);
      const during: Answer[] = [];
      for (let i = 0; i < 5; i++) during.push(await send(client, `/api/v1/search?q=redis${index}x${i}`));
      await redisProxy.setMode("pass");
      const started = performance.now();
      let after: Answer | undefined;
      while (performance.now() - started < 30_000) {
        after = await send(client, `/api/v1/search?q=redis${index}back`).catch(() => undefined);
        if (after?.headers["ratelimit-remaining"] !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const recovered = performance.now() - started;
      const remainingAfter = Number(after?.headers["ratelimit-remaining"]);
      const statuses = [...new Set(during.map((answer) => answer.status))].join(", ");
      const times = during.map((answer) => answer.ms);
      const withHeaders = during.filter((answer) => answer.headers["ratelimit-limit"] !== undefined).length;
      // One before, five during, one after: 240 - 7 remain when all were counted.
      redisRows.push(
        `| ${mode} | ${statuses} | ${withHeaders} of 5 | ${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)} | ${remainingBefore} → ${remainingAfter} | ${recovered.toFixed(0)} |`,
      );
      recoveryRows.push(`| Redis endpoint, ${mode} | ${recovered.toFixed(0)} |`);
      if (during.some((answer) => answer.status !== 200)) failures.push(`Redis ${mode}: a search was not served`);
      if (remainingAfter !== remainingBefore - 6)
        failures.push(`Redis ${mode}: ${remainingBefore} → ${remainingAfter}`);
      if (recovered > RECOVER_WITHIN_MS) failures.push(`Redis ${mode}: recovered after ${recovered.toFixed(0)} ms`);
    }
  } finally {
    await stopAll();
  }

  console.log(`\nStarted ${startedOn}\nEnded ${machineLine()}\n`);
  console.log(
    "SQL endpoint taken away. REST: status of the problem+json DEPENDENCY_UNAVAILABLE with Retry-After: 5; MCP: HTTP 200 with the tool error DEPENDENCY_UNAVAILABLE; and the time to answer:\n",
  );
  console.log("| call | refused (stopped) | cut mid-request | silent |\n|---|---|---|---|");
  for (const [name, row] of databaseCells) {
    console.log(`| ${name} | ${modes.map((mode) => row.get(mode) ?? "-").join(" | ")} |`);
  }
  console.log("\nRedis endpoint taken away (five searches during the outage):\n");
  console.log(
    "| Redis endpoint | status during | with RateLimit headers | ms during | remaining before → after | ms to first counted answer |\n|---|---|---|---|---|---|",
  );
  console.log(redisRows.join("\n"));
  console.log("\nRecovery (endpoint back → first 200 / first counted answer, polled every 50 ms):\n");
  console.log("| store | ms |\n|---|---|");
  console.log(recoveryRows.join("\n"));
  console.log(failures.length ? `\nFAILED:\n${failures.join("\n")}` : "\nEvery target met.");
  process.exit(failures.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
