/**
 * `npm run bench:retention`: proof that expiry keeps up at internet scale. In a real Postgres
 * (database BENCH_RETENTION_DATABASE, default agent_readiness_bench_retention, beside
 * BENCH_DATABASE_URL), migrated as the service is, it loads BENCH_DAYS (default 3) whole days of
 * receipts whose day of expiry is over, one at a time, each followed by the retention job's two
 * steps that take a day's rows — retention_drop_expired_partitions() and demand_daily_expire(), the
 * very functions the daily job calls — timed; plus one live day that must survive
 * (BENCH_LIVE_SEARCHES searches, default as many as an expired day). Each day holds
 * BENCH_SEARCHES_PER_DAY searches (default 100,000) with 20 organic results each (held in the
 * receipt row), 5 % of results selected and 0.5 % with an action interest, the proportions
 * bench:demand uses, and BENCH_DEMAND_ROWS_PER_DAY daily demand cells; 10 million searches a day
 * is 100 times the default, and the script reports the figures per receipt so the arithmetic for
 * 10 million a day and 30 days can be done from them.
 *
 * Reported: each day's storage (the four tables' partitions, heap and indexes, and per table; the
 * demand cells apart), bytes per receipt and the size of one receipt row and of its list of
 * domains, how long each step of that day's expiry took, and after all days that no expired row
 * is left and every live row is. Exits 1 when a day's expiry takes BENCH_TARGET_SECONDS (default
 * 60) or more, or a row is wrong. The load bypasses triggers and foreign-key checks
 * (session_replication_role = replica) and runs over BENCH_LOADERS connections: it measures
 * expiry, not writes (bench:search does those).
 */
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startLocalStack } from "./local-stack.ts";
import { migrate } from "./migrate.ts";

const DAYS = Number(process.env.BENCH_DAYS ?? 3);
const PER_DAY = Number(process.env.BENCH_SEARCHES_PER_DAY ?? 100_000);
/** The live day's searches (default: as many as an expired day's); it only has to survive. */
const LIVE = Number(process.env.BENCH_LIVE_SEARCHES ?? PER_DAY);
const RESULTS = 20;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const BENCH_DATABASE = process.env.BENCH_RETENTION_DATABASE ?? "agent_readiness_bench_retention";
const TARGET_SECONDS = Number(process.env.BENCH_TARGET_SECONDS ?? 60);
const TEN_MILLION = 10_000_000;
/**
 * The daily demand rows of one day (distinct domain, surface and topic the day's results named).
 * Not bounded by the searches but by the domains returned: up to 78 cells per domain a day. The
 * default, 2 million cells (and a twentieth as many interest cells), is a day on which 10 million
 * searches returned some 670,000 distinct domains on the 3 surfaces.
 */
const DEMAND_ROWS = Number(process.env.BENCH_DEMAND_ROWS_PER_DAY ?? 2_000_000);
const FAMILY = ["search_receipts", "result_selections", "action_interest_receipts", "search_offer_disclosures"];
const demandBytesSql =
  "select (pg_total_relation_size('demand_daily') + pg_total_relation_size('demand_daily_interests'))::bigint as bytes";

const log = (line: string) => console.log(`[bench:retention] ${line}`);

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Parallel loaders: a day of 10 million searches is loaded in chunks over this many connections. */
const LOADERS = Number(process.env.BENCH_LOADERS ?? 4);
const CHUNK = 250_000;

/** The domain at 1-based position `p` of search `g`'s results (20 distinct per search). */
const domainOf = (p: string) =>
  `'site' || ((g::bigint * 7919 + (${p}) * 104729) % 500000) || '-' || (${p}) || '.example'`;

/**
 * Searches `from`…`to` of a day whose `count` searches were made 30 days before `day` (UTC),
 * spread over it, and everything that hangs on them: each receipt row holds its 20 returned domains
 * (distinct, as the service's are); one selection per search (5 % of its 20 results) and an action
 * interest on every tenth (0.5 %), the proportions bench:demand draws at random, here placed
 * deterministically so each table is one plain statement over the chunk.
 */
