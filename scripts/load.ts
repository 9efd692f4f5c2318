/**
 * `npm run load`: the request path under load. The Worker's deployable bundle runs in workerd
 * through Miniflare behind the local edge (scripts/bundled-worker.ts: no `wrangler dev` proxy in
 * between), on the local stack in front of a real Postgres and a real Redis, with its default
 * settings. A load generator holds each concurrency (1, 10, 50) for a bounded time on each
 * endpoint in turn — `/healthz` (the floor), `GET /api/v1/search` (frequent and rare words, filters
 * alone, q plus filters, exact domains, deep pages: scripts/search-cases.ts), `GET /api/v1/top`
 * (every filter set at varied limits; the 5-minute cache makes later rounds hits),
 * `GET /api/v1/site/{domain}` without and with the `search_id` of a search that returned it, and
 * the other hot paths of issue 32: `POST /api/v1/action-interests` (one per result of 40 real,
 * not synthetic, searches, each recorded anew while they last, then exact replays),
 * `POST /api/v1/check` (a live check of a fixture site served on 127.0.0.1 by this process, with
 * FETCH_ALLOW_PRIVATE as in the integration tests: the crawl's own fetches are no store round
 * trips, so the counts below are the check's store work alone), `POST /api/v1/provider/outcomes`
 * (accepted, activated, converted — which charges — and duplicate — which credits — on each of
 * LOAD_TICKETS handed-off tickets, never two of one ticket at once) and
 * `GET /api/v1/provider/pilot-status` (across LOAD_PROVIDER_CLAIMS verified claims' keys); the
 * claims, keys, active offers and tickets are written by scripts/load-exchange.ts — after a
 * warm-up, and prints per concurrency a Markdown table:
 * requests, req/s, p50/p99/max, errors (every answer but a 2xx, and a search without its receipt),
 * SQL and Redis requests per request, and the share of time spent outside the database.
 *
 * Database time is measured where it is spent: the stack (in a worker thread) records, for every
 * SQL request it answers, how long Postgres worked on it (from a pooled connection in hand to the
 * last answer). One endpoint runs at a time, so all of it belongs to that endpoint: at
 * concurrency 1 each request gets the database time of the SQL requests inside it; at every
 * concurrency the share outside the database is 1 − Σ database time ÷ Σ latency. Last, the
 * headline: `/search` end-to-end p50 at concurrency 1 ÷ the p50 of the same searches run
 * directly through `runSearchQuery` over one `pg` connection (as `npm run bench:search` measures
 * database time).
 *
 * Distance: LOAD_STORE_RTT_MS (default `0,80`) lists the store round trips to measure at: the
 * stack delays every SQL and Redis request by that much (LOCAL_STORE_RTT_MS), as if the database
 * were on another continent, and each round trip gets its tables. At concurrency 1 each row also
 * says how many store round trips a request waited for in sequence (p50): requests to a store that
 * overlap in time count once, so a Redis check run beside a SQL request adds no round trip.
 *
 * Clients: each request leaves from one of LOAD_CLIENTS loopback addresses (127.1.x.y) in turn,
 * which the edge reports as CF-Connecting-IP, so the free per-client limits (240 searches an hour)
 * apply as to that many clients; a fresh Redis prefix per run means no earlier window is met.
 * Searches are marked `X-SVC-Synthetic: true` (kept out of demand); each still writes its receipt.
 * Only the searches the action interests are recorded on are real: an interest needs one.
 *
 * Settings: LOAD_DATABASE_URL (default: the benchmark's index `agent_readiness_bench` on the local
 * server when it holds sites, used as it is; otherwise `agent_readiness_load`, created, migrated
 * and given the demo index), LOAD_REDIS_URL (default redis://127.0.0.1:6379/11), LOAD_PORT
 * (default 8796), LOAD_CONCURRENCY (default `1,10,50`), LOAD_SECONDS (per concurrency, shared
 * equally by the endpoints; default 20), LOAD_ENDPOINTS (default
 * `healthz,search,top,site,site-selection,action-interests,check,outcomes,pilot-status`),
 * LOAD_CLIENTS (default 1000), LOAD_INTEREST_SEARCHES (default 40), LOAD_PROVIDER_CLAIMS
 * (default 40: pilot status is limited to 240 an hour per key), LOAD_TICKETS (default 500, four
 * outcomes each; an outcome with no ticket left counts as an error), LOAD_WORKER_LOG=1 to see the
 * Worker's log. Each run adds its claims, tickets, interests and outcome receipts to the database.
 * Talks to 127.0.0.1 only, and stops the Worker and the stack when done (or interrupted).
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { seededRandom } from "../db/seed/demo-index.ts";
import { runSearchQuery } from "../src/domain/search/search-sites.ts";
import { TOP_MAX_LIMIT } from "../src/domain/search/top-sites.ts";
import { ACTION_INTEREST_CONFIRMATION_VERSION } from "../src/domain/search-receipts/receipt-constants.ts";
import { serveFixtureSites } from "../test/support/fixture-sites.ts";
import { startBundledWorker } from "./bundled-worker.ts";
import { loadSigningVars, setUpExchange, TicketPool } from "./load-exchange.ts";
import type { ServedCall } from "./local-stack/served-calls.ts";
import { epochMs } from "./local-stack/served-calls.ts";
import {
  ensureDatabase,
  machineLine,
  measuredWorkerVars,
  percentile,
  startLocalStackThread,
  waitForHttp,
} from "./measure-support.ts";
import { migrate } from "./migrate.ts";
import {
  buildSearchCases,
  demoVocabulary,
  everyTopFilterSet,
  pgBatchRunner,
  type SearchCase,
  searchPath,
  topPath,
} from "./search-cases.ts";
import { loadDemoIndexIfEmpty } from "./seed-demo.ts";

const SERVER_URL = "postgres://postgres@127.0.0.1:5432";
const REDIS_URL = process.env.LOAD_REDIS_URL ?? "redis://127.0.0.1:6379/11";
const PORT = Number(process.env.LOAD_PORT ?? 8796);
const CONCURRENCIES = (process.env.LOAD_CONCURRENCY ?? "1,10,50").split(",").map(Number);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 20);
const ENDPOINTS = (
  process.env.LOAD_ENDPOINTS ?? "healthz,search,top,site,site-selection,action-interests,check,outcomes,pilot-status"
)
  .split(",")
  .map((name) => name.trim());
const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 1000);
const STORE_RTTS = (process.env.LOAD_STORE_RTT_MS ?? "0,80").split(",").map(Number);
const WARM_UP_SECONDS = 2;
/** Real searches whose results the action interests are recorded on. */
const INTEREST_SEARCHES = Number(process.env.LOAD_INTEREST_SEARCHES ?? 40);
const PROVIDER_CLAIMS = Number(process.env.LOAD_PROVIDER_CLAIMS ?? 40);
const TICKETS = Number(process.env.LOAD_TICKETS ?? 500);
/** The fixture site POST /check crawls: every signal present, so every detector runs to the end. */
const CHECKED_SITE = "all-six-signals";
let interestsSent = 0;

