/**
 * Round trips of one search to the stores, counted by the local stack itself: a search with words
 * is two SQL requests (its first step; then its second, which writes the receipt from the page and
 * discloses the offers in the same transaction), and its admission (the rate limit) runs beside
 * the first; filters alone with the isolate's statistics fresh skip the first step. A refused
 * admission writes nothing; a page record Postgres refuses costs the search nothing. And the
 * receipt's companion statement: it commits with the receipt in the same request and sees its
 * rows; when Postgres refuses it, the receipt is still recorded, without it.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { generateDemoSites } from "../../db/seed/demo-index.ts";
import type { ServedCall } from "../../scripts/local-stack/served-calls.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import type { JsonCache } from "../../src/adapters/cache.ts";
import { createDatabase, type Database, sqlBatchRunner } from "../../src/adapters/db.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { type RunSearchInput, runSearch } from "../../src/domain/search/run-search.ts";
import { runSearchQuery } from "../../src/domain/search/search-sites.ts";
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

  const admitted = async () => {};
  const search = (input: Partial<RunSearchInput>, admit: () => Promise<unknown> = admitted) =>
    runSearch({ ctx, input: { filters: {}, page: 1, surface: "rest", synthetic: true, ...input }, admit });
  const receiptCount = async () =>
    Number((await db.execute(sql`select count(*)::int as n from search_receipts`)).rows[0]?.n);
  const firstWord = () => (demo[0]?.name ?? "").split(/\s+/)[0]?.toLowerCase() ?? "";

  beforeAll(async () => {
    stack = await startLocalStack({
      pgliteDataDir: "memory",
      pgliteStartFrom: inject("migratedPglite"),
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

  it("is two for words: the first step, then the second with the receipt and the disclosure", async () => {
    const { result, requests } = await sqlRequestsOf(() => search({ q: firstWord() }));
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.receipt_recorded).toBe(true);
    expect(requests).toBe(2);
    const stored = await db.execute(
      sql`select result_domains, first_position from search_receipts where search_id = ${result.search_id}`,
    );
    expect(stored.rows[0]).toEqual({ result_domains: result.results.map((site) => site.domain), first_position: 1 });
  });

  it("records a later page and an exact domain's page in the order they were answered", async () => {
    const named = demo[1]?.domain ?? "";
    for (const input of [{ q: named }, { q: firstWord(), page: 2 }, { filters: { minScore: 101 } }]) {
      const result = await search(input);
      expect(result.receipt_recorded).toBe(true);
      const stored = await db.execute(
        sql`select result_domains, first_position from search_receipts where search_id = ${result.search_id}`,
      );
      expect(stored.rows[0]).toEqual({
        result_domains: result.results.map((site) => site.domain),
        first_position: (result.page - 1) * result.per_page + 1,
      });
    }
    expect((await search({ q: named })).results[0]?.domain).toBe(named);
  });

  it("is one for filters alone once the statistics are known: no empty first step", async () => {
    const category = demo[0]?.category as Category | undefined;
    await search({ filters: { category } });
    const { result, requests } = await sqlRequestsOf(() => search({ filters: { category } }));
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.receipt_recorded).toBe(true);
    expect(requests).toBe(1);
  });

  it("runs the admission beside the first step, and writes nothing when it refuses", async () => {
    // This admission passes only once the first step's request has reached the stack: awaited
    // before the first step, it would wait for ever (the test's timeout fails it).
    const besideFirstStep = async () => {
      while (!calls.some((call) => call.endpoint === "sql" && call.statements > 0)) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    const { result } = await sqlRequestsOf(() => search({ q: firstWord() }, besideFirstStep));
    expect(result.receipt_recorded).toBe(true);

    const before = await receiptCount();
    const refusal = new Error("over the limit");
    const refused = await sqlRequestsOf(() =>
      search({ q: firstWord() }, () => Promise.reject(refusal)).catch((error: unknown) => error),
    );
    expect(refused.result).toBe(refusal);
    // The first step's read went; nothing after it.
    expect(refused.requests).toBe(1);
    expect(await receiptCount()).toBe(before);
  }, 10_000);

  it("answers the search when Postgres refuses its page record, and says nothing was recorded with it", async () => {
    const run = sqlBatchRunner(db);
    const input = { q: firstWord(), filters: {}, page: 1 };
    const plain = await runSearchQuery(run, input);
    const { result, requests } = await sqlRequestsOf(() =>
      runSearchQuery(run, input, { record: { write: () => sql`select 1 / 0 as never`, after: [] } }),
    );
    expect(result.results).toEqual(plain.results);
    expect(result.recorded).toBeUndefined();
    expect(requests).toBe(3);
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
