/**
 * The top list over the real driver and both backends of the local stack: its `total` comes from
 * the counts the triggers of `site_counts` keep, and its list from the per-signal-pattern index
 * ranges (migration 0007). Both are compared with a plain query of the sites table, for every
 * filter set the top list accepts (no category or each of 14, times the 81 settings of the four
 * flags), after inserts, updates, upserts, deletes, a rolled-back batch and truncation; on the
 * Postgres server also after concurrent writers.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sites } from "../../db/schema/index.ts";
import { generateDemoSites, seededRandom } from "../../db/seed/demo-index.ts";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, type Database, type RunSqlBatch, sqlBatchRunner } from "../../src/adapters/db.ts";
import { filterCondition } from "../../src/domain/search/site-filters.ts";
import { STREAMING_PLAN_SETTINGS } from "../../src/domain/search/streaming-plan.ts";
import {
  runTopQuery,
  TOP_MAX_LIMIT,
  type TopFilters,
  topStatement,
  topTotalQuery,
} from "../../src/domain/search/top-sites.ts";
import { CATEGORIES } from "../../src/domain/sites/site-fields.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const variants = [
  { name: "embedded PGlite", server: false },
  ...(serverDatabase ? [{ name: "a Postgres server", server: true }] : []),
];

const FLAGS = ["hasApi", "hasMcp", "hasOpenapi", "hasLlmsTxt"] as const;

/** Every filter set of the top list: no category or one of each, times each flag unset, true or false. */
const ALL_FILTER_SETS: TopFilters[] = [undefined, ...CATEGORIES].flatMap((category) =>
  Array.from({ length: 3 ** FLAGS.length }, (_, setting) => {
    const filters: TopFilters = category ? { category } : {};
    FLAGS.forEach((flag, index) => {
      const value = Math.floor(setting / 3 ** index) % 3;
      if (value > 0) filters[flag] = value === 1;
    });
    return filters;
  }),
);

const chunks = <T>(items: T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, (index + 1) * size));

/** The top list's total for every filter set, by the query the service runs. */
async function topTotals(run: RunSqlBatch): Promise<number[]> {
  const [rows] = await run([
    sql`select ${sql.join(
      ALL_FILTER_SETS.map((filters, index) => sql`(${topTotalQuery(filters)}) as ${sql.identifier(`t${index}`)}`),
      sql`, `,
    )}`,
  ]);
  return ALL_FILTER_SETS.map((_, index) => Number(rows?.[0]?.[`t${index}`]));
}

/** The number of sites matching every filter set, counted in the sites table. */
async function plainCounts(run: RunSqlBatch): Promise<number[]> {
  const [rows] = await run([
    sql`select ${sql.join(
      ALL_FILTER_SETS.map(
        (filters, index) =>
          sql`count(*) filter (where ${filterCondition(filters)})::int as ${sql.identifier(`n${index}`)}`,
      ),
      sql`, `,
    )} from ${sites}`,
  ]);
  return ALL_FILTER_SETS.map((_, index) => Number(rows?.[0]?.[`n${index}`]));
}

/** Keys whose kept count differs from a count of the sites (either way). */
async function countsDrift(db: Database): Promise<unknown[]> {
  const result = await db.execute(sql`
    select coalesce(k.category, s.category) as category, coalesce(k.bits, s.bits) as bits, k.n as kept, s.n as counted
    from (select category, signal_bits as bits, sum(site_count)::int as n from site_counts group by 1, 2) k
    full join (
      select category, search_signal_bits(has_structured_api, has_mcp_server, has_openapi, has_llms_txt) as bits,
        count(*)::int as n
      from sites group by 1, 2
    ) s on s.category = k.category and s.bits = k.bits
    where k.n is distinct from s.n and coalesce(k.n, 0) + coalesce(s.n, 0) > 0`);
  return result.rows;
}

/** Every filter set's total equals a plain count of the sites. */
async function expectExactTotals(db: Database, run: RunSqlBatch): Promise<void> {
  expect(await countsDrift(db)).toEqual([]);
  const [totals, counts] = [await topTotals(run), await plainCounts(run)];
  const differing = ALL_FILTER_SETS.flatMap((filters, index) =>
    totals[index] === counts[index] ? [] : [{ filters, total: totals[index], count: counts[index] }],
  );
  expect(differing).toEqual([]);
}

