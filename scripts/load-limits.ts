/**
 * `npm run load:limits`: LOAD_TRIALS (default 20) bursts of LOAD_BURST (default 300) simultaneous
 * searches from one client against the free search limit (240 per hour), through the local edge
 * to the Worker's deployable bundle in workerd (scripts/bundled-worker.ts: no `wrangler dev` proxy
 * in between) and the local stack in front of a real Postgres and a real Redis, with the
 * Worker's default settings. Each trial is a new client: its requests leave from a loopback
 * address of their own (127.0.0.2, 127.0.0.3, …), which the edge reports as CF-Connecting-IP, so
 * each starts with a fresh window. The stack runs in a worker thread, the Worker is warmed with a
 * few searches first (as a deployed isolate is), and no trial straddles an hourly window's edge.
 * Target: exactly 240 served (200) and 60 refused (429) in every trial; exits 1 otherwise. Prints a Markdown table with the machine and the date. Talks to
 * 127.0.0.1 only, and stops the Worker and the stack when done (or interrupted).
 *
 * Settings: LOAD_DATABASE_URL (a Postgres server database, created when missing; default
 * postgres://postgres@127.0.0.1:5432/agent_readiness_load), LOAD_REDIS_URL (default
 * redis://127.0.0.1:6379/11), LOAD_PORT (default 8795), LOAD_TRIALS, LOAD_BURST,
 * LOAD_REDIS_QUEUE_MS (default 0: off) to put Redis behind a queue that answers one call at a time,
 * each after that many ms (scripts/fault-proxy.ts), as a busy machine or a far Redis makes a burst
 * look, LOAD_WORKER_LOG=1 to see the Worker's log.
 */
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import IORedis from "ioredis";
import { hashedIdentity } from "../src/http/client-identity.ts";
import { startBundledWorker } from "./bundled-worker.ts";
import { startFaultProxy } from "./fault-proxy.ts";
import { ensureDatabase, machineLine, startLocalStackThread, waitForHttp } from "./measure-support.ts";
import { migrate } from "./migrate.ts";
import { loadDemoIndexIfEmpty } from "./seed-demo.ts";

const DATABASE_URL = process.env.LOAD_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/agent_readiness_load";
const REDIS_URL = process.env.LOAD_REDIS_URL ?? "redis://127.0.0.1:6379/11";
const PORT = Number(process.env.LOAD_PORT ?? 8795);
const TRIALS = Number(process.env.LOAD_TRIALS ?? 20);
const BURST = Number(process.env.LOAD_BURST ?? 300);
const REDIS_QUEUE_MS = Number(process.env.LOAD_REDIS_QUEUE_MS ?? 0);
const SEARCH_LIMIT = 240;

const log = (line: string) => console.log(`[load] ${line}`);

interface Answer {
  status: number;
  ms: number;
}

/** One GET from `localAddress`, on a connection of its own, so the edge sees that address. */
function get(agent: Agent, localAddress: string, path: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(
      { host: "127.0.0.1", port: PORT, path, agent, localAddress, headers: { "X-SVC-Synthetic": "true" } },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    // No answer within two minutes (or a connection error) is reported as status 0, not waited for.
    outgoing.setTimeout(120_000, () => outgoing.destroy(new Error("no answer within 120 s")));
    outgoing.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    outgoing.end();
  });
}

