/**
 * Reads from the edge, in workerd's own Cache API (Miniflare implements `caches.default`): a
 * repeated cacheable read makes no SQL and no Redis request at all, counted by fault proxies in
 * front of both stores, and is still answered with both stores gone. What writes, or is private,
 * always reaches its route.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { startTestFaultProxy, type TestFaultProxy } from "../support/fault-proxy.ts";
import { insertSites, uniqueToken } from "../support/sites.ts";

const bindings = env as unknown as Record<string, string>;
const originOf = (url: string) => `http://${new URL(url).host}`;

let proxies: TestFaultProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.map((proxy) => proxy.stop()));
  proxies = [];
});

/** The all-in-one Worker with both stores behind counting proxies, and an edge namespace of its own. */
async function workerBehindProxies() {
  const sql = await startTestFaultProxy(originOf(bindings.DATABASE_URL as string));
  const redis = await startTestFaultProxy(originOf(bindings.UPSTASH_REDIS_REST_URL as string));
  proxies.push(sql, redis);
  const app = createApp(createGroups());
  const workerBindings = {
    ...bindings,
    DATABASE_URL: `postgres://local:local@127.0.0.1:${sql.port}/local`,
    UPSTASH_REDIS_REST_URL: redis.url,
    REDIS_KEY_PREFIX: `edge-${uniqueToken()}`.slice(0, 40).toLowerCase(),
  };
  const get = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(`http://svc.test${path}`, init), workerBindings);
  const storeRequests = async () => (await sql.requests()) + (await redis.requests());
  return { get, sql, redis, storeRequests, workerBindings, app };
}

describe("a repeated cacheable read", () => {
  it.each([
    ["GET /top", () => "/api/v1/top?has_mcp=true&limit=7"],
    ["GET /categories", () => "/api/v1/categories"],
    ["GET /stats", () => "/api/v1/stats"],
  ])("%s: the second makes no store request and says so", async (_name, path) => {
    const { get, storeRequests } = await workerBehindProxies();
    const first = await get(path());
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const afterFirst = await storeRequests();
    expect(afterFirst).toBeGreaterThan(0);

    const second = await get(path());
    expect(second.status).toBe(200);
    expect(await second.text()).toBe(firstBody);
    expect(await storeRequests()).toBe(afterFirst);
    expect(second.headers.get("Cache-Control")).toBe(first.headers.get("Cache-Control"));
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    if (first.headers.has("X-Cache")) expect(second.headers.get("X-Cache")).toBe("HIT");
  });

  it("of a site's detail and its badge is answered with both stores gone", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `edge-${t}.test`, name: t, agenticScore: 42 }]);
    const { get, sql, redis, storeRequests } = await workerBehindProxies();
    const paths = [`/api/v1/site/edge-${t}.test`, `/badge/edge-${t}.test.svg`];
    const firsts = await Promise.all(paths.map(async (path) => (await get(path)).text()));
    const before = await storeRequests();
    await sql.setMode("refuse");
    await redis.setMode("refuse");
    for (const [i, path] of paths.entries()) {
      const again = await get(path);
      expect(again.status, path).toBe(200);
      expect(await again.text()).toBe(firsts[i]);
    }
    const head = await get(paths[0] as string, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    await sql.setMode("pass");
    await redis.setMode("pass");
    expect(await storeRequests()).toBe(before);
  });
});

describe("what is never served from the edge", () => {
  it("a site view with a search_id reaches the store every time (it records a selection)", async () => {
    const t = uniqueToken();
    await insertSites([{ domain: `sel-${t}.test`, name: `sel${t}` }]);
    const { get, storeRequests } = await workerBehindProxies();
    const search = (await (
      await get(`/api/v1/search?q=sel${t}`, { headers: { "CF-Connecting-IP": "192.0.2.7" } })
    ).json()) as {
      search_id: string;
    };
    const path = `/api/v1/site/sel-${t}.test?search_id=${encodeURIComponent(search.search_id)}`;
    expect((await get(path)).status).toBe(200);
    const before = await storeRequests();
    const again = await get(path);
    expect(again.status).toBe(200);
    expect(again.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await storeRequests()).toBeGreaterThan(before);
  });

  it("a read asked with credentials, and an unknown site (404), reach the route each time", async () => {
    const { get, storeRequests } = await workerBehindProxies();
    const unknown = `/api/v1/site/unknown-${uniqueToken()}.test`;
    expect((await get(unknown)).status).toBe(404);
    const afterUnknown = await storeRequests();
    expect((await get(unknown)).status).toBe(404);
    expect(await storeRequests()).toBeGreaterThan(afterUnknown);

    const path = "/api/v1/categories";
    expect((await get(path)).status).toBe(200);
    const before = await storeRequests();
    await get(path, { headers: { Cookie: "svc_session=x" } });
    expect(await storeRequests()).toBeGreaterThan(before);
  });

  it("another deployment's namespace (REDIS_KEY_PREFIX) misses what this one stored", async () => {
    const one = await workerBehindProxies();
    const two = await workerBehindProxies();
    expect((await one.get("/api/v1/stats")).status).toBe(200);
    const before = await two.storeRequests();
    expect((await two.get("/api/v1/stats")).status).toBe(200);
    expect(await two.storeRequests()).toBeGreaterThan(before);
  });
});
