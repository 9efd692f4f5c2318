/**
 * `npm run bench:demand`: builds BENCH_RECEIPTS (default 1,000,000) search receipts spread over
 * the last 30 days in a real Postgres (database agent_readiness_bench_demand beside
 * BENCH_DATABASE_URL), then times demand answers: the exact statements and code of
 * GET /provider/demand (src/domain/demand/read-demand.ts), through the local stack's
 * SQL-over-HTTP endpoint as the Worker reaches it, for
 *   - the heaviest domains (the 10 with the most results: the worst case),
 *   - a sample of ordinary domains (BENCH_SAMPLE, default 200, drawn at random),
 * each at days = 30 and days = 7. Target: p99 <= 50 ms per class. Exits 1 when missed. It also
 * times recording a search receipt (BENCH_WRITES, default 200), which now keeps the daily rows.
 *
 * The data: each receipt returns 1 to 11 distinct domains out of BENCH_DOMAINS (default
 * 20,000), drawn with a heavy head (index = floor(N * u^3)), as popular sites are returned far
 * more often; 26 topics, 3 surfaces, 5 % synthetic; about 5 % of results selected and 0.5 %
 * with an action interest. An existing database holding BENCH_RECEIPTS receipts is reused
 * (BENCH_REBUILD=1 rebuilds it).
 */
import { performance } from "node:perf_hooks";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { createDatabase } from "../src/adapters/db.ts";
import { demandFromRows, demandQueries, demandStatements } from "../src/domain/demand/read-demand.ts";
import { DEMAND_TOPICS } from "../src/domain/demand/topics.ts";
import { ACTION_TYPES } from "../src/domain/search-receipts/receipt-constants.ts";
import { recordSearchReceipt } from "../src/domain/search-receipts/record-search-receipt.ts";
import { startLocalStack } from "./local-stack.ts";
import { migrate } from "./migrate.ts";