const log = (line: string) => console.log(`[load] ${line}`);

/** The database to load: LOAD_DATABASE_URL, the benchmark's index when it holds sites, or a demo one. */
async function chooseDatabase(): Promise<string> {
  if (process.env.LOAD_DATABASE_URL) return process.env.LOAD_DATABASE_URL;
  const bench = `${SERVER_URL}/agent_readiness_bench`;
  return (await holdsSites(bench)) ? bench : `${SERVER_URL}/agent_readiness_load`;
}

/** Whether the database exists and has a `sites` table with at least one row. */
async function holdsSites(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ held: boolean }>(
      "select to_regclass('public.sites') is not null and exists (select 1 from sites) as held",
    );
    return rows[0]?.held === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One request to send: a GET of `path`, or a POST of `body` as JSON. */
interface Outgoing {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Called with the answer's status once it is in (a ticket goes back to its pool). */
  answered?(status: number): void;
}

/** One endpoint's requests: the n-th (null when there is none left to send), and how to check its answer. */
interface Target {
  /** Its name in LOAD_ENDPOINTS. */
  key: string;
  name: string;
  request(n: number): Outgoing | null;
  /** Reads the body: a 2xx that is still a failure (a search whose receipt was not recorded). */
  failed?(body: string): boolean;
}

