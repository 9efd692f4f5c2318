/**
 * The demo index as `npm start` loads it (scripts/seed-demo.ts), read back through the site
 * detail: every synthetic site shows the evidence behind each of its signals and a score history,
 * some rising and some dropping, on each backend of the local stack.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { generateDemoSites } from "../../db/seed/demo-index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { loadDemoIndexIfEmpty } from "../../scripts/seed-demo.ts";
import type { JsonCache } from "../../src/adapters/cache.ts";
import { createDatabase, type Database } from "../../src/adapters/db.ts";
import { CHECK_IDS } from "../../src/domain/checklist/checklist-definition.ts";
import { getSiteDetail } from "../../src/domain/sites/get-site-detail.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";
import { MCP_ENDPOINT_ITEMS } from "../../src/domain/stats/adoption-rollup.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const variants = [
  { name: "embedded PGlite", server: false },
  ...(serverDatabase ? [{ name: "a Postgres server", server: true }] : []),
];

const DEMO_COUNT = 300;
const noCache: JsonCache = { remember: async (_key, _ttl, compute) => ({ value: await compute(), hit: false }) };

describe.each(variants)("the demo index loaded into $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;

  beforeAll(async () => {
    stack = await startLocalStack({
      databaseUrl: server && serverDatabase ? await freshServerDatabase(serverDatabase, "demo_index") : undefined,
      pgliteDataDir: "memory",
      pgliteStartFrom: inject("migratedPglite"),
      sqlPort: 0,
      redisPort: 0,
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    expect(await loadDemoIndexIfEmpty({ databaseUrl: stack.databaseUrl, localHttp: true, count: DEMO_COUNT })).toBe(
      DEMO_COUNT,
    );
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const detailOf = (domain: string) =>
    getSiteDetail({ ctx: { db, cache: noCache, origin: "https://svc.example" }, input: { domain } });

  it("shows the evidence behind every signal of every site, on the site's own URLs", async () => {
    for (const { domain } of generateDemoSites({ count: DEMO_COUNT }).slice(0, 40)) {
      const detail = await detailOf(domain);
      expect(Object.keys(detail.signal_evidence).sort()).toEqual([...SIGNAL_FIELDS].sort());
      for (const field of SIGNAL_FIELDS) {
        const evidence = detail.signal_evidence[field];
        expect(evidence?.status).toBe(detail[field] ? "present" : "absent");
        expect(evidence?.reason).toMatch(/\S.*\.$/);
        expect(evidence?.fetched.length).toBeGreaterThan(0);
        for (const fetched of evidence?.fetched ?? []) expect(fetched.url.startsWith(`https://${domain}/`)).toBe(true);
      }
    }
  });

  it("shows a score history ending in the current score at the last crawl", async () => {
    for (const { domain } of generateDemoSites({ count: DEMO_COUNT }).slice(0, 40)) {
      const detail = await detailOf(domain);
      const [latest, ...earlier] = detail.score_history;
      expect(latest).toEqual({
        agentic_score: detail.agentic_score,
        score_version: detail.score_version,
        recorded_at: detail.last_crawled_at,
      });
      for (const entry of earlier) expect(entry.recorded_at < detail.last_crawled_at).toBe(true);
    }
  });

  it("holds rising, dropping and steady histories", async () => {
    const result = await db.execute(sql`
      select trend, count(*)::int as sites from (
        select case
          when first_score < last_score then 'rising'
          when first_score > last_score then 'dropping'
          else 'steady' end as trend
        from (
          select site_id,
            (array_agg(agentic_score order by recorded_at))[1] as first_score,
            (array_agg(agentic_score order by recorded_at desc))[1] as last_score
          from site_score_history group by site_id
        ) ends
      ) trends group by trend`);
    const sites = Object.fromEntries(result.rows.map((row) => [row.trend, Number(row.sites)]));
    expect(sites.rising).toBeGreaterThan(DEMO_COUNT / 20);
    expect(sites.dropping).toBeGreaterThan(DEMO_COUNT / 20);
    expect(sites.steady).toBeGreaterThan(DEMO_COUNT / 20);
    expect(sites.rising + sites.dropping + sites.steady).toBe(DEMO_COUNT);
  });

  it("holds a year of adoption rollups ending in today's real counts, every signal rising to it", async () => {
    const days = await db.execute(sql`
      select count(distinct day)::int as days, min(day)::text as first, max(day)::text as last,
        count(*) filter (where with_item > sites)::int as over from adoption_daily`);
    const today = new Date().toISOString().slice(0, 10);
    expect(days.rows[0]).toMatchObject({ days: 365, last: today, over: 0 });
    // Today's rows are the real rollup of the seeded sites.
    const all = await db.execute(sql`
      select item, sites, with_item from adoption_daily where day = ${today}::date and category = ''`);
    const sites = await db.execute(
      sql`select count(*)::int as n, count(*) filter (where has_llms_txt)::int as llms from sites`,
    );
    const llms = all.rows.find((row) => row.item === "has_llms_txt");
    expect(Number(llms?.sites)).toBe(DEMO_COUNT);
    expect(Number(llms?.with_item)).toBe(Number(sites.rows[0]?.llms));
    // Every signal, every check (each demo site has a full checklist) and the MCP endpoint classes.
    expect(all.rows.map((row) => row.item).sort()).toEqual(
      [...SIGNAL_FIELDS, ...CHECK_IDS, ...MCP_ENDPOINT_ITEMS].sort(),
    );
    const robots = all.rows.find((row) => row.item === "robots_txt");
    expect(Number(robots?.sites)).toBe(DEMO_COUNT);
    const handshake = all.rows.find((row) => row.item === "mcp_endpoint_handshake");
    expect(Number(handshake?.sites)).toBeGreaterThan(0);
    expect(Number(handshake?.with_item)).toBeGreaterThan(0);
    // A year back: a smaller index and a lower share of each signal it has today.
    const yearAgo = await db.execute(sql`
      select item, sites, with_item from adoption_daily where day = ${today}::date - 364 and category = ''`);
    for (const row of yearAgo.rows) {
      const now = all.rows.find((current) => current.item === row.item);
      expect(Number(row.sites)).toBe(Math.floor(Number(now?.sites) * 0.4));
      if (Number(now?.with_item) > 0) {
        expect(Number(row.with_item) / Number(row.sites)).toBeLessThan(Number(now?.with_item) / Number(now?.sites));
      }
    }
  });

  it("leaves an index holding sites alone", async () => {
    expect(await loadDemoIndexIfEmpty({ databaseUrl: stack.databaseUrl, localHttp: true, count: 5 })).toBe(0);
  });
});
