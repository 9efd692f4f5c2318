import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app.ts";
import { createGroups } from "../../src/routes/groups.ts";
import { call } from "../support/worker.ts";

describe("GET /healthz", () => {
  it("answers 200 with both stores reachable", async () => {
    const response = await call("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, { ok: boolean }>;
    expect(body.status).toBe("ok");
    expect(body.database?.ok).toBe(true);
    expect(body.redis?.ok).toBe(true);
  });

  it("echoes a well-formed incoming request id and makes one otherwise", async () => {
    const echoed = await call("/healthz", { headers: { "X-Request-Id": "trace-123_abc" } });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123_abc");
    const made = await call("/healthz", { headers: { "X-Request-Id": "bad id with spaces\u0001" } });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  const appWith = (overrides: Record<string, string>) => {
    const app = createApp(createGroups());
    return (path: string) =>
      app.fetch(new Request(`http://svc.test${path}`), { ...(env as Record<string, unknown>), ...overrides });
  };

  it("turns into 503 problem+json naming the database when it does not answer", async () => {
    const response = await appWith({ DATABASE_URL: "postgres://local:local@127.0.0.1:9/none" })("/healthz");
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 503,
      code: "DEPENDENCY_UNAVAILABLE",
      title: "Service unavailable",
      database: { ok: false },
      redis: { ok: true },
    });
    expect(body.request_id).toBe(response.headers.get("x-request-id"));
    expect(body.detail).toBe("Not reachable: database.");
  });

  it("turns into 503 naming Redis when Redis does not answer", async () => {
    const response = await appWith({ UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9" })("/healthz");
    expect(response.status).toBe(503);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", database: { ok: true }, redis: { ok: false } });
  });

  it("answers 500 without internals when a setting is invalid", async () => {
    const response = await appWith({ UPSTASH_REDIS_REST_URL: "not a url" })("/healthz");
    expect(response.status).toBe(500);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.code).toBe("SERVICE_MISCONFIGURED");
    expect(JSON.stringify(body)).not.toContain("UPSTASH");
  });
});
