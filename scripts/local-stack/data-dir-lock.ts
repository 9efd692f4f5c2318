/**
 * The embedded database's folder belongs to one running stack at a time. PGlite is Postgres in
 * one process, with no lock of its own between processes: two stacks opening one folder (two
 * `npm start`s of one checkout on different PORTs) both write it, and afterwards every start dies
 * in PGlite with `RuntimeError: Aborted()`. So the stack takes a lock file beside the folder
 * (`<folder>.lock`, e.g. `.data/pglite.lock`) before it opens it:
 *
 * - created exclusively (O_EXCL), holding the holder's pid, the port of the `npm start` it serves,
 *   its command line and when it started;
 * - a second stack finding it held by a running process refuses, naming that process and port;
 * - a lock whose process is gone (killed, the machine restarted) is stale and taken over, and the
 *   takeover is said; so is one whose pid now belongs to another program (pid reuse), told by
 *   the command line Linux keeps in /proc;
 * - removed when the stack stops.
 *
 * A folder PGlite cannot open (damaged, unreadable) is a `DataDirUnusableError` with what to do:
 * `setAsideDataDir` moves it aside (never deletes it) so a fresh database can start.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface DataDirLockHolder {
  pid: number;
  /** The PORT of the `npm start` this stack serves, when it serves one. */
  port?: number;
  /** The holder's command line, to tell its pid from a later process's. */
  command: string;
  startedAt: string;
}

/** The lock file of a data folder: beside it, so the folder holds PGlite's files only. */
export function lockFileOf(dataDir: string): string {
  return join(dirname(dataDir), `${basename(dataDir)}.lock`);
}

/** A data folder another running process holds. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirLockHolder,
  ) {
    const what = holder.port ? `the \`npm start\` on port ${holder.port}` : "another local stack";
    super(
      `The embedded database ${dataDir} is in use by ${what} (pid ${holder.pid}, started ${holder.startedAt}). ` +
        "Two runs on one folder would damage it. Stop that run first, or give this one its own database: " +
        `PGLITE_DATA_DIR=${dataDir}-2 PORT=<another port> npm start (or PGLITE_DATA_DIR=memory for a throw-away one).`,
    );
    this.name = "DataDirLockedError";
  }
}

/** A data folder PGlite could not open. */
export class DataDirUnusableError extends Error {
  constructor(
    readonly dataDir: string,
    cause: unknown,
  ) {
    super(
      `The embedded database ${dataDir} could not be opened (${String(cause)}). It may be damaged (two runs ` +
        "wrote it at once, or a run was killed while writing) or not readable by you. " +
        "To start with a fresh database and keep the old files, run `npm start -- --fresh-database`: it moves " +
        `${dataDir} aside to ${dataDir}.set-aside-<time> (nothing is deleted) and starts anew.`,
    );
    this.name = "DataDirUnusableError";
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A process's command line as Linux keeps it (/proc/<pid>/cmdline); undefined elsewhere. */
function commandLineOf(pid: number | "self"): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return undefined;
  }
}

/** Whether the process `holder` names still runs the holder's program (not a reused pid). */
function holderRuns(holder: DataDirLockHolder): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0 || !running(holder.pid)) return false;
  // Compared as the kernel spells both (process.argv drops Node's own options, such as --import).
  const command = commandLineOf(holder.pid);
  return command === undefined || command === holder.command;
}

function readHolder(file: string): DataDirLockHolder | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as DataDirLockHolder;
  } catch {
    return undefined;
  }
}

/** What a held lock is: released by `release` (only while it is still this process's). */
export interface DataDirLock {
  file: string;
  /** The holder whose stale lock was taken over, if there was one. */
  tookOverFrom?: DataDirLockHolder;
  release(): void;
}

/**
 * Takes the lock of `dataDir` for this process, serving `port`; throws DataDirLockedError when a
 * running process holds it. A stale lock is taken over (`tookOverFrom` says whose it was).
 */
export function lockDataDir(dataDir: string, port?: number): DataDirLock {
  const file = lockFileOf(dataDir);
  const me: DataDirLockHolder = {
    pid: process.pid,
    ...(port ? { port } : {}),
    command: commandLineOf("self") ?? process.argv.join(" "),
    startedAt: new Date().toISOString(),
  };
  let tookOverFrom: DataDirLockHolder | undefined;
  mkdirSync(dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(me, null, 2)}\n`, { flag: "wx", mode: 0o600 });
      const release = () => {
        if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
        process.off("exit", release);
      };
      // A stack ended by process.exit still leaves the folder free.
      process.on("exit", release);
      return { file, tookOverFrom, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(file);
    if (holder && holderRuns(holder)) throw new DataDirLockedError(dataDir, holder);
    // Stale (its process is gone) or unreadable (a write cut short): taken over. Renamed away
    // first, so that of two stacks taking over at once only one removes it and both then race
    // on the exclusive create above.
    tookOverFrom = holder ?? { pid: 0, command: "(unreadable lock file)", startedAt: "?" };
    try {
      renameSync(file, `${file}.stale-${process.pid}`);
      rmSync(`${file}.stale-${process.pid}`, { force: true });
    } catch {
      // Another stack took it over first; the next attempt sees its lock.
    }
  }
  const holder = readHolder(file);
  if (holder) throw new DataDirLockedError(dataDir, holder);
  throw new Error(`could not take the lock ${file}`);
}

/**
 * Moves a data folder aside, to `<folder>.set-aside-<time>`, so a fresh database can start in
 * its place; returns where it went, or undefined when there was nothing to move. Never deletes.
 */
export function setAsideDataDir(dataDir: string, now = new Date()): string | undefined {
  if (!existsSync(dataDir)) return undefined;
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  let target = `${dataDir}.set-aside-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${dataDir}.set-aside-${stamp}-${n}`;
  renameSync(dataDir, target);
  return target;
}
