/**
 * Seed imports against a real database (the local stack, embedded PGlite): each new site is
 * queued once at the import's rate, indexed and imported sites are skipped with why, a rerun
 * queues nothing, a registry endpoint is remembered for an indexed site, and the drain sends
 * each due lead to the crawl queue once (and again after a failed send).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import type { CrawlJob, CrawlQueue } from "../../src/adapters/crawl-queue.ts";
import { createDatabase, type Database } from "../../src/adapters/db.ts";
import { importLeads, loadMcpLeads, queueDueLeads } from "../../src/domain/crawling/crawl-leads.ts";
import type { CrawlContext } from "../../src/domain/crawling/request-crawls.ts";

let stack: LocalStack;
let db: Database;

beforeAll(async () => {
  stack = await startLocalStack({
    pgliteDataDir: "memory",
    pgliteStartFrom: inject("migratedPglite"),
    sqlPort: 0,
    redisPort: 0,
  });
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

function queueContext(sent: CrawlJob[], fail = false): CrawlContext {
  const crawlQueue: CrawlQueue = {
    async send(jobs) {
      if (fail) throw new Error("queue down");
      sent.push(...jobs);
    },
  };
  return { db, crawlQueue } as unknown as CrawlContext;
}

describe("npm run operator -- import, against a database", () => {
  it("queues each new site once at the rate, skips the rest with why, and a rerun queues nothing", async () => {
    await db.insert(sites).values({ domain: "indexed.example.com", url: "https://indexed.example.com/" });
    const lines = [
      "a.example.com",
      "https://b.example.com/page",
      "A.EXAMPLE.COM",
      "indexed.example.com",
      "not a domain",
      "c.example.com",
    ];
    const now = new Date("2031-01-01T00:00:00Z");
    const progress: string[] = [];
    const notes: string[] = [];
    const first = await importLeads({
      db,
      text: lines.join("\n"),
      now,
      perMinute: 2,
      batchSize: 4,
      onProgress: (p) => progress.push(`${p.done}/${p.total} ${p.queued} ${p.skipped} ${p.invalid}`),
      onNote: (note) => notes.push(`${note.kind} ${note.at}: ${note.reason}`),
    });
    expect(first).toMatchObject({
      source: "list",
      total: 6,
      done: 6,
      queued: 3,
      skipped: 2,
      invalid: 1,
      skippedBy: { "named earlier in the file": 1, "already indexed": 1 },
      firstCrawlAfter: "2031-01-01T00:00:00.000Z",
      lastCrawlAfter: "2031-01-01T00:01:00.000Z",
    });
    // A progress line after each batch of 4 lines.
    expect(progress).toEqual(["4/6 2 2 0", "6/6 3 2 1"]);
    expect(notes).toEqual([
      "skip line 3: named earlier in the file",
      "skip line 4: already indexed",
      "invalid line 5: more than one word on the line",
    ]);
    const leads = await db.execute(
      sql`select domain, origin, crawl_after::text as after from crawl_leads order by crawl_after, domain`,
    );
    expect(leads.rows.map((row) => [row.domain, row.origin])).toEqual([
      ["a.example.com", "https://a.example.com"],
      ["b.example.com", "https://b.example.com"],
      ["c.example.com", "https://c.example.com"],
    ]);
    // Two a minute: 30 s apart.
    expect(leads.rows.map((row) => new Date(String(row.after)).toISOString())).toEqual([
      "2031-01-01T00:00:00.000Z",
      "2031-01-01T00:00:30.000Z",
      "2031-01-01T00:01:00.000Z",
    ]);

    const again = await importLeads({ db, text: lines.join("\n"), now, perMinute: 2 });
    expect(again).toMatchObject({
      queued: 0,
      skipped: 5,
      invalid: 1,
      skippedBy: { "already imported": 3, "already indexed": 1, "named earlier in the file": 1 },
      firstCrawlAfter: null,
    });
    expect(Number((await db.execute(sql`select count(*)::int as n from crawl_leads`)).rows[0]?.n)).toBe(3);

    // A later import's crawls wait behind the ones still waiting.
    const later = await importLeads({ db, text: "d.example.com", now, perMinute: 2 });
    expect(later.firstCrawlAfter).toBe("2031-01-01T00:01:00.000Z");
  });

  it("keeps a registry endpoint as the MCP lead of its site, indexed or not, and never queues an indexed one", async () => {
    await db.insert(sites).values({ domain: "mcp.indexed.example.com", url: "https://mcp.indexed.example.com/" });
    const list = {
      servers: [
        {
          server: {
            name: "io.example/a",
            remotes: [{ type: "streamable-http", url: "https://mcp.new.example.com/v1/mcp" }],
          },
        },
        {
          server: {
            name: "io.example/b",
            remotes: [{ type: "streamable-http", url: "https://mcp.indexed.example.com/rpc" }],
          },
        },
      ],
    };
    const summary = await importLeads({ db, text: JSON.stringify(list), now: new Date("2031-02-01T00:00:00Z") });
    expect(summary).toMatchObject({
      source: "mcp-registry",
      queued: 1,
      skipped: 1,
      skippedBy: { "already indexed": 1 },
    });
    const leads = await loadMcpLeads(db, ["mcp.new.example.com", "mcp.indexed.example.com", "a.example.com"]);
    expect(Object.fromEntries(leads)).toEqual({
      "mcp.new.example.com": ["https://mcp.new.example.com/v1/mcp"],
      "mcp.indexed.example.com": ["https://mcp.indexed.example.com/rpc"],
    });
    const indexed = await db.execute(
      sql`select crawl_after, source from crawl_leads where domain = 'mcp.indexed.example.com'`,
    );
    expect(indexed.rows).toEqual([{ crawl_after: null, source: "mcp-registry" }]);
  });

  it("sends each due lead to the crawl queue once, and releases them when the send fails", async () => {
    // Leads of other tests wait until 2031, and a new import waits behind them: start afresh.
    await db.execute(sql`delete from crawl_leads`);
    await importLeads({ db, text: "due1.example.com\ndue2.example.com", now: new Date("2020-01-01T00:00:00Z") });
    await importLeads({ db, text: "later.example.com", now: new Date("2031-01-01T00:00:00Z") });
    const failed: CrawlJob[] = [];
    await expect(queueDueLeads({ ctx: queueContext(failed, true), input: { limit: 100 } })).rejects.toThrow();
    const sent: CrawlJob[] = [];
    const run = await queueDueLeads({ ctx: queueContext(sent), input: { limit: 100 } });
    // Only leads whose time has come (the 2020 ones), not the one of 2031.
    expect(sent.map((job) => [job.domain, job.url, job.reason]).sort()).toEqual([
      ["due1.example.com", "https://due1.example.com", "import"],
      ["due2.example.com", "https://due2.example.com", "import"],
    ]);
    expect(run).toEqual({ due: 2, queued: 2 });
    const rerun: CrawlJob[] = [];
    expect(await queueDueLeads({ ctx: queueContext(rerun), input: { limit: 100 } })).toEqual({ due: 0, queued: 0 });
    expect(rerun).toEqual([]);
  });
});
