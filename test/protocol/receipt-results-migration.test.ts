/**
 * Migration 0034 over receipts already written: each search's result rows move into its receipt
 * row (result_domains, first_position), and everything that read or hung on them still holds — the
 * results as rows (now a view), the selections and interests with their cascade, the check that a
 * selection names a returned domain, and the daily demand figures. On the embedded database, and
 * on a Postgres server when TEST_DATABASE_URL names one.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createDatabase, type Database } from "../../src/adapters/db.ts";
import { freshServerDatabase } from "../support/server-database.ts";

const serverDatabase = process.env.TEST_DATABASE_URL || undefined;
const variants = [
  { name: "the embedded database", server: false },
  ...(serverDatabase ? [{ name: "a Postgres server", server: true }] : []),
];

/** The journal's migrations before 0034_compact_receipt_results. */
const MIGRATIONS_BEFORE_COMPACT_RESULTS = 34;

describe.each(variants)("migration 0034 over receipts already written, on $name", ({ server }) => {
  let stack: LocalStack;
  let db: Database;
  const rows = async (query: ReturnType<typeof sql>) => (await db.execute(query)).rows;
  /** The database's refusal of a statement (drizzle wraps it as the cause of its own error). */
  const refusal = async (query: ReturnType<typeof sql>) => {
    try {
      await db.execute(query);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return { code: cause?.code, message: cause?.message ?? String(error) };
    }
    throw new Error("the statement was not refused");
  };
  const before: Record<string, unknown[]> = {};

  const resultRows = () =>
    rows(sql`select search_id, domain, position, surface, topic, synthetic, created_at::text, expires_at::text
               from search_receipt_results order by search_id, position`);
  const demandRows = () =>
    rows(sql`select domain, day::text, surface, topic, results, position_sum::int, selections
               from demand_daily order by domain, day, surface, topic`);
  const interestRows = () =>
    rows(sql`select domain, day::text, surface, topic, action_type, interests
               from demand_daily_interests order by domain, day, surface, topic, action_type`);

  beforeAll(async () => {
    stack = await startLocalStack({
      databaseUrl:
        server && serverDatabase ? await freshServerDatabase(serverDatabase, "receipt_migration") : undefined,
      pgliteDataDir: "memory",
      sqlPort: 0,
      redisPort: 0,
    });
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true, upTo: MIGRATIONS_BEFORE_COMPACT_RESULTS });
    db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    // As the service wrote them before: a receipt, then one row per result (the daily demand
    // rows kept by the triggers of that schema), then selections and interests.
    await db.execute(sql`
      with made(search_id, surface, topic, synthetic, result_count, age) as (
        values ('m-first-page', 'rest', 'payments', false, 3, interval '1 hour'),
               ('m-second-page', 'web', 'other', false, 2, interval '2 days'),
               ('m-nothing', 'mcp', 'other', false, 0, interval '1 hour'),
               ('m-synthetic', 'rest', 'other', true, 1, interval '1 hour'),
               ('m-expired', 'rest', 'jobs', false, 1, interval '31 days')
      )
      insert into search_receipts (search_id, surface, synthetic, topic, result_count, created_at, expires_at)
      select search_id, surface, synthetic, topic, result_count, now() - age, now() - age + interval '30 days' from made`);
    await db.execute(sql`
      insert into search_receipt_results (search_id, domain, position, surface, topic, synthetic, created_at, expires_at)
      select r.search_id, x.domain, x.position, r.surface, r.topic, r.synthetic, r.created_at, r.expires_at
        from search_receipts r
        join (values ('m-first-page', 'a.example', 1), ('m-first-page', 'b.example', 2), ('m-first-page', 'c.example', 3),
                     ('m-second-page', 'b.example', 21), ('m-second-page', 'd.example', 22),
                     ('m-synthetic', 'a.example', 1), ('m-expired', 'e.example', 1)) as x(search_id, domain, position)
          on x.search_id = r.search_id`);
    await db.execute(sql`
      insert into result_selections (search_id, domain, synthetic, created_at, expires_at)
      select search_id, domain, synthetic, created_at, expires_at from search_receipt_results
       where (search_id, domain) in (('m-first-page', 'b.example'), ('m-second-page', 'd.example'), ('m-expired', 'e.example'))`);
    await db.execute(sql`
      insert into action_interest_receipts (search_id, domain, action_type, confirmation_version, created_at, expires_at)
      select search_id, domain, 'demo', 'svc-action-interest-v1', created_at, expires_at from search_receipt_results
       where (search_id, domain) in (('m-second-page', 'b.example'), ('m-expired', 'e.example'))`);
    before.results = await resultRows();
    before.demand = await demandRows();
    before.interests = await interestRows();
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it("moves each search's results into its receipt row, in order, from its first position", async () => {
    expect(before.results).toHaveLength(7);
    expect(
      await rows(
        sql`select search_id, result_count, result_domains, first_position from search_receipts order by search_id`,
      ),
    ).toEqual([
      { search_id: "m-expired", result_count: 1, result_domains: ["e.example"], first_position: 1 },
      {
        search_id: "m-first-page",
        result_count: 3,
        result_domains: ["a.example", "b.example", "c.example"],
        first_position: 1,
      },
      { search_id: "m-nothing", result_count: 0, result_domains: [], first_position: 1 },
      { search_id: "m-second-page", result_count: 2, result_domains: ["b.example", "d.example"], first_position: 21 },
      { search_id: "m-synthetic", result_count: 1, result_domains: ["a.example"], first_position: 1 },
    ]);
    // The results read as rows as before, from the view.
    expect(await resultRows()).toEqual(before.results);
    const [table] = await rows(
      sql`select table_type from information_schema.tables where table_name = 'search_receipt_results'`,
    );
    expect(table).toEqual({ table_type: "VIEW" });
  });

  it("leaves the daily demand figures as they were, and keeps them with the new storage", async () => {
    expect((before.demand as unknown[]).length).toBeGreaterThan(0);
    expect(await demandRows()).toEqual(before.demand);
    expect(await interestRows()).toEqual(before.interests);
    // A receipt written now adds its results, positions and a selection as the old triggers did.
    await db.execute(sql`
      insert into search_receipts (search_id, surface, synthetic, topic, result_count, result_domains, first_position)
      values ('m-new', 'rest', false, 'payments', 2, array['c.example', 'a.example'], 11)`);
    await db.execute(sql`
      insert into result_selections (search_id, domain, synthetic, expires_at)
      select search_id, 'a.example', false, expires_at from search_receipts where search_id = 'm-new'`);
    // m-new's two results (c at 11, a at 12, a selected) are added to today's rows.
    type Daily = {
      domain: string;
      day: string;
      surface: string;
      topic: string;
      results: number;
      position_sum: number;
      selections: number;
    };
    const [{ today } = { today: "" }] = (await rows(sql`select (now() at time zone 'UTC')::date::text as today`)) as {
      today: string;
    }[];
    const ofToday = (list: Daily[]) =>
      Object.fromEntries(
        list
          .filter((row) => row.day === today && row.topic === "payments" && row.surface === "rest")
          .map((row) => [row.domain, [row.results, row.position_sum, row.selections]]),
      );
    const was = ofToday(before.demand as Daily[]);
    const now = ofToday((await demandRows()) as Daily[]);
    const plus = (domain: string, [results, positions, selections]: number[]) => {
      const [r = 0, p = 0, s = 0] = was[domain] ?? [];
      return [r + (results ?? 0), p + (positions ?? 0), s + (selections ?? 0)];
    };
    expect(now["a.example"]).toEqual(plus("a.example", [1, 12, 1]));
    expect(now["c.example"]).toEqual(plus("c.example", [1, 11, 0]));
    expect(now["b.example"]).toEqual(was["b.example"]);
    // Everything else is untouched.
    const others = (list: Daily[]) =>
      list.filter((row) => !(row.day === today && row.topic === "payments" && row.surface === "rest"));
    expect(others((await demandRows()) as Daily[])).toEqual(others(before.demand as Daily[]));
  });

  it("refuses a selection or interest of a domain the receipt did not return, and keeps the cascade", async () => {
    expect(
      await refusal(sql`
        insert into result_selections (search_id, domain, synthetic, expires_at)
        select search_id, 'c.example', false, expires_at from search_receipts where search_id = 'm-second-page'`),
    ).toMatchObject({
      code: "23503",
      message: expect.stringMatching(/foreign key constraint "result_selections_result_fk"/),
    });
    expect(
      await refusal(sql`
        insert into action_interest_receipts (search_id, domain, action_type, confirmation_version, expires_at)
        select search_id, 'z.example', 'quote', 'svc-action-interest-v1', expires_at from search_receipts
         where search_id = 'm-first-page'`),
    ).toMatchObject({ code: "23503" });
    // The expired receipt leaves through the purge with its selection and interest.
    await db.execute(sql`select * from retention_purge(100)`);
    const [left] = await rows(sql`
      select (select count(*)::int from search_receipts where search_id = 'm-expired') as receipts,
             (select count(*)::int from result_selections where search_id = 'm-expired') as selections,
             (select count(*)::int from action_interest_receipts where search_id = 'm-expired') as interests,
             (select count(*)::int from result_selections where search_id <> 'm-expired') as live_selections`);
    expect(left).toEqual({ receipts: 0, selections: 0, interests: 0, live_selections: 3 });
  });

  it("refuses every change through the results view", async () => {
    for (const statement of [
      sql`update search_receipt_results set position = 9 where search_id = 'm-first-page'`,
      sql`delete from search_receipt_results where search_id = 'm-first-page'`,
      sql`insert into search_receipt_results (search_id, domain, position, surface, topic, synthetic, created_at, expires_at)
          values ('m-first-page', 'x.example', 4, 'rest', 'other', false, now(), now() + interval '1 day')`,
    ]) {
      expect(await refusal(statement)).toMatchObject({ code: "42501", message: expect.stringMatching(/append-only/) });
    }
  });
});
