import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { SETTING_NAMES } from "../src/config.ts";
import { type LocalEdge, startLocalEdge } from "./local-edge.ts";

/**
 * Where each `wrangler dev` run's settings file lives while it runs (git-ignored, as all of
 * .data/ is): one per run, so two runs of one checkout never read each other's secrets.
 */
export const DEV_VARS_DIR = ".data/dev-vars";

/**
 * One setting as a line of the dotenv file wrangler reads (`--env-file`): quoted with a quote
 * the value does not hold, and every `$` escaped, because wrangler expands `$NAME` in the file's
 * values (dotenv-expand) and `\$` is how that expansion is told to keep a dollar sign.
 */
export function dotenvLine(name: string, value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`${name} is not a setting name`);
  const escaped = value.replace(/\$/g, () => "\\$");
  // Single quotes and backticks keep everything between them as it is; double quotes would turn
  // the two characters \n into a line break.
  const quote = ["'", "`", '"'].find((candidate) => !escaped.includes(candidate));
  if (!quote || (quote === '"' && escaped.includes("\\n"))) {
    throw new Error(`the value of ${name} cannot be written to a dotenv file (it holds ', \` and ")`);
  }
  return `${name}=${quote}${escaped}${quote}`;
}

/**
 * Writes `vars` to a dotenv file only its owner can read (mode 0600 in a 0700 folder), for
 * wrangler's `--env-file`; returns its path. Secrets go there and never on a command line, which
 * every user of the machine can read (`ps`).
 */
export function writeDevVars(vars: Record<string, string>, name: string, dir = DEV_VARS_DIR): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = resolve(dir, `${name}.env`);
  const lines = Object.entries(vars).map(([key, value]) => dotenvLine(key, value));
  // Removed first so that the mode below is the file's even when an earlier run left one.
  rmSync(file, { force: true });
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return file;
}

/**
 * Runs `wrangler dev` on 127.0.0.1:`port` with the Worker settings, and without the network calls
 * wrangler would make on its own (metrics, Cloudflare's cf object). The settings, secrets among
 * them, reach wrangler in a dotenv file of this run (`writeDevVars`, `--env-file`), removed when
 * wrangler exits, never as `--var NAME:value` on its command line; wrangler's environment carries
 * none of the Worker's setting names either, so a value set in the caller's environment cannot
 * stand in for the file's. Clients should reach it through the local edge (`startLocalWorker`),
 * as they reach a deployed Worker through Cloudflare's.
 */
export function spawnWranglerDev(
  port: number | string,
  vars: Record<string, string>,
  { inspectorPort, ...options }: Pick<SpawnOptions, "stdio" | "detached"> & { inspectorPort?: number } = {},
): ChildProcess {
  const envFile = writeDevVars(vars, `wrangler-${port}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
  };
  for (const name of SETTING_NAMES) delete env[name];
  // Wrangler would otherwise add its whole environment to the file's values.
  delete env.CLOUDFLARE_INCLUDE_PROCESS_ENV;
  const wrangler = spawn(
    process.execPath,
    [
      "node_modules/wrangler/bin/wrangler.js",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      ...inspectorPortArgs(inspectorPort),
      "--show-interactive-dev-session=false",
      "--env-file",
      envFile,
    ],
    { ...options, env },
  );
  const remove = () => rmSync(envFile, { force: true });
  wrangler.once("exit", remove);
  wrangler.once("error", remove);
  // The caller may end itself (process.exit) before wrangler's exit is seen.
  process.once("exit", remove);
  return wrangler;
}

// wrangler dev's note, printed once at start, that it never fires scheduled handlers, with a curl
// line for its own (internal) port: `npm start` fires them itself (scripts/local-crons.ts).
const SCHEDULED_NOTE_START = /Scheduled Workers are not automatically triggered/;
const SCHEDULED_NOTE_END = /test-cron-triggers-locally/;
const SCHEDULED_NOTE_MOST_LINES = 10;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour sequences are what is removed
const ANSI_SEQUENCE = /\x1b\[[0-9;]*m/g;

/**
 * A line filter for wrangler dev's output as `npm start` shows it: everything passes unchanged
 * except wrangler's note that scheduled Workers are not triggered locally, with its curl line for
 * wrangler's internal port, which is replaced by `replacement`. Feed it lines; it returns the lines
 * to show.
 */
export function wranglerOutputFilter(replacement: string): (line: string) => string[] {
  let dropping = 0;
  let dropBlank = false;
  return (line) => {
    const plain = line.replace(ANSI_SEQUENCE, "");
    if (dropping > 0) {
      dropping = SCHEDULED_NOTE_END.test(plain) ? 0 : dropping - 1;
      if (dropping === 0) dropBlank = true;
      return [];
    }
    if (dropBlank) {
      dropBlank = false;
      if (plain.trim() === "") return [];
    }
    if (SCHEDULED_NOTE_START.test(plain)) {
      if (SCHEDULED_NOTE_END.test(plain)) dropBlank = true;
      else dropping = SCHEDULED_NOTE_MOST_LINES;
      return [replacement];
    }
    return [line];
  };
}

/**
 * The inspector port of a `wrangler dev`: one of its own when given. Left to wrangler, every
 * `wrangler dev` on the machine asks for 9229 and falls back to another only if 9229 looked
 * taken when it checked, so two starting at once (two e2e files, another checkout's `npm start`)
 * both take it and one dies ("Address already in use (127.0.0.1:9229)").
 */
export function inspectorPortArgs(inspectorPort: number | undefined): string[] {
  return inspectorPort === undefined ? [] : ["--inspector-port", String(inspectorPort)];
}

/** Ports above Linux's ephemeral range (32768–60999): the system never hands them out on its own. */
const CHOSEN_PORTS = { first: 61_000, count: 4_000 };

/**
 * A port free right now on 127.0.0.1, for a server that will listen on it a little later. It is
 * chosen above the ephemeral range rather than by asking the system for port 0: a port the system
 * gave out once it may give any other process's outgoing connection or `listen(0)` meanwhile (two
 * `npm start` side by side took each other's ports that way).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = CHOSEN_PORTS.first + Math.floor(Math.random() * CHOSEN_PORTS.count);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port among ${CHOSEN_PORTS.count} above ${CHOSEN_PORTS.first}`);
}

