/**
 * The database going away under a running Worker: with the SQL endpoint refusing connections, or
 * cutting them mid-request, every database-backed endpoint and MCP tool answers 503
 * DEPENDENCY_UNAVAILABLE with Retry-After (a tool error with the same code), never 500, and
 * serves again by itself as soon as the endpoint is back. The Worker reaches the stack's SQL
 * endpoint through a fault proxy each test switches.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { FaultMode } from "../../scripts/fault-proxy.ts";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { startTestFaultProxy, type TestFaultProxy } from "../support/fault-proxy.ts";
import { fixture } from "../support/fixture-web.ts";
import { uniqueToken } from "../support/sites.ts";
import { call, newClientIp, type ProblemBody } from "../support/worker.ts";

const bindings = env as unknown as Record<string, string>;
const sqlEndpoint = () => {
  const url = new URL(bindings.DATABASE_URL as string);
  return `http://${url.host}`;
};

let proxy: TestFaultProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

/**
 * The all-in-one Worker on the database behind `through`, with caches of its own (all empty).
 * Its answers are held to the published OpenAPI document, as every integration test's are: a
 * 503 an operation does not declare fails.
 */
function workerThrough(through: TestFaultProxy) {
  const app = createApp(createGroups());
  const workerBindings = {
    ...bindings,
    DATABASE_URL: `postgres://local:local@127.0.0.1:${through.port}/local`,
    REDIS_KEY_PREFIX: `${bindings.REDIS_KEY_PREFIX}-${uniqueToken()}`,
  };
  const ip = newClientIp();
  return async (path: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    headers.set("CF-Connecting-IP", ip);
    return call(path, { ...init, headers }, async (request) => app.fetch(request, workerBindings));
  };
}

type Worker = ReturnType<typeof workerThrough>;

const json = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

const REST_CALLS: { name: string; call: (worker: Worker) => Promise<Response> }[] = [
  { name: "GET /search", call: (worker) => worker(`/api/v1/search?q=${uniqueToken()}`) },
  { name: "GET /top", call: (worker) => worker("/api/v1/top?has_mcp=true") },
  { name: "GET /site/{domain}", call: (worker) => worker(`/api/v1/site/${uniqueToken()}.example`) },
  { name: "GET /categories", call: (worker) => worker("/api/v1/categories") },
  { name: "GET /stats", call: (worker) => worker("/api/v1/stats") },
  { name: "POST /submit", call: (worker) => worker("/api/v1/submit", json({ url: fixture("all-six-signals") })) },
  {
    name: "POST /action-interests",
    call: (worker) =>
      worker(
        "/api/v1/action-interests",
        json({
          search_id: "AAAAAAAAAAAAAAAAAAAAAA",
          domain: `${uniqueToken()}.example`,
          action_type: "quote",
          caller_attests_principal_interest: true,
          confirmation_version: "svc-action-interest-v1",
        }),
      ),
  },
  { name: "GET /stats/adoption", call: (worker) => worker("/api/v1/stats/adoption") },
  { name: "GET /stats/adoption.csv", call: (worker) => worker("/api/v1/stats/adoption.csv") },
  {
    name: "POST /monitor/confirm",
    call: (worker) => worker("/api/v1/monitor/confirm", json({ token: uniqueToken() })),
  },
  {
    name: "POST /monitor/unsubscribe",
    call: (worker) => worker("/api/v1/monitor/unsubscribe", json({ token: uniqueToken() })),
  },
  { name: "POST /check", call: (worker) => worker("/api/v1/check", json({ url: fixture("all-six-signals") })) },
];

const TOOL_CALLS: { name: string; args: Record<string, unknown> }[] = [
  { name: "search_sites", args: { q: "zqfaults" } },
  { name: "get_top_sites", args: { has_openapi: true } },
  { name: "get_site", args: { domain: "faults.example" } },
  { name: "list_categories", args: {} },
  { name: "get_stats", args: {} },
  { name: "submit_site", args: { url: fixture("all-six-signals") } },
  {
    name: "record_action_interest",
    args: {
      search_id: "AAAAAAAAAAAAAAAAAAAAAA",
      domain: "faults.example",
      action_type: "quote",
      caller_attests_principal_interest: true,
      confirmation_version: "svc-action-interest-v1",
    },
  },
];

// Listed apart: its crawl comes first, so it takes as long as the crawl does.
const CHECK_TOOL = { name: "check_site", args: { url: fixture("all-six-signals") } };

async function callTool(worker: Worker, name: string, args: Record<string, unknown>) {
  const response = await worker("/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  expect(response.status).toBe(200);
  const reply = (await response.json()) as { result: { isError?: boolean; content: { text: string }[] } };
  return reply.result;
}

/** Asserts the 503 a lost database answers, and that it came quickly. */
async function expectUnavailable(name: string, answer: () => Promise<Response>, withinMs = 2_000) {
  const started = Date.now();
  const response = await answer();
  const elapsed = Date.now() - started;
  expect(response.status, `${name}: ${await response.clone().text()}`).toBe(503);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("retry-after")).toBe("5");
  const body = (await response.json()) as ProblemBody;
  expect(body).toMatchObject({ status: 503, code: "DEPENDENCY_UNAVAILABLE", retry_after_seconds: 5 });
  expect(body.detail).not.toMatch(/connect|fetch|127\.0\.0\.1|sql/i);
  expect(elapsed, `${name} answered after ${elapsed} ms`).toBeLessThan(withinMs);
}

