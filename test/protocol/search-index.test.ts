/**
 * The search index (search_postings) over the real driver and both backends of the local stack:
 * the trigger keeps it exactly what the sites say through inserts, updates, deletes and
 * truncation, and a search returns the same page and total whichever list drives it — compared
 * with a plain reference query over the sites table for many queries and filter sets.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { generateDemoSites, seededRandom } from "../../db/seed/demo-index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, type Database, type RunSqlBatch, sqlBatchRunner } from "../../src/adapters/db.ts";
import type { DriverKind } from "../../src/domain/search/search-plan.ts";
import { runSearchQuery, SEARCH_PAGE_SIZE, SEARCH_RESULT_WINDOW } from "../../src/domain/search/search-sites.ts";
import type { TermStatistics } from "../../src/domain/search/search-statistics.ts";
import { filterCondition, type SiteFilters } from "../../src/domain/search/site-filters.ts";
import { tsQueryText } from "../../src/domain/search/text-query.ts";
import { CATEGORIES } from "../../src/domain/sites/site-fields.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const variants = [
  { name: "embedded PGlite", server: false },
  ...(serverDatabase ? [{ name: "a Postgres server", server: true }] : []),
];

/** Postings that differ between the table and a recomputation from the sites, either way. */
async function postingsDrift(db: Database): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as drift from (
      (select * from search_postings except all select p.* from sites, lateral search_postings_of(sites) p)
      union all
      (select p.* from sites, lateral search_postings_of(sites) p except all select * from search_postings)
    ) d`);
  return Number(result.rows[0]?.drift);
}

/** The page and total a search must give, from the sites table alone. */
async function referenceSearch(db: Database, q: string | undefined, filters: SiteFilters, page: number) {
  const terms = q ? tsQueryText(q) : null;
  const text = terms ? sql`and ${sites.searchVector} @@ to_tsquery('english', ${terms})` : sql``;
  const rows = await db.execute(sql`
    select ${sites.domain} as domain from ${sites} where ${filterCondition(filters)} ${text}
    order by ${sites.agenticScore} desc, ${sites.organicTiebreak}, ${sites.domain} limit ${SEARCH_RESULT_WINDOW + 1}`);
  const domains = rows.rows.map((row) => String(row.domain));
  const start = (page - 1) * SEARCH_PAGE_SIZE;
  return {
    domains: domains.slice(start, start + SEARCH_PAGE_SIZE),
    total: Math.min(domains.length, SEARCH_RESULT_WINDOW),
  };
}

/** Statistics under which the lists of one kind are the shortest, so that kind drives. */
const forcing = (kind: DriverKind): TermStatistics => {
  const prefix = { word: "w:", tag: "t:", category: "c:", signals: "p:" }[kind];
  // A wide word's range competes as a word: short when words are forced, long otherwise.
  const length = (forced: boolean) => (forced ? 1 : 1_000_000);
  return {
    listLength: (term) => length(term.startsWith(prefix)),
    rangeLength: () => length(kind === "word"),
  };
};

const random = seededRandom(7);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
// "terra" and "nova" begin so many domain labels (terraprompt, novaledger, …) that they are wide.
const WORDS = [
  "team",
  "clin",
  "agents weather",
  "deploy",
  "mcp tools",
  "terra",
  "nova labs",
  "read",
  "zzzqx",
  "the",
  "co",
];
const TAGS = ["mcp", "openapi", "search", "payment", "weather", "llms-txt", "ads"];

/** A deterministic mix of queries and filter sets, with pages past the first. */
function cases(): { q?: string; filters: SiteFilters; page: number }[] {
  const flag = () => (random() < 0.3 ? random() < 0.6 : undefined);
  return Array.from({ length: 40 }, (_, index) => {
    const filters: SiteFilters = {
      category: random() < 0.4 ? pick(CATEGORIES) : undefined,
      tag: random() < 0.35 ? pick(TAGS) : undefined,
      minScore: random() < 0.3 ? 10 * Math.floor(random() * 8) : undefined,
      hasApi: flag(),
      hasMcp: flag(),
      hasOpenapi: flag(),
      hasLlmsTxt: flag(),
    };
    const defined = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
    return {
      q: index % 4 === 3 ? undefined : pick(WORDS),
      filters: defined as SiteFilters,
      page: index % 5 === 4 ? 2 : 1,
    };
  });
}

describe.each(variants)("search index on $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;
  let run: RunSqlBatch;

  beforeAll(async () => {
    stack = await startLocalStack({
      databaseUrl: server && serverDatabase ? await freshServerDatabase(serverDatabase, "search_index") : undefined,
      pgliteDataDir: "memory",
      sqlPort: 0,
      redisPort: 0,
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    run = sqlBatchRunner(db);
    const rows = generateDemoSites({ count: 1500, seed: 99 });
    for (let start = 0; start < rows.length; start += 500)
      await db.insert(sites).values(rows.slice(start, start + 500));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("lists every site under its terms as the sites are written", async () => {
    expect(await postingsDrift(db)).toBe(0);
    const count = await db.execute(sql`select count(*)::int as n from search_postings`);
    expect(Number(count.rows[0]?.n)).toBeGreaterThan(1500 * 8);
  });

  it("runs every kind of driver to the same page and total as the reference query", async () => {
    const kinds: DriverKind[] = ["word", "tag", "category", "signals"];
    let compared = 0;
    let ranges = 0;
    for (const testCase of cases()) {
      const expected = await referenceSearch(db, testCase.q, testCase.filters, testCase.page);
      for (const kind of kinds) {
        let driver: DriverKind | undefined;
        const page = await runSearchQuery(run, testCase, {
          statistics: forcing(kind),
          observePlan: (plan) => {
            driver = plan.driver.kind;
            if (plan.driver.range) ranges += 1;
          },
        });
        const label = `${JSON.stringify(testCase)} driven by ${driver ?? "nothing"}`;
        expect(
          page.results.map((site) => site.domain),
          label,
        ).toEqual(expected.domains);
        expect(page.total, label).toBe(expected.total);
        compared += 1;
      }
    }
    expect(compared).toBe(160);
    expect(ranges).toBeGreaterThan(0);
  }, 120_000);

  it("follows updates, deletes and truncation", async () => {
    await db.execute(sql`
      update ${sites} set agentic_score = least(100, agentic_score + 5), tags = array_append(tags, 'changed')
      where ${sites.domain} in (select domain from ${sites} order by domain limit 50)`);
    await db.execute(
      sql`update ${sites} set category = 'spam' where ${sites.domain} in (select domain from ${sites} order by domain desc limit 20)`,
    );
    await db.execute(sql`update ${sites} set crawl_status = 'success', last_crawled_at = now()`);
    await db.execute(
      sql`delete from ${sites} where ${sites.domain} in (select domain from ${sites} order by domain limit 10 offset 100)`,
    );
    expect(await postingsDrift(db)).toBe(0);
    const changed = await runSearchQuery(run, { filters: { tag: "changed" }, page: 1 });
    const expected = await referenceSearch(db, undefined, { tag: "changed" }, 1);
    expect(changed.total).toBeGreaterThan(0);
    expect({ domains: changed.results.map((site) => site.domain), total: changed.total }).toEqual(expected);

    await db.execute(sql`truncate ${sites} cascade`);
    const left = await db.execute(sql`select count(*)::int as n from search_postings`);
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});