function daySql(day: string, count: number, from: number, to: number): string[] {
  const made = `
      'b' || to_char(date '${day}', 'YYYYMMDD') || lpad(g::text, 13, '0') as search_id,
      (date '${day}' - 30)::timestamp at time zone 'UTC' + make_interval(secs => (g::bigint * 86399 / ${count})::int) as created_at`;
  return [
    `insert into search_receipts (search_id, surface, synthetic, topic, result_count, result_domains, first_position,
                                  created_at, expires_at)
     select search_id, surface, false, 'other', ${RESULTS}, domains, 1, created_at, created_at + interval '30 days'
       from (select ${made}, (array['web', 'rest', 'mcp'])[1 + g % 3] as surface,
                    array[${Array.from({ length: RESULTS }, (_, index) => domainOf(String(index + 1))).join(", ")}] as domains
               from generate_series(${from}, ${to}) g) m`,
    `insert into result_selections (search_id, domain, synthetic, created_at, expires_at)
     select search_id, domain, false, created_at + interval '1 minute', created_at + interval '30 days'
       from (select ${made}, ${domainOf(`1 + g % ${RESULTS}`)} as domain from generate_series(${from}, ${to}) g) m`,
    `insert into action_interest_receipts (search_id, domain, action_type, confirmation_version, created_at, expires_at)
     select search_id, domain, 'quote', 'svc-action-interest-v1', created_at + interval '2 minutes',
            created_at + interval '30 days'
       from (select ${made}, ${domainOf(`1 + (g / 10) % ${RESULTS}`)} as domain
               from generate_series(${from}, ${to}) g where g % 10 = 0) m`,
  ];
}

/** Loads a day's `count` searches in chunks over LOADERS connections (triggers and keys off). */
async function loadDay(url: string, day: string, count: number): Promise<void> {
  const chunks: [number, number][] = [];
  for (let from = 1; from <= count; from += CHUNK) chunks.push([from, Math.min(count, from + CHUNK - 1)]);
  const loader = async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("set session_replication_role = replica");
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
        for (const statement of daySql(day, count, chunk[0], chunk[1])) await client.query(statement);
      }
    } finally {
      await client.end();
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOADERS, chunks.length) }, loader));
}

/** The daily demand cells whose rows expire in `day` (UTC): the demand day 31 days before it. */
function demandSql(day: string, rows: number): string[] {
  const demandDay = `(date '${day}' - 31)`;
  return [
    `insert into demand_daily (domain, day, surface, topic, results, position_sum, selections, expires_at)
     select 'site' || (g / 3) || '.example', ${demandDay}, (array['web', 'rest', 'mcp'])[1 + g % 3], 'other',
            1 + g % 40, (1 + g % 40) * (1 + g % 20), g % 3, demand_day_expiry(${demandDay})
       from generate_series(1, ${rows}) g`,
    `insert into demand_daily_interests (domain, day, surface, topic, action_type, interests, expires_at)
     select 'site' || (g / 3) || '.example', ${demandDay}, (array['web', 'rest', 'mcp'])[1 + g % 3], 'other', 'quote',
            1, demand_day_expiry(${demandDay})
       from generate_series(1, ${Math.ceil(rows / 20)}) g`,
  ];
}

interface Counts {
  receipts: number;
  results: number;
  selections: number;
  interests: number;
  demand: number;
  demandInterests: number;
}

const countsSql = (where: string) => `
  select (select count(*) from search_receipts where ${where})::bigint as receipts,
         (select coalesce(sum(cardinality(result_domains)), 0) from search_receipts where ${where})::bigint as results,
         (select count(*) from result_selections where ${where})::bigint as selections,
         (select count(*) from action_interest_receipts where ${where})::bigint as interests,
         (select count(*) from demand_daily where ${where})::bigint as demand,
         (select count(*) from demand_daily_interests where ${where})::bigint as demand_interests`;

