/**
 * `npm start` as a user runs it: the local stack, migrations and `wrangler dev` come up and
 * /healthz answers 200 within 60 s; a client cannot choose the address it is counted as;
 * stopping the stack under the running Worker turns /healthz and a search into 503 problem+json.
 * Runs on the embedded defaults and, when TEST_DATABASE_URL / TEST_REDIS_URL name them, in front
 * of real servers.
 */
import { afterEach, describe, expect, it } from "vitest";
import { pollStatus, type RunningService, startService } from "../support/npm-start.ts";
import { freshServerDatabase } from "../support/server-database.ts";

let service: RunningService | undefined;
afterEach(() => {
  service?.stop();
  service = undefined;
});

const variants: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: "embedded defaults", env: async () => ({ PGLITE_DATA_DIR: "memory" }) },
];
if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) {
  variants.push({
    name: "real Postgres and Redis servers",
    env: async () => ({
      DATABASE_URL: await freshServerDatabase(process.env.TEST_DATABASE_URL as string, "e2e"),
      REDIS_URL: process.env.TEST_REDIS_URL as string,
    }),
  });
}

describe.each(variants)("npm start on $name", ({ env }) => {
  it("serves /healthz with 200 within 60 s, and 503 problem+json once the stack stops", async () => {
    service = await startService(await env(), 60_000);
    const healthz = `${service.origin}/healthz`;
    const up = await pollStatus(healthz, (status) => status === 200, 1_000);
    expect(await up.response.json()).toMatchObject({ status: "ok", database: { ok: true }, redis: { ok: true } });
    const output = service.output();
    expect(output).toContain("demo index: 3000 synthetic sites loaded");

    // The client is who the connection says, as on Cloudflare: a CF-Connecting-IP of the client's
    // own choosing is replaced, so every one of these searches counts against the same client.
    const remaining: number[] = [];
    for (const spoofed of ["203.0.113.1", "203.0.113.2", "2001:db8::1"]) {
      const response = await fetch(`${service.origin}/api/v1/search?q=agent`, {
        headers: { "CF-Connecting-IP": spoofed, "X-SVC-Synthetic": "true" },
      });
      expect(response.status).toBe(200);
      remaining.push(Number(response.headers.get("ratelimit-remaining")));
    }
    expect(remaining).toEqual([remaining[0], (remaining[0] ?? 0) - 1, (remaining[0] ?? 0) - 2]);

    const stackPid = Number(/local stack \(pid (\d+)\)/.exec(output)?.[1]);
    expect(stackPid).toBeGreaterThan(0);
    process.kill(stackPid, "SIGTERM");

    const down = await pollStatus(healthz, (status) => status === 503, 15_000);
    expect(down.response.headers.get("content-type")).toBe("application/problem+json");
    expect(await down.response.json()).toMatchObject({
      status: 503,
      code: "DEPENDENCY_UNAVAILABLE",
      database: { ok: false },
      redis: { ok: false },
    });

    // Every database-backed endpoint says the same, quickly, never 500.
    const started = Date.now();
    const search = await fetch(`${service.origin}/api/v1/search?q=agent`);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(search.status).toBe(503);
    expect(search.headers.get("retry-after")).toBe("5");
    expect(await search.json()).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", retry_after_seconds: 5 });
  });
});