/** Waits until a burst fits inside one hourly window (the sliding window weighs the previous one in). */
async function awayFromWindowEdge(seconds: number) {
  const intoWindow = (Date.now() / 1000) % 3600;
  if (intoWindow + seconds < 3600) return;
  const wait = (3600 - intoWindow + 1) * 1000;
  log(`waiting ${Math.round(wait / 1000)} s for the next hourly window`);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

interface Trial {
  trial: number;
  client: string;
  /** The count Redis holds for the client's window after the burst. */
  counted: number;
  served: number;
  refused: number;
  other: string;
  p50: number;
  max: number;
}

async function main() {
  const startedOn = machineLine();
  await ensureDatabase(DATABASE_URL);
  const { endpoints: stack, stop: stopStack } = await startLocalStackThread(DATABASE_URL, REDIS_URL);
  log(`stack: ${stack.sqlBackend}; ${stack.redisBackend}`);
  await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  await loadDemoIndexIfEmpty({ databaseUrl: stack.databaseUrl, localHttp: true, count: 3000 });
  const redisQueue = REDIS_QUEUE_MS > 0 ? await startFaultProxy(stack.redisRestUrl) : undefined;
  await redisQueue?.setMode("queue", { delayMs: REDIS_QUEUE_MS });
  const vars = {
    DATABASE_URL: stack.databaseUrl,
    DATABASE_LOCAL_HTTP: "true",
    UPSTASH_REDIS_REST_URL: redisQueue?.url ?? stack.redisRestUrl,
    UPSTASH_REDIS_REST_TOKEN: stack.redisRestToken,
    // A fresh prefix and key: no window of an earlier run is met.
    REDIS_KEY_PREFIX: `load-${Date.now()}`,
    RATE_LIMIT_KEY_SECRET: randomBytes(32).toString("base64url"),
  };
  const worker = await startBundledWorker(PORT, vars, Boolean(process.env.LOAD_WORKER_LOG));
  const redis = new IORedis(REDIS_URL);
  const stopAll = async () => {
    redis.disconnect();
    await worker.stop();
    await redisQueue?.stop();
    await stopStack();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  }

  const trials: Trial[] = [];
  try {
    await waitForHttp(`http://127.0.0.1:${PORT}/healthz`, 120_000);
    const agent = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    // A deployed isolate has served before; the first requests of a new one compile and connect.
    for (let i = 0; i < 5; i++) await get(agent, "127.0.0.254", `/api/v1/search?q=warm${i}`);
    for (let trial = 1; trial <= TRIALS; trial++) {
      await awayFromWindowEdge(90);
      const client = `127.0.0.${trial + 1}`;
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, index) =>
          get(agent, client, `/api/v1/search?q=data&page=${(index % 3) + 1}`),
        ),
      );
      const statuses = new Map<number, number>();
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
      const other = [...statuses].filter(([status]) => status !== 200 && status !== 429);
      // What Redis holds for this client's window: the search limit's key, as the Worker names it.
      const identifier = await hashedIdentity(vars.RATE_LIMIT_KEY_SECRET, `ip4:${client}`);
      const windowKey = `${vars.REDIS_KEY_PREFIX}:ratelimit:search:${identifier}:${Math.floor(Date.now() / 3_600_000)}`;
      const row: Trial = {
        trial,
        client,
        counted: Number((await redis.get(windowKey)) ?? 0),
        served: statuses.get(200) ?? 0,
        refused: statuses.get(429) ?? 0,
        other: other.length ? other.map(([status, n]) => `${n} × ${status}`).join(", ") : "none",
        p50: percentile(times, 0.5) ?? 0,
        max: times.at(-1) ?? 0,
      };
      trials.push(row);
      log(
        `trial ${trial} (${client}): ${row.served} served, ${row.refused} refused, other ${row.other}; counted in Redis ${row.counted}; p50 ${row.p50.toFixed(0)} ms, max ${row.max.toFixed(0)} ms`,
      );
    }
  } finally {
    await stopAll();
  }

  const exact = trials.filter((row) => row.served === SEARCH_LIMIT && row.refused === BURST - SEARCH_LIMIT).length;
  console.log(`\nStarted ${startedOn}\nEnded ${machineLine()}`);
  console.log(REDIS_QUEUE_MS > 0 ? `Redis behind a queue of ${REDIS_QUEUE_MS} ms per call.\n` : "");
  console.log("| trial | served (200) | refused (429) | other | counted in Redis | p50 ms | max ms |");
  console.log("|---|---|---|---|---|---|---|");
  for (const row of trials) {
    console.log(
      `| ${row.trial} | ${row.served} | ${row.refused} | ${row.other} | ${row.counted} | ${row.p50.toFixed(0)} | ${row.max.toFixed(0)} |`,
    );
  }
  console.log(`\n${exact} of ${trials.length} trials served exactly ${SEARCH_LIMIT} of ${BURST}.`);
  process.exit(exact === trials.length ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