interface Sample {
  /** Epoch ms, as the stack's calls are timed. */
  startedAt: number;
  endedAt: number;
  ms: number;
  ok: boolean;
  /** Which of the target's paths it was. */
  n: number;
}

/** The n-th client's loopback address: 127.1.0.2, 127.1.0.3, … (each its own client to the edge). */
const clientAddress = (n: number) => `127.1.${Math.floor(n / 250)}.${(n % 250) + 2}`;

// One connection per request: the edge sees each request's own source address.
const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
let sent = 0;

/** Sends the target's n-th request; any 2xx is an answer (201 for a new receipt), the rest errors. */
function send(target: Target, n: number): Promise<Sample> {
  const localAddress = clientAddress(sent++ % CLIENTS);
  const startedAt = epochMs();
  const started = performance.now();
  const outgoing = target.request(n);
  return new Promise((resolve) => {
    const finish = (ok: boolean, status = 0) => {
      outgoing?.answered?.(status);
      resolve({ startedAt, endedAt: epochMs(), ms: performance.now() - started, ok, n });
    };
    if (!outgoing) return finish(false);
    const payload = outgoing.body === undefined ? undefined : JSON.stringify(outgoing.body);
    const sending = request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: outgoing.path,
        method: payload === undefined ? "GET" : "POST",
        agent,
        localAddress,
        headers: {
          "X-SVC-Synthetic": "true",
          ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
          ...outgoing.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          if (target.failed) chunks.push(chunk);
        });
        response.on("end", () => {
          const status = response.statusCode ?? 0;
          const ok = status >= 200 && status < 300 && !target.failed?.(Buffer.concat(chunks).toString("utf8"));
          finish(ok, status);
        });
      },
    );
    sending.setTimeout(60_000, () => sending.destroy(new Error("no answer within 60 s")));
    sending.on("error", () => finish(false));
    sending.end(payload);
  });
}

/** `concurrency` clients send the target's requests back to back for `seconds`. */
async function hold(target: Target, concurrency: number, seconds: number): Promise<Sample[]> {
  const deadline = performance.now() + seconds * 1000;
  const samples: Sample[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) samples.push(await send(target, next++));
    }),
  );
  return samples;
}

interface Row {
  endpoint: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  sqlPerRequest: number;
  redisPerRequest: number;
  /** Mean Postgres time per request, and (concurrency 1) its median. */
  databaseMean: number;
  databaseP50?: number;
  /** Mean time per request the stack's SQL endpoint added around Postgres (HTTP, JSON, pool). */
  stackMean: number;
  outside: number;
  /** Concurrency 1: store round trips each request waited for in sequence (p50), SQL, Redis and both. */
  sequential?: { sql: number; redis: number; both: number };
}

/** Round trips in sequence: calls that overlap an earlier one's interval ride along with it. */
function sequentialRounds(calls: ServedCall[]): number {
  let rounds = 0;
  let busyUntil = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    if (call.startedAt >= busyUntil) rounds += 1;
    busyUntil = Math.max(busyUntil, call.endedAt);
  }
  return rounds;
}

