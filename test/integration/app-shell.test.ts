import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { PROVIDER_EXCHANGE_POLICY } from "../../src/domain/descriptor/provider-exchange-policy.ts";
import { rateLimit } from "../../src/http/middleware/rate-limit.ts";
import { createRoutes } from "../../src/http/routes.ts";
import { call, newClientIp } from "../support/worker.ts";

describe("error shape and CORS", () => {
  it("answers an unknown path with a 404 problem+json carrying the request id", async () => {
    const response = await call("/api/v1/no-such-endpoint");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      type: "http://svc.test/problems/not-found",
      title: "Not found",
      status: 404,
      detail: "No resource at this path.",
      code: "NOT_FOUND",
      request_id: response.headers.get("x-request-id"),
    });
  });

  it("allows cross-origin reads and refuses cross-origin mutation preflights", async () => {
    const read = await call("/api/v1/", { headers: { Origin: "https://elsewhere.example" } });
    expect(read.headers.get("access-control-allow-origin")).toBe("*");
    expect(read.headers.get("access-control-expose-headers")).toContain("Retry-After");

    const preflight = await call("/api/v1/", {
      method: "OPTIONS",
      headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET,HEAD");

    const mutation = await call("/api/v1/", { method: "POST", headers: { Origin: "https://elsewhere.example" } });
    expect(mutation.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("GET /api/v1/ (descriptor)", () => {
  it("serves the descriptor with the published constants, exactly", async () => {
    for (const path of ["/api/v1/", "/api/v1"]) {
      const response = await call(path);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.version).toBe("1.1.0");
      expect(body.base_url).toBe("http://svc.test/api/v1");
      expect(body.openapi_spec).toBe("http://svc.test/openapi.json");
      expect(body.ai_plugin_manifest).toBe("http://svc.test/.well-known/ai-plugin.json");
      expect(body.mcp_endpoint).toBe("http://svc.test/mcp");
      expect(body.provider_exchange).toEqual(PROVIDER_EXCHANGE_POLICY);
      // The spec's 15 constants, then the 4 demand values it leaves to us (docs/demand.md).
      expect(Object.keys(body.provider_exchange as object)).toHaveLength(19);
      expect(body.provider_exchange).toMatchObject({
        provider_demand_privacy_threshold_receipts: 20,
        provider_demand_result_selection_receipt_threshold: 20,
        provider_demand_action_interest_receipt_threshold: 20,
        provider_demand_action_interest_cohort: "source_search_in_window",
        provider_demand_retention_days: 30,
      });
      expect((body.endpoints as Record<string, string>).getIndexDescriptor).toMatch(/^GET \/: /);
      for (const key of ["name", "description", "version_policy", "auth", "rate_limit"]) expect(body[key]).toBeTruthy();
    }
  });
});

describe("rate-limit middleware against the local stack", () => {
  /** A one-route app with a 3-per-minute limit, on the real dependencies middleware. */
  function limitedApp(overrides: Record<string, string> = {}) {
    const routes = createRoutes();
    routes.use("/limited", rateLimit({ name: `t-${crypto.randomUUID()}`, limit: 3, window: "1 m" }));
    routes.get("/limited", (c) => c.json({ ok: true }));
    const app = createApp([{ name: "test", routes }]);
    return (ip: string) =>
      app.fetch(new Request("http://svc.test/api/v1/limited", { headers: { "CF-Connecting-IP": ip } }), {
        ...(env as Record<string, unknown>),
        ...overrides,
      });
  }

  it("counts per client and answers the 4th request with 429 problem+json and Retry-After", async () => {
    const request = limitedApp();
    const ip = newClientIp();
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const ok = await request(ip);
      expect(ok.status).toBe(200);
      expect(ok.headers.get("ratelimit-limit")).toBe("3");
      expect(ok.headers.get("ratelimit-policy")).toBe("3;w=60");
      remaining.push(ok.headers.get("ratelimit-remaining") ?? "");
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    const refused = await request(ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 429, code: "RATE_LIMITED", retry_after_seconds: retryAfter });

    expect((await request(newClientIp())).status).toBe(200);
  });

  it("fails open, without RateLimit headers, when Redis does not answer", async () => {
    const request = limitedApp({ UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9" });
    const ip = newClientIp();
    for (let i = 0; i < 5; i++) {
      const response = await request(ip);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});