const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 1_000_000);
const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 20_000);
const SAMPLE = Number(process.env.BENCH_SAMPLE ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WRITES = Number(process.env.BENCH_WRITES ?? 200);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BENCH_DATABASE = "agent_readiness_bench_demand";
const DAYS = 30;
const TARGET_P99_MS = 50;

const log = (line: string) => console.log(`[bench:demand] ${line}`);

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** Creates the bench database (dropping it first when rebuilding); true when it is new. */
async function ensureDatabase(rebuild: boolean): Promise<boolean> {
  return withClient(SERVER_URL, async (admin) => {
    if (rebuild) await admin.query(`drop database if exists ${BENCH_DATABASE}`);
    const exists = await admin.query("select 1 from pg_database where datname = $1", [BENCH_DATABASE]);
    if (exists.rowCount === 0) {
      await admin.query(`create database ${BENCH_DATABASE}`);
      return true;
    }
    return false;
  });
}

const quoted = (values: readonly string[]) => `array[${values.map((value) => `'${value}'`).join(", ")}]`;

/**
 * One day of receipts with their results (in the receipt row), selections and interests, in one
 * statement (the receipts are append-only, so they are written once, complete).
 */
function daySql(day: number, count: number): string {
  return `
    with made as (
      select substr(md5(${day} || ':' || g || ':' || random()), 1, 22) as search_id,
             now() - make_interval(secs => ${day} * 86400 + floor(random() * 86000)::int + 60) as created_at,
             (array['web', 'rest', 'mcp'])[1 + g % 3] as surface,
             (${quoted(DEMAND_TOPICS)})[1 + floor(random() * ${DEMAND_TOPICS.length})::int] as topic,
             random() < 0.05 as synthetic,
             1 + floor(random() * 11)::int as n
        from generate_series(1, ${count}) g
    ), picks as (
      select m.search_id, 'd' || floor(${DOMAINS} * power(random(), 3))::int || '.example' as domain, p
        from made m cross join lateral generate_series(1, m.n) p
    ), ranked as (
      select search_id, domain, row_number() over (partition by search_id order by min(p))::int as position
        from picks group by search_id, domain
    ), lists as (
      select search_id, array_agg(domain order by position) as domains from ranked group by search_id
    ), receipts as (
      insert into search_receipts (search_id, surface, synthetic, topic, result_count, result_domains, first_position,
                                   created_at, expires_at)
      select m.search_id, m.surface, m.synthetic, m.topic, cardinality(l.domains), l.domains, 1, m.created_at,
             m.created_at + interval '30 days'
        from made m join lists l using (search_id)
    ), results as (
      select r.search_id, r.domain, m.synthetic, m.created_at, m.created_at + interval '30 days' as expires_at
        from ranked r join made m using (search_id)
    ), selected as (
      insert into result_selections (search_id, domain, synthetic, created_at, expires_at)
      select search_id, domain, synthetic, created_at + interval '1 minute', expires_at
        from results where random() < 0.05
    )
    insert into action_interest_receipts (search_id, domain, action_type, confirmation_version, created_at, expires_at)
    select search_id, domain, (${quoted(ACTION_TYPES)})[1 + floor(random() * ${ACTION_TYPES.length})::int],
           'svc-action-interest-v1', created_at + interval '2 minutes', expires_at
      from results where not synthetic and random() < 0.005`;
}

/** demand_daily and demand_daily_interests from the raw rows (as in db/migrations/0012_demand_daily_guards.sql). */
const DAILY_REBUILD_SQL = `
  insert into demand_daily (domain, day, surface, topic, results, position_sum, selections, expires_at)
  select r.domain, (r.created_at at time zone 'UTC')::date, r.surface, r.topic, count(*)::int, sum(r.position)::bigint,
         count(s.search_id)::int, demand_day_expiry((r.created_at at time zone 'UTC')::date)
    from search_receipt_results r
    left join result_selections s on s.search_id = r.search_id and s.domain = r.domain and not s.synthetic
   where not r.synthetic and r.expires_at > now()
   group by 1, 2, 3, 4;
  insert into demand_daily_interests (domain, day, surface, topic, action_type, interests, expires_at)
  select r.domain, (r.created_at at time zone 'UTC')::date, r.surface, r.topic, a.action_type, count(*)::int,
         demand_day_expiry((r.created_at at time zone 'UTC')::date)
    from action_interest_receipts a
    join search_receipt_results r on r.search_id = a.search_id and r.domain = a.domain
   where not r.synthetic and r.expires_at > now()
   group by 1, 2, 3, 4, 5;`;

async function build(url: string): Promise<void> {
  await withClient(url, async (client) => {
    const [row] = (await client.query("select count(*)::int as n from search_receipts")).rows as { n: number }[];
    // The write measurement below adds a few hundred receipts per run.
    if ((row?.n ?? 0) >= RECEIPTS && (row?.n ?? 0) < RECEIPTS + 10_000) {
      log(`reusing ${row?.n} receipts`);
      await client.query("vacuum analyze demand_daily, demand_daily_interests");
      return;
    }
    if ((row?.n ?? 0) > 0) throw new Error(`the bench database holds ${row?.n} receipts; set BENCH_REBUILD=1`);
    const started = performance.now();
    // A bulk load: the secondary indexes are built once afterwards, and foreign-key triggers are
    // off for this session (the generator writes every parent with its children).
    const indexes = (
      await client.query(
        `select indexname, indexdef from pg_indexes
          where tablename in ('search_receipts', 'result_selections', 'action_interest_receipts')
            and indexdef like 'CREATE INDEX%'`,
      )
    ).rows as { indexname: string; indexdef: string }[];
    for (const index of indexes) await client.query(`drop index ${index.indexname}`);
    await client.query("set session_replication_role = replica");
    const perDay = Math.floor(RECEIPTS / DAYS);
    for (let day = 0; day < DAYS; day++) {
      const count = day === DAYS - 1 ? RECEIPTS - perDay * (DAYS - 1) : perDay;
      await client.query(daySql(day, count));
      log(`day ${day + 1}/${DAYS} written (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    await client.query("set session_replication_role = origin");
    // The triggers that keep demand_daily were off with the rest: the daily rows are built as
    // the migration builds them for receipts that predate it.
    await client.query("delete from demand_daily_interests");
    await client.query("delete from demand_daily");
    await client.query(DAILY_REBUILD_SQL);
    log(`daily rows built (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    for (const index of indexes) await client.query(index.indexdef);
    log(`indexes built (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    await client.query(
      "vacuum analyze search_receipts, result_selections, action_interest_receipts, demand_daily, demand_daily_interests",
    );
    const sizes = (
      await client.query(`select (select count(*) from search_receipt_results)::int as results,
                                 (select count(*) from result_selections)::int as selections,
                                 (select count(*) from action_interest_receipts)::int as interests`)
    ).rows[0];
    log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s: ${JSON.stringify(sizes)}`);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

async function main() {
  const rebuild = process.env.BENCH_REBUILD === "1";
  await ensureDatabase(rebuild);
  const url = databaseUrl(BENCH_DATABASE);
  const stack = await startLocalStack({ databaseUrl: url, sqlPort: 0, redisPort: 0 });
  let failed = false;
  try {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    await build(url);

    const { heavy, sample } = await withClient(url, async (client) => {
      const heavyRows = await client.query(
        `select domain, count(*)::int as results from search_receipt_results
          group by domain order by count(*) desc limit 10`,
      );
      const sampleRows = await client.query(
        `select domain, count(*)::int as results from search_receipt_results
          where domain in (select domain from (select distinct domain from search_receipt_results) d
                            order by random() limit ${SAMPLE})
          group by domain`,
      );
      return {
        heavy: heavyRows.rows as { domain: string; results: number }[],
        sample: sampleRows.rows as { domain: string; results: number }[],
      };
    });
    const resultsOf = (rows: { results: number }[]) => rows.map((row) => row.results).sort((a, b) => a - b);
    log(`heaviest domain: ${heavy[0]?.results} results in 30 days; sample median ${percentile(resultsOf(sample), 50)}`);

    const db = createDatabase({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
    const time = async (domain: string, days: number) => {
      const started = performance.now();
      const rows = await db.batch(demandStatements(db, domain));
      demandFromRows(rows, domain, days);
      return performance.now() - started;
    };
    // Warm the connection and the caches a running service would have warm.
    for (const row of sample.slice(0, 20)) await time(row.domain, 30);

    // Database time alone: the same two statements over one pg connection, in one transaction
    // as the batch runs them, and the same answer built from their rows.
    const dialect = new PgDialect();
    const direct = new pg.Client({ connectionString: url });
    await direct.connect();
    const timeDatabase = async (domain: string, days: number) => {
      const started = performance.now();
      await direct.query("begin isolation level repeatable read read only");
      const rows = [];
      for (const query of demandQueries(domain)) {
        const { sql: text, params } = dialect.sqlToQuery(query);
        rows.push(await direct.query(text, params));
      }
      await direct.query("commit");
      demandFromRows([rows[0] as { rows: unknown[] }, rows[1] as { rows: unknown[] }], domain, days);
      return performance.now() - started;
    };

    const classes = [
      { name: "heaviest 10 domains, days=30", domains: heavy, days: 30 },
      { name: "heaviest 10 domains, days=7", domains: heavy, days: 7 },
      { name: `${sample.length} sampled domains, days=30`, domains: sample, days: 30 },
      { name: `${sample.length} sampled domains, days=7`, domains: sample, days: 7 },
    ];
    for (const [how, timer] of [
      ["database time", timeDatabase],
      ["through the local SQL-over-HTTP endpoint", time],
    ] as const) {
      for (const benchClass of classes) {
        const times: number[] = [];
        const best = new Map<string, number>();
        for (let run = 0; run < RUNS; run++) {
          for (const { domain } of benchClass.domains) {
            const ms = await timer(domain, benchClass.days);
            times.push(ms);
            best.set(domain, Math.min(best.get(domain) ?? Number.POSITIVE_INFINITY, ms));
          }
        }
        times.sort((a, b) => a - b);
        const p50 = percentile(times, 50);
        const p99 = percentile(times, 99);
        const max = times[times.length - 1] ?? 0;
        const ok = p99 <= TARGET_P99_MS;
        failed ||= !ok;
        // Each domain's fastest of its runs: what it costs when the machine's other work lets it run.
        const bestTimes = [...best.values()].sort((a, b) => a - b);
        log(
          `${how}, ${benchClass.name}: n=${times.length} p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms ${ok ? "ok" : `MISSED (target p99 <= ${TARGET_P99_MS} ms)`}; best of ${RUNS} per domain: p50 ${percentile(bestTimes, 50).toFixed(1)} ms, p99 ${percentile(bestTimes, 99).toFixed(1)} ms`,
        );
      }
    }
    await direct.end();

    // How the time grows with a domain's results: the sample bucketed by results in 30 days.
    const buckets = new Map<string, number[]>();
    for (const { domain, results } of [...sample, ...heavy]) {
      const bucket = results < 100 ? "<100" : results < 1000 ? "100-999" : results < 10000 ? "1k-9.9k" : ">=10k";
      const ms = await time(domain, 30);
      buckets.set(bucket, [...(buckets.get(bucket) ?? []), ms]);
    }
    for (const [bucket, values] of buckets) {
      values.sort((a, b) => a - b);
      log(`results per domain ${bucket}: n=${values.length} median ${percentile(values, 50).toFixed(1)} ms`);
    }

    // What keeping the daily rows costs a search: recording receipts of 10 results, the
    // heaviest domains among them (their rows are the hottest), through the Worker's own code.
    const writes: number[] = [];
    const ctx = { db, cache: undefined as never, origin: "http://bench.invalid" };
    for (let i = 0; i < WRITES; i++) {
      const domains = [...heavy.slice(0, 5), ...sample.slice((i * 5) % sample.length).slice(0, 5)].map(
        (row) => row.domain,
      );
      const started = performance.now();
      const receipt = await recordSearchReceipt({
        ctx,
        input: { domains: [...new Set(domains)], firstPosition: 1, surface: "rest", synthetic: false, topic: "data" },
      });
      writes.push(performance.now() - started);
      if (!receipt.recorded) throw new Error("a bench receipt was not recorded");
    }
    writes.sort((a, b) => a - b);
    log(
      `recording a search receipt of 10 results (daily rows kept by trigger): n=${writes.length} p50 ${percentile(writes, 50).toFixed(1)} ms, p99 ${percentile(writes, 99).toFixed(1)} ms`,
    );
  } finally {
    await stack.stop();
  }
  if (failed) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
