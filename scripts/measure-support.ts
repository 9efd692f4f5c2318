/** What the load and fault scripts share: their database, waiting for the Worker, and where a figure comes from. */
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import pg from "pg";
import type { ServedCall } from "./local-stack/served-calls.ts";

/** Creates the database beside the server's `postgres` one when it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const server = new URL(url);
  server.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  try {
    const exists = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (exists.rowCount === 0) await admin.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

/** Polls `url` until it answers 200. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The `p`th percentile (0–100, nearest rank) of ascending `sorted`; 0 for none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The machine and moment a figure belongs to. */
export function machineLine(): string {
  const cpu = cpus();
  const load = loadavg().map((value) => value.toFixed(1));
  return `${new Date().toISOString()}; ${cpu.length} × ${cpu[0]?.model.trim() ?? "CPU"}; Node ${process.version}; load average ${load.join(" / ")}`;
}

/** The local stack's endpoints, as it prints them once ready. */
export interface StackEndpoints {
  databaseUrl: string;
  redisRestUrl: string;
  redisRestToken: string;
  sqlBackend: string;
  redisBackend: string;
}

/**
 * The Worker's settings for a measured run on the local stack: a fresh key prefix and rate-limit
 * key, so that no rate-limit window or cached list of an earlier run is met.
 */
export function measuredWorkerVars(
  stack: Pick<StackEndpoints, "databaseUrl" | "redisRestUrl" | "redisRestToken">,
  run: string,
): Record<string, string> {
  return {
    DATABASE_URL: stack.databaseUrl,
    DATABASE_LOCAL_HTTP: "true",
    UPSTASH_REDIS_REST_URL: stack.redisRestUrl,
    UPSTASH_REDIS_REST_TOKEN: stack.redisRestToken,
    REDIS_KEY_PREFIX: `${run}-${Date.now()}`,
    RATE_LIMIT_KEY_SECRET: randomBytes(32).toString("base64url"),
  };
}

/** The local stack in its thread. */
export interface StackThread {
  endpoints: StackEndpoints;
  /**
   * The SQL and Redis requests the stack answered since the last call (with `observeCalls`;
   * otherwise always empty).
   */
  takeCalls(): Promise<ServedCall[]>;
  /** Sets the round trip the stack adds to every SQL and Redis request (LOCAL_STORE_RTT_MS). */
  setStoreRtt(ms: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the local stack, in front of these servers, in a worker thread: a burst's client work
 * and the stack's never share one event loop, and the stack lives exactly as long as this process.
 * With `observeCalls` the stack records what each SQL and Redis request cost (`takeCalls`).
 */
export function startLocalStackThread(
  databaseUrl: string,
  redisUrl: string,
  { observeCalls = false }: { observeCalls?: boolean } = {},
): Promise<StackThread> {
  // A thread does not inherit tsx's loader: it registers it before loading the TypeScript entry.
  const entry = new URL("./local-stack-thread.ts", import.meta.url).href;
  const thread = new Worker(
    `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: { databaseUrl, redisUrl, sqlPort: 0, redisPort: 0, observeCalls } },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      thread.on("message", (message: { stopped?: boolean }) => {
        if (message.stopped) void thread.terminate().then(() => resolve());
      });
      thread.postMessage("stop");
    });
  const takeCalls = () =>
    new Promise<ServedCall[]>((resolve) => {
      const receive = (message: { calls?: ServedCall[] }) => {
        if (!message.calls) return;
        thread.off("message", receive);
        resolve(message.calls);
      };
      thread.on("message", receive);
      thread.postMessage("take-calls");
    });
  const setStoreRtt = (ms: number) =>
    new Promise<void>((resolve) => {
      const receive = (message: { storeRttSet?: boolean }) => {
        if (!message.storeRttSet) return;
        thread.off("message", receive);
        resolve();
      };
      thread.on("message", receive);
      thread.postMessage({ storeRttMs: ms });
    });
  return new Promise((resolve, reject) => {
    thread.once("error", reject);
    thread.on("message", (message: StackEndpoints & { ready?: boolean }) => {
      if (message.ready) resolve({ endpoints: message, takeCalls, setStoreRtt, stop });
    });
  });
}