describe.each<FaultMode>(["refuse", "drop"])("with the SQL endpoint in mode %s", (mode) => {
  it("answers 503 DEPENDENCY_UNAVAILABLE with Retry-After on every database-backed endpoint", async () => {
    proxy = await startTestFaultProxy(sqlEndpoint());
    const worker = workerThrough(proxy);
    await proxy.setMode(mode);
    for (const { name, call: answer } of REST_CALLS) {
      // A check crawls first (its own work), then compares with the index.
      await expectUnavailable(name, () => answer(worker), name === "POST /check" ? 20_000 : 2_000);
    }
  }, 60_000);

  it("answers every database-backed MCP tool with the DEPENDENCY_UNAVAILABLE tool error", async () => {
    proxy = await startTestFaultProxy(sqlEndpoint());
    const worker = workerThrough(proxy);
    await proxy.setMode(mode);
    for (const { name, args } of [...TOOL_CALLS, CHECK_TOOL]) {
      const result = await callTool(worker, name, args);
      expect(result.isError, name).toBe(true);
      expect(JSON.parse(result.content[0]?.text ?? "{}"), name).toEqual({
        code: "DEPENDENCY_UNAVAILABLE",
        message: expect.stringContaining("cannot be reached"),
        retry_after_seconds: 5,
      });
    }
  }, 60_000);
});

// The pages for people that read the index: a lost or silent database is a 503 page with
// Retry-After there too, never the 500 "failed to show this page".
const PAGE_PATHS = ["/search?q=zqpages", "/sites/zqpages.example", "/state"];

describe.each<FaultMode>(["refuse", "drop", "hang"])("the pages with the SQL endpoint in mode %s", (mode) => {
  it("answer a 503 page with Retry-After, never 500", async () => {
    proxy = await startTestFaultProxy(sqlEndpoint());
    const app = createApp(createGroups());
    const pageBindings = {
      ...bindings,
      DATABASE_URL: `postgres://local:local@127.0.0.1:${proxy.port}/local`,
      REDIS_KEY_PREFIX: `${bindings.REDIS_KEY_PREFIX}-${uniqueToken()}`,
      // A silent store is given up on after this long, as a slow machine's stalled one would be.
      DATABASE_TIMEOUT_MS: "300",
    };
    await proxy.setMode(mode);
    // The home page itself reads nothing from the index: it is served whatever the database does.
    const home = await app.fetch(new Request("http://svc.test/", { headers: { Accept: "text/html" } }), pageBindings);
    expect(home.status).toBe(200);
    for (const path of PAGE_PATHS) {
      const headers = { Accept: "text/html", "CF-Connecting-IP": newClientIp() };
      const response = await app.fetch(new Request(`http://svc.test${path}`, { headers }), pageBindings);
      const html = await response.text();
      expect(response.status, `${path}: ${html.slice(0, 300)}`).toBe(503);
      expect(response.headers.get("retry-after"), path).toBe("5");
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(html, path).toContain("Temporarily unavailable");
      expect(html, path).not.toMatch(/127\.0\.0\.1|sql|fetch failed/i);
    }
  }, 60_000);
});

describe("a database that comes back", () => {
  it("serves again on the first request after the SQL endpoint returns", async () => {
    proxy = await startTestFaultProxy(sqlEndpoint());
    const worker = workerThrough(proxy);
    expect((await worker(`/api/v1/search?q=${uniqueToken()}`)).status).toBe(200);
    await proxy.setMode("refuse");
    await expectUnavailable("GET /search", () => worker(`/api/v1/search?q=${uniqueToken()}`));
    await proxy.setMode("pass");
    const back = await worker(`/api/v1/search?q=${uniqueToken()}`);
    expect(back.status).toBe(200);
  });

  it("answers 503 once the SQL endpoint has been silent for DATABASE_TIMEOUT_MS", async () => {
    proxy = await startTestFaultProxy(sqlEndpoint());
    const app = createApp(createGroups());
    const silentBindings = {
      ...bindings,
      DATABASE_URL: `postgres://local:local@127.0.0.1:${proxy.port}/local`,
      REDIS_KEY_PREFIX: `${bindings.REDIS_KEY_PREFIX}-${uniqueToken()}`,
      DATABASE_TIMEOUT_MS: "400",
    };
    await proxy.setMode("hang");
    const response = await app.fetch(new Request("http://svc.test/api/v1/categories"), silentBindings);

    expect(response.status).toBe(503);
    expect(((await response.json()) as ProblemBody).code).toBe("DEPENDENCY_UNAVAILABLE");
  });
});