/** The first `limit` domains of a filter set, by a plain query of the sites table. */
const plainTop = (filters: TopFilters, limit: number) => sql`
  select domain from ${sites} where ${filterCondition(filters)}
  order by agentic_score desc, organic_tiebreak, domain limit ${limit}`;

describe.each(variants)("top list on $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;
  let run: RunSqlBatch;
  let databaseUrl: string | undefined;
  const random = seededRandom(11);
  const pickDomains = async (count: number) =>
    (
      await db.execute(
        sql`select domain from ${sites} order by organic_tiebreak limit ${count} offset ${Math.floor(random() * 400)}`,
      )
    ).rows.map((row) => String(row.domain));

  beforeAll(async () => {
    databaseUrl = server && serverDatabase ? await freshServerDatabase(serverDatabase, "top_list") : undefined;
    stack = await startLocalStack({
      databaseUrl,
      pgliteDataDir: "memory",
      pgliteStartFrom: inject("migratedPglite"),
      sqlPort: 0,
      redisPort: 0,
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    run = sqlBatchRunner(db);
    const rows = generateDemoSites({ count: 1500, seed: 11 });
    for (let start = 0; start < rows.length; start += 500)
      await db.insert(sites).values(rows.slice(start, start + 500));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("lists every filter set's sites in organic order, with its exact total", async () => {
    await expectExactTotals(db, run);
    const lists = ALL_FILTER_SETS.map((filters) => ({ filters, limit: 1 + Math.floor(random() * TOP_MAX_LIMIT) }));
    for (const batch of chunks(lists, 50)) {
      const listed = (await run([STREAMING_PLAN_SETTINGS, ...batch.map(topStatement)])).slice(1);
      const expected = await run(batch.map(({ filters, limit }) => plainTop(filters, limit)));
      batch.forEach((input, index) => {
        const domains = (listed[index] ?? []).filter((row) => row.domain !== null).map((row) => row.domain);
        expect(domains, JSON.stringify(input)).toEqual(expected[index]?.map((row) => row.domain));
      });
    }
    // The service's own reading of a statement's rows.
    const top = await runTopQuery(run, { filters: { category: "data" }, limit: 7 });
    expect(top.results.map((site) => site.domain)).toEqual(
      (await run([plainTop({ category: "data" }, 7)]))[0]?.map((row) => row.domain),
    );
    expect(top.total).toBe((await plainCounts(run))[ALL_FILTER_SETS.findIndex((f) => f.category === "data")]);
  }, 120_000);

  it("reads each signal pattern's range of its index", async () => {
    for (const filters of [{}, { category: "health" as const, hasMcp: false }, { category: "spam" as const }]) {
      const statements = [STREAMING_PLAN_SETTINGS, sql`explain ${topStatement({ filters, limit: 50 })}`];
      const plan =
        (await run(statements))
          .at(-1)
          ?.map((row) => Object.values(row)[0])
          .join("\n") ?? "";
      const index =
        filters.category === "spam"
          ? "sites_category_score_order"
          : filters.category
            ? "sites_category_signals_order"
            : "sites_discovery_signals_order";
      expect(plan, JSON.stringify(filters)).toContain(index);
      expect(plan).toContain("site_counts");
    }
  });

  it("keeps the totals exact through updates, upserts, deletes and a rolled-back batch", async () => {
    // Categories and signals move sites between keys; scores and recrawls do not.
    await db.execute(
      sql`update ${sites} set category = 'spam' where domain in (${sql.join(await pickDomains(30), sql`, `)})`,
    );
    await db.execute(sql`update ${sites} set category = 'health', has_mcp_server = not has_mcp_server
      where domain in (${sql.join(await pickDomains(40), sql`, `)})`);
    await db.execute(sql`update ${sites} set agentic_score = least(100, agentic_score + 7)
      where domain in (${sql.join(await pickDomains(50), sql`, `)})`);
    await db.execute(sql`update ${sites} set crawl_status = 'success', last_crawled_at = now()`);
    // Two sites swap their signals in one statement: the statement's net change is zero for some keys.
    const [a, b] = await pickDomains(2);
    await db.execute(sql`
      update ${sites} s set has_openapi = o.has_openapi, has_llms_txt = o.has_llms_txt, category = o.category
      from ${sites} o where (s.domain, o.domain) in ((${a}, ${b}), (${b}, ${a}))`);
    await expectExactTotals(db, run);

    // An upsert as a crawl writes one: new sites inserted and known ones updated in one statement.
    const fresh = generateDemoSites({ count: 60, seed: 12 }).map((row, index) => ({
      ...row,
      domain: index % 2 ? `fresh-${index}.example` : row.domain,
    }));
    await db
      .insert(sites)
      .values(fresh)
      .onConflictDoUpdate({
        target: sites.domain,
        set: {
          category: sql`excluded.category`,
          hasMcpServer: sql`excluded.has_mcp_server`,
          hasStructuredApi: sql`excluded.has_structured_api`,
        },
      });
    await expectExactTotals(db, run);

    await db.execute(sql`delete from ${sites} where domain in (${sql.join(await pickDomains(25), sql`, `)})`);
    await expectExactTotals(db, run);

    const before = await topTotals(run);
    await expect(
      run([
        sql`update ${sites} set category = 'other' where domain in (${sql.join(await pickDomains(20), sql`, `)})`,
        sql`select 1 / 0`,
      ]),
    ).rejects.toThrow();
    expect(await topTotals(run)).toEqual(before);
    await expectExactTotals(db, run);
  }, 120_000);

  it.runIf(server)(
    "keeps the totals exact under concurrent writers",
    async () => {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
      const domains = await pickDomains(300);
      const newRows = generateDemoSites({ count: 80, seed: 13 }).map((row, index) => ({
        ...row,
        domain: `concurrent-${index}.example`,
      }));
      const failures: unknown[] = [];
      const writer = async (worker: number) => {
        const next = seededRandom(100 + worker);
        const mine = domains.filter((_, index) => index % 8 === worker);
        for (let step = 0; step < 40; step++) {
          const domain = mine[Math.floor(next() * mine.length)] as string;
          const category = CATEGORIES[Math.floor(next() * CATEGORIES.length)];
          const choice = next();
          try {
            if (choice < 0.5) {
              // A recrawl of one site, as the crawl consumer writes it: its own transaction.
              await pool.query(
                "update sites set category = $2, has_mcp_server = $3, has_openapi = $4, updated_at = now() where domain = $1",
                [domain, category, next() < 0.5, next() < 0.5],
              );
            } else if (choice < 0.7) {
              // Several sites in one transaction of two statements.
              const client = await pool.connect();
              try {
                await client.query("begin");
                await client.query("update sites set has_llms_txt = not has_llms_txt where domain = any($1)", [
                  mine.slice(0, 5),
                ]);
                await client.query("update sites set category = $2 where domain = $1", [domain, category]);
                await client.query("commit");
              } catch (error) {
                await client.query("rollback");
                throw error;
              } finally {
                client.release();
              }
            } else if (choice < 0.9) {
              const row = newRows[worker * 10 + Math.floor(next() * 10)];
              await pool.query(
                `insert into sites (domain, url, category, agentic_score, has_structured_api) values ($1, $2, $3, $4, $5)
               on conflict (domain) do update set category = excluded.category, has_structured_api = not sites.has_structured_api`,
                [row?.domain, row?.url, category, row?.agenticScore, next() < 0.5],
              );
            } else {
              await pool.query("delete from sites where domain = $1", [domain]);
            }
          } catch (error) {
            failures.push(error);
          }
        }
      };
      try {
        await Promise.all(Array.from({ length: 8 }, (_, worker) => writer(worker)));
      } finally {
        await pool.end();
      }
      expect(failures).toEqual([]);
      await expectExactTotals(db, run);
      // The writers spread over slots rather than all waiting on one row per key.
      const slots = await db.execute(sql`select count(distinct slot)::int as n from site_counts`);
      expect(Number(slots.rows[0]?.n)).toBeGreaterThan(1);
    },
    120_000,
  );

  it("empties the counts with the sites on truncation", async () => {
    await db.execute(sql`truncate ${sites} cascade`);
    const left = await db.execute(sql`select count(*)::int as n from site_counts`);
    expect(Number(left.rows[0]?.n)).toBe(0);
    expect((await topTotals(run)).every((total) => total === 0)).toBe(true);
    const top = await runTopQuery(run, { filters: {}, limit: 50 });
    expect(top).toEqual({ results: [], total: 0, limit: 50 });
    // And counting starts again from nothing.
    await db.insert(sites).values(generateDemoSites({ count: 40, seed: 14 }));
    await expectExactTotals(db, run);
  }, 120_000);
});
