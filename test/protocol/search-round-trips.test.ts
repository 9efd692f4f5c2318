/**
 * Round trips of one search to the SQL endpoint, counted by the local stack itself: a search with
 * words is three (its two steps, then the receipt with the disclosure of offers in one
 * transaction); filters alone with the isolate's statistics fresh skip the first step. And the
 * receipt's companion statement: it commits with the receipt in the same request and sees its
 * rows; when Postgres refuses it, the receipt is still recorded, without it.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { generateDemoSites } from "../../db/seed/demo-index.ts";
import type { ServedCall } from "../../scripts/local-stack/served-calls.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import type { JsonCache } from "../../src/adapters/cache.ts";
import { createDatabase, type Database } from "../../src/adapters/db.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { type RunSearchInput, runSearch } from "../../src/domain/search/run-search.ts";
import { recordSearchReceipt } from "../../src/domain/search-receipts/record-search-receipt.ts";
import type { Category } from "../../src/domain/sites/site-fields.ts";

describe("round trips of a search to the SQL endpoint", () => {
  let stack: LocalStack;
  let db: Database;
  let ctx: DomainContext;
  const calls: ServedCall[] = [];
  const demo = generateDemoSites({ count: 60, seed: 7 });

  /** SQL requests made while `work` ran. */
  async function sqlRequestsOf<T>(work: () => Promise<T>): Promise<{ result: T; requests: number }> {
    calls.length = 0;
    const result = await work();
    return { result, requests: calls.filter((call) => call.endpoint === "sql" && call.statements > 0).length };
  }

  const search = (input: Partial<RunSearchInput>) =>
    runSearch({ ctx, input: { filters: {}, page: 1, surface: "rest", synthetic: true, ...input } });

  beforeAll(async () => {
    stack = await startLocalStack({
      pgliteDataDir: "memory",
      sqlPort: 0,
      redisPort: 0,
      observeCalls: (call) => calls.push(call),
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    await db.insert(sites).values(demo);
    // The search and the receipt reach neither the cache nor the network.
    ctx = { db, cache: {} as JsonCache, origin: "http://127.0.0.1" };
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("is three for words: two steps, then the receipt and the disclosure together", async () => {
    const word = (demo[0]?.name ?? "").split(/\s+/)[0]?.toLowerCase() ?? "";
    const { result, requests } = await sqlRequestsOf(() => search({ q: word }));
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.receipt_recorded).toBe(true);
    expect(requests).toBe(3);
  });

  it("is two for filters alone once the statistics are known: no empty first step", async () => {
    const category = demo[0]?.category as Category | undefined;
    const { result, requests } = await sqlRequestsOf(() => search({ filters: { category } }));
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.receipt_recorded).toBe(true);
    expect(requests).toBe(2);
  });

  it("commits the companion statement with the receipt, in one request, seeing the receipt's rows", async () => {
    const { result, requests } = await sqlRequestsOf(() =>
      recordSearchReceipt({
        ctx,
        input: {
          domains: ["a.example", "b.example"],
          firstPosition: 1,
          surface: "rest",
          synthetic: true,
          topic: "other",
        },
        alongside: (searchId) =>
          sql`select count(*)::int as results from search_receipt_results where search_id = ${searchId}`,
      }),
    );
    expect(requests).toBe(1);
    expect(result).toMatchObject({ recorded: true, alongside: [{ results: 2 }] });
  });

  it("records the receipt alone when Postgres refuses the companion statement", async () => {
    const { result, requests } = await sqlRequestsOf(() =>
      recordSearchReceipt({
        ctx,
        input: { domains: ["c.example"], firstPosition: 1, surface: "rest", synthetic: true, topic: "other" },
        alongside: () => sql`select 1 / 0 as never`,
      }),
    );
    expect(requests).toBe(2);
    expect(result.recorded).toBe(true);
    if (!result.recorded) return;
    expect(result.alongside).toBeUndefined();
    const stored = await db.execute(
      sql`select count(*)::int as n from search_receipt_results where search_id = ${result.searchId}`,
    );
    expect(stored.rows[0]?.n).toBe(1);
  });
});
