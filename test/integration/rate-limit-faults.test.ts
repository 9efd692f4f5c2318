/**
 * Rate limits under load and faults, on the real dependencies middleware and the local stack's
 * Redis behind a fault proxy: a burst is served exactly up to the limit while Redis answers late
 * but steadily; requests let through while Redis is unavailable are counted once it answers
 * again; Redis knows a client only by a keyed hash; and without the key's secret, limited
 * endpoints refuse rather than count nobody.
 */

import { env } from "cloudflare:workers";
import { Redis } from "@upstash/redis/cloudflare";
import { afterEach, describe, expect, it } from "vitest";
import type { FaultMode } from "../../scripts/fault-proxy.ts";
import { createApp } from "../../src/app.ts";
import { hashedIdentity, ipv6Prefix64 } from "../../src/http/client-identity.ts";
import { rateLimit } from "../../src/http/middleware/rate-limit.ts";
import { createRoutes } from "../../src/http/routes.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { startTestFaultProxy, type TestFaultProxy } from "../support/fault-proxy.ts";
import { uniqueToken } from "../support/sites.ts";
import { TEST_RATE_LIMIT_KEY_SECRET } from "../support/stack-settings.ts";
import { awayFromWindowEdge, call, expectProblem, newClientIp } from "../support/worker.ts";

const bindings = env as unknown as Record<string, string>;

let proxy: TestFaultProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

/** A one-route app limited to `limit` per minute, under a limit name no other test uses. */
function limitedApp(limit: number, overrides: Record<string, string> = {}) {
  const name = `t-${crypto.randomUUID()}`;
  const routes = createRoutes();
  routes.use("/limited", rateLimit({ name, limit, window: "1 m" }));
  routes.get("/limited", (c) => c.json({ ok: true }));
  const app = createApp([{ name: "test", routes }]);
  const request = (ip: string) =>
    app.fetch(new Request("http://svc.test/api/v1/limited", { headers: { "CF-Connecting-IP": ip } }), {
      ...bindings,
      ...overrides,
    });
  return { name, request };
}

const statusesOf = (responses: Response[]) => responses.map((response) => response.status);
const count = (statuses: number[], status: number) => statuses.filter((each) => each === status).length;

describe("a burst while Redis answers late but steadily", () => {
  it("serves exactly the limit and refuses the rest, waiting for Redis rather than guessing", async () => {
    await awayFromWindowEdge(60, 20);
    proxy = await startTestFaultProxy(bindings.UPSTASH_REDIS_REST_URL as string);
    // Every Redis call waits its turn, 40 ms each: the last of the burst is answered after
    // seconds, far past REDIS_TIMEOUT_MS, while answers keep arriving all along.
    await proxy.setMode("queue", 40);
    const { request } = limitedApp(10, { UPSTASH_REDIS_REST_URL: proxy.url, REDIS_TIMEOUT_MS: "300" });
    const ip = newClientIp();

    const responses = await Promise.all(Array.from({ length: 30 }, () => request(ip)));
    const statuses = statusesOf(responses);
    expect(count(statuses, 200)).toBe(10);
    expect(count(statuses, 429)).toBe(20);
    for (const response of responses) {
      expect(response.headers.get("ratelimit-limit")).toBe("10");
      await response.body?.cancel();
    }
  }, 30_000);
});

describe.each<FaultMode>(["refuse", "drop", "hang"])("requests let through while Redis is in mode %s", (mode) => {
  it("are allowed without RateLimit headers, then counted once Redis answers again", async () => {
    await awayFromWindowEdge(60, 20);
    proxy = await startTestFaultProxy(bindings.UPSTASH_REDIS_REST_URL as string);
    const { request } = limitedApp(6, { UPSTASH_REDIS_REST_URL: proxy.url, REDIS_TIMEOUT_MS: "300" });
    const ip = newClientIp();
    expect((await request(ip)).headers.get("ratelimit-remaining")).toBe("5");

    await proxy.setMode(mode);
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const allowed = await request(ip);
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("ratelimit-limit")).toBeNull();
      // Unavailable is decided quickly: at once when refused or cut, after 300 ms of silence.
      expect(Date.now() - started).toBeLessThan(2_000);
    }

    await proxy.setMode("pass");
    // 6 allowed: 1 before, 3 during the outage, so 2 after it.
    const after: number[] = [];
    for (let i = 0; i < 4; i++) after.push((await request(ip)).status);
    expect(after).toEqual([200, 200, 429, 429]);
  }, 30_000);
});

describe("client identity in Redis", () => {
  it("keys a client by the keyed hash of its address, never the address itself", async () => {
    await awayFromWindowEdge(60, 5);
    const { name, request } = limitedApp(5);
    const ip = newClientIp();
    expect((await request(ip)).status).toBe(200);

    const redis = new Redis({
      url: bindings.UPSTASH_REDIS_REST_URL as string,
      token: bindings.UPSTASH_REDIS_REST_TOKEN as string,
    });
    const prefix = `${bindings.REDIS_KEY_PREFIX}:ratelimit:${name}`;
    const keys = await redis.keys(`${prefix}:*`);
    const hashed = await hashedIdentity(TEST_RATE_LIMIT_KEY_SECRET, `ip6:${ipv6Prefix64(ip)}`);
    expect(keys).toEqual([`${prefix}:${hashed}:${Math.floor(Date.now() / 60_000)}`]);
    expect(hashed).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(keys[0]).not.toContain(ipv6Prefix64(ip));
    expect(keys[0]).not.toMatch(/ip[46]:/);
  });

  it("refuses limited endpoints with 503 without the key's secret, as their documents declare, and serves the rest", async () => {
    const app = createApp(createGroups());
    const { RATE_LIMIT_KEY_SECRET: _secret, ...withoutSecret } = bindings;
    // Through `call`: each refusal is held to the published OpenAPI document.
    const send = (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("CF-Connecting-IP", newClientIp());
      return call(path, { ...init, headers }, async (request) => app.fetch(request, withoutSecret));
    };
    const post = (path: string, body: unknown) =>
      send(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const refused = await send(`/api/v1/search?q=${uniqueToken()}`);
    const body = await expectProblem(refused, 503, "RATE_LIMIT_UNAVAILABLE");
    expect(JSON.stringify(body)).not.toContain("RATE_LIMIT_KEY_SECRET");
    const site = `https://${uniqueToken()}.example/`;
    for (const limited of [
      post("/api/v1/check", { url: site }),
      send(`/api/v1/verify-mcp?url=${encodeURIComponent(`${site}mcp`)}`),
      post("/api/v1/submit", { url: site }),
    ]) {
      await expectProblem(await limited, 503, "RATE_LIMIT_UNAVAILABLE");
    }
    expect((await send("/api/v1/top")).status).toBe(200);
    expect((await send("/healthz")).status).toBe(200);
  });
});
