/**
 * What a running `npm start` leaves for the other local commands (`npm run operator`,
 * `npm run cron`) to find it by: one JSON file per run in .data/runs/ (git-ignored), named after
 * the port it serves, removed when it stops. A file whose process is gone is stale and ignored.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Where the records are; LOCAL_RUNS_DIR moves them (tests that must not see each other's runs). */
export const RUNS_DIR = process.env.LOCAL_RUNS_DIR || ".data/runs";

export interface LocalRun {
  /** The `npm start` process. */
  pid: number;
  /** Where clients reach it (the local edge). */
  port: number;
  /** wrangler dev's own port behind the edge: where its scheduled handler is triggered. */
  wranglerPort: number;
  /** The stack's database, as scripts reach it (SQL over HTTP). */
  databaseUrl: string;
  /** Each cron expression the Worker runs, with the names of its tasks. */
  crons: { cron: string; tasks: string[] }[];
  startedAt: string;
}

/** Records `run`; returns a function that removes the record. */
export function recordLocalRun(run: LocalRun, dir = RUNS_DIR): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${run.port}.json`);
  writeFileSync(file, `${JSON.stringify(run, null, 2)}\n`, { mode: 0o600 });
  return () => rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The runs whose process still runs, oldest first. */
export function runningLocalRuns(dir = RUNS_DIR): LocalRun[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .flatMap((name) => {
      try {
        return [JSON.parse(readFileSync(join(dir, name), "utf8")) as LocalRun];
      } catch {
        return [];
      }
    })
    .filter((run) => Number.isInteger(run.pid) && alive(run.pid))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/**
 * The one running local stack a command should act on: the one on `port` when given (PORT),
 * else the only one running. Throws a message saying what to do when there is none or several.
 */
export function findLocalRun(options: { port?: string; dir?: string } = {}): LocalRun {
  const runs = runningLocalRuns(options.dir);
  if (options.port) {
    const onPort = runs.find((run) => String(run.port) === options.port);
    if (onPort) return onPort;
    throw new Error(
      `no running \`npm start\` on port ${options.port} was found in ${options.dir ?? RUNS_DIR}${runs.length ? ` (running: ports ${runs.map((run) => run.port).join(", ")})` : ""}`,
    );
  }
  if (runs.length === 1) return runs[0]!;
  if (runs.length === 0) {
    throw new Error("no running `npm start` was found: start one, or set DATABASE_URL to act on another database");
  }
  throw new Error(
    `${runs.length} local stacks are running (ports ${runs.map((run) => run.port).join(", ")}): name one with PORT=<port>`,
  );
}