async function counts(client: pg.Client, where: string): Promise<Counts> {
  const row = (await client.query(countsSql(where))).rows[0] as Record<string, string>;
  return {
    receipts: Number(row.receipts),
    results: Number(row.results),
    selections: Number(row.selections),
    interests: Number(row.interests),
    demand: Number(row.demand),
    demandInterests: Number(row.demand_interests),
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${BENCH_DATABASE}`);
  await admin.query(`create database ${BENCH_DATABASE}`);
  await admin.end();
  const url = databaseUrl(BENCH_DATABASE);
  const stack = await startLocalStack({ databaseUrl: url, sqlPort: 0, redisPort: 0 });
  let failed = false;
  const client = new pg.Client({ connectionString: url });
  try {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    await client.connect();
    const today = ((await client.query("select (now() at time zone 'UTC')::date::text as d")).rows[0] as { d: string })
      .d;
    log(
      `${DAYS} expired days + 1 live day of ${PER_DAY.toLocaleString("en")} searches (${RESULTS} results each); ` +
        `10 million a day is ${(TEN_MILLION / PER_DAY).toFixed(0)}x this`,
    );

    // The live day: searched today, expiring in 30 days (its partitions exist: the migration made them).
    const liveDay = ((await client.query("select ($1::date + 30)::text as d", [today])).rows[0] as { d: string }).d;
    await loadDay(url, liveDay, LIVE);
    await client.query("set session_replication_role = replica");
    for (const statement of demandSql(liveDay, Math.ceil((DEMAND_ROWS * LIVE) / PER_DAY)))
      await client.query(statement);
    await client.query("set session_replication_role = origin");
    const live = await counts(client, "expires_at > now()");
    log(`live day loaded: ${JSON.stringify(live)}`);

    const perDay: {
      day: string;
      bytes: number;
      demandBytes: number;
      dropSeconds: number;
      demandSeconds: number;
      seconds: number;
      rows: number;
      dropped: number;
    }[] = [];
    for (let index = 0; index < DAYS; index++) {
      // Days of expiry 2, 3, … days ago: wholly over.
      const day = (
        (await client.query("select ($1::date - $2::int)::text as d", [today, DAYS + 1 - index])).rows[0] as {
          d: string;
        }
      ).d;
      await client.query("select retention_make_day($1::date)", [day]);
      const loadStarted = performance.now();
      await loadDay(url, day, PER_DAY);
      await client.query("set session_replication_role = replica");
      const demandBefore = Number(((await client.query(demandBytesSql)).rows[0] as { bytes: string }).bytes);
      for (const statement of demandSql(day, DEMAND_ROWS)) await client.query(statement);
      await client.query("set session_replication_role = origin");
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      const tables = (
        await client.query(
          `select t as table, pg_total_relation_size(to_regclass(t))::bigint as bytes,
                  pg_relation_size(to_regclass(t))::bigint as heap from unnest($1::text[]) t`,
          [FAMILY.map((table) => `${table}_p${day.replaceAll("-", "")}`)],
        )
      ).rows as { table: string; bytes: string; heap: string }[];
      log(
        `day ${day} per table: ${tables.map((t) => `${t.table} ${mb(Number(t.bytes))} (heap ${mb(Number(t.heap))})`).join(", ")}`,
      );
      // The receipt family's bytes (what grows with searches) apart from the daily demand cells'
      // (what the day's cells added to the two tables).
      const sizes = {
        bytes: tables.reduce((sum, t) => sum + Number(t.bytes), 0),
        demandBytes: Number(((await client.query(demandBytesSql)).rows[0] as { bytes: string }).bytes) - demandBefore,
      };
      const row = (
        await client.query(
          `select avg(pg_column_size(r.*))::int as row_bytes, avg(pg_column_size(r.result_domains))::int as list_bytes
             from ${`search_receipts_p${day.replaceAll("-", "")}`} r tablesample system (1)`,
        )
      ).rows[0] as { row_bytes: number; list_bytes: number };
      log(`day ${day} receipt row: ${row.row_bytes} bytes on average, of which ${row.list_bytes} its list of domains`);
      // The day's own rows (its partitions alone are read).
      const rows = await counts(
        client,
        `expires_at >= timestamptz '${day} 00:00:00+00' and expires_at < timestamptz '${day} 00:00:00+00' + interval '1 day'`,
      );
      const dayRows = Object.values(rows).reduce((sum, n) => sum + n, 0);
      log(
        `day ${day} loaded in ${loadSeconds.toFixed(0)} s: ${JSON.stringify(rows)}, receipts ${mb(sizes.bytes)}, demand cells ${mb(sizes.demandBytes)}`,
      );

      // The job's two steps that take a day's rows: the receipt family's partitions dropped, then
      // every expired daily demand row deleted (demand_daily_expire), each timed.
      const started = performance.now();
      const dropped = await client.query("select table_name, partition_name from retention_drop_expired_partitions()");
      const dropSeconds = (performance.now() - started) / 1000;
      const demandStarted = performance.now();
      const demandDeleted = await client.query(
        "select table_name, deleted::bigint::text as deleted from demand_daily_expire()",
      );
      const demandSeconds = (performance.now() - demandStarted) / 1000;
      const seconds = dropSeconds + demandSeconds;
      log(
        `day ${day}: partitions dropped in ${dropSeconds.toFixed(3)} s, demand cells deleted in ${demandSeconds.toFixed(3)} s ` +
          `(${demandDeleted.rows.map((row) => `${row.table_name} ${row.deleted}`).join(", ")})`,
      );
      perDay.push({
        day,
        ...sizes,
        dropSeconds,
        demandSeconds,
        seconds,
        rows: dayRows,
        dropped: dropped.rowCount ?? 0,
      });
      log(`day ${day} expired in ${seconds.toFixed(3)} s (${dropped.rowCount} partitions dropped, ${dayRows} rows)`);
      if (seconds >= TARGET_SECONDS) failed = true;
    }

    const leftExpired = await counts(client, "expires_at <= now()");
    const leftLive = await counts(client, "expires_at > now()");
    const expiredLeft = Object.values(leftExpired).reduce((sum, n) => sum + n, 0);
    const liveKept = JSON.stringify(leftLive) === JSON.stringify(live);
    log(`expired rows left: ${expiredLeft} (${JSON.stringify(leftExpired)})`);
    log(`live rows kept: ${liveKept ? "all" : "NOT ALL"} (${JSON.stringify(leftLive)} of ${JSON.stringify(live)})`);
    if (expiredLeft !== 0 || !liveKept) failed = true;

    const bytesPerReceipt = perDay.reduce((sum, day) => sum + day.bytes, 0) / perDay.length / PER_DAY;
    const slowest = Math.max(...perDay.map((day) => day.seconds));
    log(
      `storage: ${bytesPerReceipt.toFixed(0)} bytes per receipt (with its ${RESULTS} results, selections, interests and indexes); ` +
        `daily demand cells ${mb(perDay.reduce((sum, day) => sum + day.demandBytes, 0) / perDay.length)} a day ` +
        `(${DEMAND_ROWS.toLocaleString("en")} cells)`,
    );
    log(
      `at 10 million searches a day: ${((bytesPerReceipt * TEN_MILLION) / 1e9).toFixed(1)} GB a day, ` +
        `${((bytesPerReceipt * TEN_MILLION * 30) / 1e12).toFixed(2)} TB for 30 days (31 days of partitions held: ` +
        `${((bytesPerReceipt * TEN_MILLION * 31) / 1e12).toFixed(2)} TB)`,
    );
    log(`slowest day's expiry: ${slowest.toFixed(3)} s (target < ${TARGET_SECONDS} s)`);
    console.log(JSON.stringify({ perDay, bytesPerReceipt, slowest, expiredLeft, liveKept }, null, 2));
  } finally {
    await client.end().catch(() => undefined);
    await stack.stop();
  }
  if (failed) {
    console.error("[bench:retention] target missed");
    process.exit(1);
  }
}

await main();
