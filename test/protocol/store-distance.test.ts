/**
 * A distant store, locally (LOCAL_STORE_RTT_MS): every SQL and Redis request the local stack
 * answers waits the round trip first, and each is counted at `GET /_local/requests` on both
 * endpoints; health checks are neither delayed nor counted.
 */
import { performance } from "node:perf_hooks";
import { Redis } from "@upstash/redis";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeRttFromEnv } from "../../scripts/local-stack/store-distance.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { createDatabase } from "../../src/adapters/db.ts";

describe("the local stack's store round trip", () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await startLocalStack({ pgliteDataDir: "memory", sqlPort: 0, redisPort: 0, storeRttMs: 300 });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const timed = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const counts = async (base: string) =>
    (await (await fetch(`${base}/_local/requests`)).json()) as { sql: number; redis: number; rtt_ms: number };
  const sqlBase = () => `http://${new URL(stack.databaseUrl).host}`;

  it("delays every SQL and Redis request by it, and counts each on both endpoints", async () => {
    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    const redis = new Redis({ url: stack.redisRestUrl, token: stack.redisRestToken });
    const before = stack.storeRequests();
    expect(await timed(() => db.execute(sql`select 1`))).toBeGreaterThanOrEqual(295);
    expect(await timed(() => redis.set("distance", "1"))).toBeGreaterThanOrEqual(295);
    // Two requests at once overlap: together they take one round trip, not two.
    expect(await timed(() => Promise.all([db.execute(sql`select 2`), redis.get("distance")]))).toBeLessThan(590);
    expect(stack.storeRequests()).toEqual({ sql: before.sql + 2, redis: before.redis + 2 });
    for (const base of [sqlBase(), stack.redisRestUrl]) {
      expect(await counts(base)).toEqual({ sql: before.sql + 2, redis: before.redis + 2, rtt_ms: 300 });
    }
  });

  it("leaves health checks alone, and can be changed while running", async () => {
    const before = stack.storeRequests();
    expect(await timed(() => fetch(`${sqlBase()}/`))).toBeLessThan(295);
    expect(await timed(() => fetch(`${stack.redisRestUrl}/healthz`))).toBeLessThan(295);
    expect(stack.storeRequests()).toEqual(before);
    stack.setStoreRtt(0);
    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    expect(await timed(() => db.execute(sql`select 1`))).toBeLessThan(295);
    expect((await counts(sqlBase())).rtt_ms).toBe(0);
  });

  it.each([
    [undefined, 0],
    ["", 0],
    ["80", 80],
    ["12.5", 12.5],
  ])("reads LOCAL_STORE_RTT_MS=%s as %s ms", (value, expected) => {
    expect(storeRttFromEnv(value)).toBe(expected);
  });

  it.each(["-1", "eighty", "Infinity"])("refuses LOCAL_STORE_RTT_MS=%s", (value) => {
    expect(() => storeRttFromEnv(value)).toThrow(/LOCAL_STORE_RTT_MS/);
  });
});
