/** `npm start` as the end-to-end tests run it: on a free port, its output kept, its group stopped. */
import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "../../scripts/wrangler-dev.ts";
import { LOADED_MACHINE_STORE_TIMEOUTS } from "./stack-settings.ts";

/**
 * The origins of the services started here: their API answers are held to their OpenAPI document
 * (test/support/e2e-contract.ts).
 */
export const serviceOrigins = new Set<string>();

/**
 * Polls `url` until its status satisfies `accept`; gives the response and the time it took. With
 * `process`, gives up as soon as that process has exited: a service whose process died (wrangler
 * failing to bind a port, say) will never answer, and waiting out the deadline only hides why.
 */
export async function pollStatus(
  url: string,
  accept: (status: number) => boolean,
  deadlineMs: number,
  process?: ChildProcess,
) {
  const started = Date.now();
  const exited = () => process !== undefined && (process.exitCode !== null || process.signalCode !== null);
  while (Date.now() - started < deadlineMs) {
    const response = await fetch(url).catch(() => undefined);
    if (response && accept(response.status)) return { response, elapsedMs: Date.now() - started };
    if (exited()) {
      throw new Error(`${url} never answered: its process exited (${process?.exitCode ?? process?.signalCode})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer as expected within ${deadlineMs} ms`);
}

/**
 * How long a start may take before a test gives up on it. Quiet, `npm start` answers /healthz in
 * about 30 s (the README); beside the first group's five files on 2 cores its 3,000 demo sites
 * took over 60 s. A test waits for the start rather than timing it: a slow machine is not a broken
 * service.
 */
export const SERVICE_START_WITHIN_MS = 180_000;

export interface RunningService {
  origin: string;
  /** The process group of this `npm start` (npm's pid): everything it started runs in it. */
  group: number;
  /** Everything `npm start` has printed so far. */
  output(): string;
  /** Ends the stack and wrangler with it (npm start runs in its own process group). */
  stop(): void;
}

/** A `npm start` that has been spawned but may not answer yet. */
export interface LaunchedService extends RunningService {
  /**
   * Resolves once /healthz answers 200; otherwise stops the service and rejects with why and
   * everything it printed (at once if its process exits, else after `withinMs`).
   */
  ready(withinMs: number): Promise<void>;
}

/**
 * Starts `npm start` with `env` over the caller's environment (and `args` after `--`), on free
 * ports, never in front of the test servers unless `env` names them, and waits until /healthz
 * answers 200.
 */
export async function startService(
  env: Record<string, string>,
  readyWithinMs = 90_000,
  args: string[] = [],
): Promise<RunningService> {
  const service = await launchService(env, args);
  await service.ready(readyWithinMs);
  return service;
}

/**
 * Spawns `npm start` as startService does, without waiting for it to answer. The ports of its
 * outbox and DNS zone are free ones it picks unless `env` names them (`LOCAL_MAIL_PORT`,
 * `LOCAL_DNS_PORT`).
 */
export async function launchService(env: Record<string, string>, args: string[] = []): Promise<LaunchedService> {
  const port = await freePort();
  const printed: string[] = [];
  const child = spawn("npm", ["start", ...(args.length ? ["--", ...args] : [])], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: "",
      REDIS_URL: "",
      TEST_DATABASE_URL: "",
      TEST_REDIS_URL: "",
      LOCAL_MAIL_PORT: "0",
      LOCAL_DNS_PORT: "0",
      // The stores' silences the integration stack allows (stack-settings.ts).
      ...LOADED_MACHINE_STORE_TIMEOUTS,
      ...env,
      PORT: String(port),
      LOCAL_SQL_PORT: "0",
      LOCAL_REDIS_PORT: "0",
      LOCAL_STRIPE_PORT: "0",
    },
  });
  child.stdout?.on("data", (chunk) => printed.push(String(chunk)));
  child.stderr?.on("data", (chunk) => printed.push(String(chunk)));
  serviceOrigins.add(`http://127.0.0.1:${port}`);
  const service: LaunchedService = {
    origin: `http://127.0.0.1:${port}`,
    group: child.pid ?? 0,
    output: () => printed.join(""),
    stop: () => {
      // The whole group, even when npm itself has already exited: what it started (wrangler,
      // workerd) may still run, and would burn the next tests' time.
      const group = child.pid;
      if (!group) return;
      const signal = (name: NodeJS.Signals) => {
        try {
          process.kill(-group, name);
        } catch (error) {
          // The group may already be gone (it died on its own): nothing is left to stop, and the
          // caller's own error, with the service's output, is the one worth reporting.
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
      };
      signal("SIGTERM");
      // A workerd left spinning by a start that failed half-way has been seen to ignore SIGTERM.
      setTimeout(() => signal("SIGKILL"), 10_000).unref();
    },
    ready: (withinMs) =>
      pollStatus(`${service.origin}/healthz`, (status) => status === 200, withinMs, child).then(
        () => undefined,
        (error) => {
          service.stop();
          throw new Error(`${error.message}\n${service.output()}`);
        },
      ),
  };
  return service;
}

/**
 * Runs `npm start` (with `env` and `args`, on free ports as startService does) expecting it to
 * stop by itself before serving; resolves with its exit code and everything it printed.
 */
export async function startServiceExpectingRefusal(
  env: Record<string, string>,
  args: string[] = [],
  withinMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  const child = spawn("npm", ["start", ...(args.length ? ["--", ...args] : [])], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: "",
      REDIS_URL: "",
      TEST_DATABASE_URL: "",
      TEST_REDIS_URL: "",
      ...env,
      PORT: String(port),
      LOCAL_SQL_PORT: "0",
      LOCAL_REDIS_PORT: "0",
      LOCAL_MAIL_PORT: "0",
      LOCAL_DNS_PORT: "0",
      LOCAL_STRIPE_PORT: "0",
    },
  });
  const printed: string[] = [];
  child.stdout?.on("data", (chunk) => printed.push(String(chunk)));
  child.stderr?.on("data", (chunk) => printed.push(String(chunk)));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }, withinMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output: printed.join("") });
    });
  });
}