/** `wrangler dev` behind the local edge. */
export interface LocalWorker {
  wrangler: ChildProcess;
  edge: LocalEdge;
  /** wrangler dev's own port behind the edge (its scheduled-handler trigger is there). */
  wranglerPort: number;
  /** Stops the edge, and wrangler's process group when it was started detached. */
  stop(): Promise<void>;
}

/**
 * Serves the Worker on 127.0.0.1:`port` as production does: `wrangler dev` on a private port
 * behind the local edge, which sets CF-Connecting-IP from the connection as Cloudflare does
 * (scripts/local-edge.ts), so no client can choose the address it is counted as.
 */
export async function startLocalWorker(
  port: number | string,
  vars: Record<string, string>,
  {
    edgeAfter,
    onSpawn,
    ...options
  }: Pick<SpawnOptions, "stdio" | "detached"> & {
    /**
     * The edge opens `port` only once this has resolved (a rejection stops wrangler and is
     * thrown): wrangler bundles the Worker and starts workerd meanwhile, so `npm start` builds
     * the Worker while it migrates and loads the database, and no client reaches a Worker whose
     * database is not ready yet.
     */
    edgeAfter?: Promise<unknown>;
    /** Called with wrangler's process as soon as it is spawned (its output, its exit). */
    onSpawn?: (wrangler: ChildProcess) => void;
  } = {},
): Promise<LocalWorker> {
  const wranglerPort = await freePort();
  const wrangler = spawnWranglerDev(wranglerPort, vars, { ...options, inspectorPort: await freePort() });
  onSpawn?.(wrangler);
  let edge: LocalEdge;
  try {
    await edgeAfter;
    // The edge serves loopback names and the Worker's public origin only (DNS rebinding).
    edge = await startLocalEdge(Number(port), wranglerPort, {
      publicOrigins: vars.PUBLIC_ORIGIN ? [vars.PUBLIC_ORIGIN] : [],
    });
  } catch (error) {
    // The edge's port was taken, or what it waited for failed: wrangler (and its workerd) must
    // not outlive this failed start.
    stopWrangler(wrangler, options.detached);
    throw error;
  }
  return {
    wrangler,
    edge,
    wranglerPort,
    async stop() {
      stopWrangler(wrangler, options.detached);
      await edge.stop();
    },
  };
}

/** Ends wrangler dev, with its whole process group when it was started detached. */
function stopWrangler(wrangler: ChildProcess, detached: boolean | undefined): void {
  if (detached && wrangler.pid && wrangler.exitCode === null) {
    try {
      process.kill(-wrangler.pid, "SIGTERM");
    } catch {
      // already gone
    }
  } else if (wrangler.exitCode === null) wrangler.kill("SIGTERM");
}