function summarise(endpoint: string, samples: Sample[], calls: ServedCall[], perRequest: boolean): Row {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  // A loop, not Math.min(...): a long run's samples are more than a call's arguments can hold.
  const first = samples.reduce((earliest, sample) => Math.min(earliest, sample.startedAt), Number.POSITIVE_INFINITY);
  const last = samples.reduce((latest, sample) => Math.max(latest, sample.endedAt), Number.NEGATIVE_INFINITY);
  const sql = calls.filter((call) => call.endpoint === "sql" && call.statements > 0);
  const redis = calls.filter((call) => call.endpoint === "redis");
  const latency = sorted.reduce((sum, ms) => sum + ms, 0);
  const database = sql.reduce((sum, call) => sum + call.storeMs, 0);
  const stack = sql.reduce((sum, call) => sum + (call.endedAt - call.startedAt - call.storeMs), 0);
  let databaseP50: number | undefined;
  let sequential: Row["sequential"];
  if (perRequest) {
    const inside = (sample: Sample, list: ServedCall[]) =>
      list.filter((call) => call.startedAt >= sample.startedAt && call.endedAt <= sample.endedAt);
    const median = (values: number[]) =>
      percentile(
        values.sort((a, b) => a - b),
        50,
      );
    sequential = {
      sql: median(samples.map((sample) => sequentialRounds(inside(sample, sql)))),
      redis: median(samples.map((sample) => sequentialRounds(inside(sample, redis)))),
      both: median(samples.map((sample) => sequentialRounds(inside(sample, [...sql, ...redis])))),
    };
    // One request at a time: a SQL request inside a request's interval was made by it.
    const perSample = samples.map((sample) =>
      sql
        .filter((call) => call.startedAt >= sample.startedAt && call.endedAt <= sample.endedAt)
        .reduce((sum, call) => sum + call.storeMs, 0),
    );
    databaseP50 = percentile(
      perSample.sort((a, b) => a - b),
      50,
    );
  }
  return {
    endpoint,
    requests: samples.length,
    perSecond: samples.length / ((last - first) / 1000),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    errors: samples.filter((sample) => !sample.ok).length,
    sqlPerRequest: sql.length / samples.length,
    redisPerRequest: redis.length / samples.length,
    databaseMean: database / samples.length,
    databaseP50,
    stackMean: stack / samples.length,
    outside: 1 - database / latency,
    sequential,
  };
}

function table(rows: Row[]): string {
  const ms = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(1));
  return [
    "| endpoint | requests | req/s | p50 ms | p99 ms | max ms | errors | SQL req. each | Redis req. each | sequential round trips p50 (SQL / Redis / both) | DB ms each (mean / p50) | SQL endpoint overhead ms each | outside the DB |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| ${row.endpoint} | ${row.requests} | ${row.perSecond.toFixed(0)} | ${ms(row.p50)} | ${ms(row.p99)} | ${ms(row.max)} | ${row.errors} | ${row.sqlPerRequest.toFixed(2)} | ${row.redisPerRequest.toFixed(2)} | ${row.sequential ? `${row.sequential.sql} / ${row.sequential.redis} / ${row.sequential.both}` : "–"} | ${ms(row.databaseMean)} / ${ms(row.databaseP50)} | ${ms(row.stackMean)} | ${(row.outside * 100).toFixed(0)} % |`,
    ),
  ].join("\n");
}

/** Shuffles with a fixed seed, so every run sends the same mix in the same order. */
function shuffled<T>(items: T[]): T[] {
  const random = seededRandom(7);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

async function main() {
  const startedOn = machineLine();
  const databaseUrl = await chooseDatabase();
  const reused = await holdsSites(databaseUrl);
  await ensureDatabase(databaseUrl);
  const stackThread = await startLocalStackThread(databaseUrl, REDIS_URL, { observeCalls: true });
  const stack = stackThread.endpoints;
  log(`database ${new URL(databaseUrl).pathname.slice(1)}${reused ? " (used as it is)" : ""}`);
  log(`stack: ${stack.sqlBackend}; ${stack.redisBackend}`);
  if (!reused) {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    await loadDemoIndexIfEmpty({ databaseUrl: stack.databaseUrl, localHttp: true, count: 3000 });
  }
  const signingVars = loadSigningVars();
  // FETCH_ALLOW_PRIVATE: the checked site is a fixture site on 127.0.0.1, as in the integration tests.
  const vars = { ...measuredWorkerVars(stack, "load"), ...signingVars, FETCH_ALLOW_PRIVATE: "true" };
  const direct = new pg.Client({ connectionString: databaseUrl });
  await direct.connect();
  log("building the Worker's bundle");
  const worker = await startBundledWorker(PORT, vars, Boolean(process.env.LOAD_WORKER_LOG));
  let stopFixture = () => Promise.resolve();
  const stopAll = async () => {
    await stopFixture();
    await direct.end().catch(() => undefined);
    await worker.stop();
    await stackThread.stop();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  }

  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/healthz`, 120_000);
    const fixtureSite = ENDPOINTS.includes("check") ? await serveFixtureSites([CHECKED_SITE]) : undefined;
    stopFixture = () => fixtureSite?.stop() ?? Promise.resolve();
    const checkSite = fixtureSite?.origins[CHECKED_SITE];
    const { rows: siteCount } = await direct.query<{ n: string }>("select count(*) as n from sites");
    const sites = Number(siteCount[0]?.n ?? 0);
    const cases = shuffled(
      [...(await buildSearchCases(direct, demoVocabulary(Math.min(sites, 50_000)))).values()].flat(),
    );
    const { rows: domainRows } = await direct.query<{ domain: string }>(
      "select domain from sites order by domain limit 500 offset (select count(*) / 3 from sites)",
    );
    const domains = domainRows.map((row) => row.domain);
    const topSets = everyTopFilterSet();
    // Site views with the search_id of a live search that returned the domain (each records a
    // selection once per search and domain: later rounds find it recorded).
    const selections: string[] = [];
    for (const testCase of ENDPOINTS.includes("site-selection") ? cases.slice(0, 60) : []) {
      const answer = await fetch(`http://127.0.0.1:${PORT}${searchPath(testCase)}`, {
        headers: { "X-SVC-Synthetic": "true" },
      });
      if (!answer.ok) continue;
      const body = (await answer.json()) as { search_id: string; results: { domain: string }[] };
      for (const result of body.results.slice(0, 3)) {
        selections.push(
          `/api/v1/site/${encodeURIComponent(result.domain)}?search_id=${encodeURIComponent(body.search_id)}`,
        );
      }
    }
    // Action interests: one per result of real (not synthetic) searches, each recorded anew (201);
    // once every result has its receipt, later rounds replay them (200).
    const interests: { searchId: string; domain: string }[] = [];
    if (ENDPOINTS.includes("action-interests")) {
      for (const testCase of cases.slice(0, INTEREST_SEARCHES)) {
        const answer = await fetch(`http://127.0.0.1:${PORT}${searchPath(testCase)}`);
        if (!answer.ok) continue;
        const body = (await answer.json()) as { search_id: string; results: { domain: string }[] };
        for (const result of body.results) interests.push({ searchId: body.search_id, domain: result.domain });
      }
      log(`${interests.length} returned results to record action interests on`);
    }
    const exchange =
      ENDPOINTS.includes("outcomes") || ENDPOINTS.includes("pilot-status")
        ? await setUpExchange(direct, signingVars, { claims: PROVIDER_CLAIMS, tickets: TICKETS })
        : { providerKeys: [], tickets: [] };
    const tickets = new TicketPool(exchange.tickets);
    const every: Target[] = [
      { key: "healthz", name: "/healthz", request: () => ({ path: "/healthz" }) },
      {
        key: "search",
        name: "/api/v1/search",
        request: (n) => ({ path: searchPath(cases[n % cases.length] as SearchCase) }),
        failed: (body) => !(JSON.parse(body) as { receipt_recorded?: boolean }).receipt_recorded,
      },
      {
        key: "top",
        name: "/api/v1/top",
        request: (n) => ({ path: topPath(topSets[(n * 53) % topSets.length] ?? {}, 1 + ((n * 37) % TOP_MAX_LIMIT)) }),
      },
      {
        key: "site",
        name: "/api/v1/site/{domain}",
        request: (n) => ({ path: `/api/v1/site/${encodeURIComponent(domains[n % domains.length] as string)}` }),
      },
      {
        key: "site-selection",
        name: "/api/v1/site/{domain}?search_id",
        request: (n) => ({ path: selections[n % selections.length] as string }),
      },
      {
        key: "action-interests",
        name: "POST /api/v1/action-interests",
        request: () => {
          const interest = interests[interestsSent++ % Math.max(1, interests.length)];
          if (!interest) return null;
          return {
            path: "/api/v1/action-interests",
            body: {
              search_id: interest.searchId,
              domain: interest.domain,
              action_type: "demo",
              caller_attests_principal_interest: true,
              confirmation_version: ACTION_INTEREST_CONFIRMATION_VERSION,
            },
          };
        },
      },
      {
        key: "check",
        name: "POST /api/v1/check",
        request: () => (checkSite ? { path: "/api/v1/check", body: { url: checkSite } } : null),
      },
      {
        key: "outcomes",
        name: "POST /api/v1/provider/outcomes",
        request: () => {
          const taken = tickets.take();
          if (!taken) return null;
          return {
            path: "/api/v1/provider/outcomes",
            body: { attribution_token: taken.ticket.bearer, outcome: taken.outcome },
            headers: { "X-SVC-Provider-Key": taken.ticket.providerKey, "Idempotency-Key": `load-${randomUUID()}` },
            answered: taken.answered,
          };
        },
      },
      {
        key: "pilot-status",
        name: "GET /api/v1/provider/pilot-status",
        request: (n) => {
          const key = exchange.providerKeys[n % Math.max(1, exchange.providerKeys.length)];
          return key ? { path: "/api/v1/provider/pilot-status", headers: { "X-SVC-Provider-Key": key } } : null;
        },
      },
    ];
    const targets = every.filter((target) => ENDPOINTS.includes(target.key));
    const seconds = SECONDS / targets.length;
    log(`${sites} sites; ${cases.length} searches in the mix; ${seconds.toFixed(1)} s per endpoint and concurrency`);

    // A deployed isolate has served before: the first requests of a new one compile and connect.
    for (const target of targets) await hold(target, 4, WARM_UP_SECONDS);
    await stackThread.takeCalls();

    const tables: string[] = [];
    let searchSamples: Sample[] = [];
    let searchRow: Row | undefined;
    for (const rtt of STORE_RTTS) {
      await stackThread.setStoreRtt(rtt);
      // A short warm-up at this distance, then its calls forgotten.
      for (const target of targets) await hold(target, 1, 0.5);
      await stackThread.takeCalls();
      for (const concurrency of CONCURRENCIES) {
        const rows: Row[] = [];
        for (const target of targets) {
          const samples = await hold(target, concurrency, seconds);
          const row = summarise(target.name, samples, await stackThread.takeCalls(), concurrency === 1);
          rows.push(row);
          log(
            `store RTT ${rtt} ms, concurrency ${concurrency}, ${target.name}: ${row.requests} requests, p50 ${row.p50.toFixed(1)} ms`,
          );
          if (rtt === 0 && concurrency === 1 && target.name === "/api/v1/search") {
            searchSamples = samples;
            searchRow = row;
          }
        }
        tables.push(
          `Store round trip ${rtt} ms, concurrency ${concurrency} (${seconds.toFixed(1)} s per endpoint):\n\n${table(rows)}`,
        );
      }
    }
    await stackThread.setStoreRtt(0);

    // The same searches the one client sent, run directly: runSearchQuery over one pg connection,
    // once to warm up, then timed.
    let headline = "";
    if (searchRow && searchSamples.length) {
      const sentCases = searchSamples.map((sample) => cases[sample.n % cases.length] as SearchCase);
      const run = pgBatchRunner(direct);
      for (const testCase of sentCases) await runSearchQuery(run, testCase);
      const times: number[] = [];
      for (const testCase of sentCases) {
        const started = performance.now();
        await runSearchQuery(run, testCase);
        times.push(performance.now() - started);
      }
      const databaseP50 = percentile(
        times.sort((a, b) => a - b),
        50,
      );
      headline = [
        `/search at concurrency 1: end-to-end p50 ${searchRow.p50.toFixed(1)} ms; the same ${times.length} searches`,
        `through runSearchQuery over one pg connection: p50 ${databaseP50.toFixed(1)} ms;`,
        `ratio ${(searchRow.p50 / databaseP50).toFixed(2)}× (target ≤ 2×). Postgres time the stack saw per`,
        `search (search, receipt and disclosure): p50 ${(searchRow.databaseP50 ?? 0).toFixed(1)} ms.`,
      ].join(" ");
    }

    console.log(`\nStarted ${startedOn}\nEnded ${machineLine()}`);
    console.log(`${sites} sites; ${stack.sqlBackend}; ${stack.redisBackend}; ${CLIENTS} client addresses.\n`);
    console.log(tables.join("\n\n"));
    if (headline) console.log(`\n${headline}`);
  } finally {
    await stopAll();
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
