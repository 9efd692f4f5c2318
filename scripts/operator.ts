/**
 * The operator's commands for the provider exchange: the service's own acts, never endpoints.
 * Acts on the database DATABASE_URL names (with DATABASE_LOCAL_HTTP=true for SQL over HTTP), or,
 * without DATABASE_URL, on the database of the running `npm start`, found by itself
 * (scripts/local-run.ts; with several running, PORT names the one). It says on stderr which
 * database it acts on, before acting. Every act is recorded in operator_acts with who did it and when: the operator
 * is named by `--by <name>` or, failing that, the OPERATOR environment variable; without one,
 * nothing is done.
 *
 * Usage:
 *   npm run operator -- list-pending
 *   npm run operator -- owner-verify-acceptance <acceptance_id> --by <name>
 *   npm run operator -- activate-offer <offer_id> --by <name>
 *   npm run operator -- retention-status
 *   npm run operator -- import <file> [--rate <crawls per minute>] [--batch <lines>] [--allow-private]
 *
 * `import` (src/domain/crawling/crawl-leads.ts; docs/operations.md, "Seed imports") reads a plain
 * list of domains or URLs, or the MCP Registry's server list JSON, and records each site not yet
 * indexed or imported as a lead whose crawl the checks group's cron queues at the given rate. It
 * changes nobody's rights or money, so it names no operator; the leads themselves record when and
 * from what kind of list they came. Bad lines are reported on stderr and counted, never fatal; a
 * progress line follows each batch; the summary is the JSON on stdout.
 *
 * Prints one JSON object on success (exit 0); on refusal prints the reason on stderr (exit 1);
 * a usage error exits 2.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createDatabase } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";
import {
  IMPORT_BATCH_SIZE,
  IMPORT_DEFAULT_PER_MINUTE,
  type ImportProgress,
  importLeads,
} from "../src/domain/crawling/crawl-leads.ts";
import { DomainError } from "../src/domain/errors.ts";
import { checkRetentionLag } from "../src/domain/health/retention-lag.ts";
import { activateOffer, listPending, ownerVerifyAcceptance } from "../src/domain/offers/operator-acts.ts";
import { findLocalRun, type LocalRun } from "./local-run.ts";

const USAGE = `usage: npm run operator -- <command> [argument] [--by <operator>]
  list-pending                              acceptances awaiting owner verification, drafts ready to activate
  owner-verify-acceptance <acceptance_id>   record that the owner confirmed this provider acceptance
  activate-offer <offer_id>                 activate a draft whose current terms carry a verified acceptance
  retention-status                          how long the oldest record past its retention has been overdue
  import <file> [--rate N] [--batch N] [--allow-private]
                                            queue crawls of the sites a list names (domains or URLs, one a
                                            line, or the MCP Registry's server list JSON) at N a minute
                                            (default 60), N lines a batch (default 500); --allow-private
                                            takes local names (development only, as FETCH_ALLOW_PRIVATE)
The operator is --by <name>, or the OPERATOR environment variable (not needed for import).
The database is DATABASE_URL's or, unset, the running \`npm start\`'s (PORT picks one of several).`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OperatorCommand {
  command: "list-pending" | "owner-verify-acceptance" | "activate-offer" | "retention-status" | "import";
  id?: string;
  operator?: string;
  /** import: the file to read, its crawl rate per minute, lines per batch, local names allowed. */
  file?: string;
  rate?: number;
  batch?: number;
  allowPrivate?: boolean;
}

/** Removes `--name <value>` from args; its value, or undefined when absent. */
function takeOption(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  args.splice(index, 2);
  return value;
}

/** A whole number from min to max given on the command line. */
function wholeNumber(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

/** Parses the command line; throws a usage message when it does not fit. */
export function parseOperatorArgs(argv: string[], env: Record<string, string | undefined>): OperatorCommand {
  const args = [...argv];
  let operator = env.OPERATOR;
  const byIndex = args.indexOf("--by");
  if (byIndex >= 0) {
    operator = args[byIndex + 1];
    if (!operator) throw new Error("--by needs the operator's name");
    args.splice(byIndex, 2);
  }
  if (args[0] === "import") {
    const rate = takeOption(args, "--rate");
    const batch = takeOption(args, "--batch");
    const allowIndex = args.indexOf("--allow-private");
    if (allowIndex >= 0) args.splice(allowIndex, 1);
    const [, file, ...extra] = args;
    if (!file || file.startsWith("--")) throw new Error("import needs a file: npm run operator -- import <file>");
    if (extra.length > 0) throw new Error(`unexpected arguments: ${extra.join(" ")}`);
    return {
      command: "import",
      file,
      rate: rate === undefined ? IMPORT_DEFAULT_PER_MINUTE : wholeNumber("--rate", rate, 1, 100_000),
      batch: batch === undefined ? IMPORT_BATCH_SIZE : wholeNumber("--batch", batch, 1, 5_000),
      allowPrivate: allowIndex >= 0,
    };
  }
  const [command, id, ...rest] = args;
  if (rest.length > 0) throw new Error(`unexpected arguments: ${rest.join(" ")}`);
  if (command === "list-pending" || command === "retention-status") {
    if (id !== undefined) throw new Error(`${command} takes no argument`);
    return { command, ...(operator ? { operator } : {}) };
  }
  if (command === "owner-verify-acceptance" || command === "activate-offer") {
    if (!id || !UUID.test(id)) throw new Error(`${command} needs an id (a UUID)`);
    if (!operator) throw new Error("name the operator: --by <name> or OPERATOR=<name>");
    return { command, id: id.toLowerCase(), operator };
  }
  throw new Error(command ? `unknown command: ${command}` : "no command given");
}

/** The database to act on, and how to say which it is (the URL without its credentials). */
export function operatorDatabase(
  env: Record<string, string | undefined>,
  findRun: (options: { port?: string }) => LocalRun = findLocalRun,
): { env: Record<string, string | undefined>; description: string } {
  if (env.DATABASE_URL) {
    const url = new URL(env.DATABASE_URL);
    url.password = "";
    url.username = "";
    return { env, description: `DATABASE_URL (${url.host}${url.pathname})` };
  }
  const run = findRun({ port: env.PORT });
  return {
    env: { ...env, DATABASE_URL: run.databaseUrl, DATABASE_LOCAL_HTTP: "true" },
    description: `the database of the \`npm start\` on port ${run.port} (pid ${run.pid}, SQL over HTTP at ${new URL(run.databaseUrl).host})`,
  };
}

/** Where an import reports as it goes: a progress line and each bad or skipped item. */
export interface ImportReporter {
  progress: (line: string) => void;
  note: (line: string) => void;
}

/** The progress line of an import: done / queued / skipped (of them already indexed) / invalid. */
export function progressLine(progress: ImportProgress): string {
  return `import: done ${progress.done}/${progress.total} · queued ${progress.queued} · skipped ${progress.skipped} (already indexed ${progress.alreadyIndexed}) · invalid ${progress.invalid}`;
}

const stderrReporter: ImportReporter = {
  // On a terminal the line is rewritten in place; in a log each batch gets its own line.
  progress: (line) => process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`),
  note: (line) => process.stderr.write(`${process.stderr.isTTY ? "\r\x1b[K" : ""}${line}\n`),
};

/** Runs one parsed command against the database; the JSON-ready result. */
export async function runOperatorCommand(
  parsed: OperatorCommand,
  settings: { DATABASE_URL: string; DATABASE_LOCAL_HTTP: boolean },
  now: Date = new Date(),
  reporter: ImportReporter = stderrReporter,
) {
  const db = createDatabase(settings);
  if (parsed.command === "import") {
    const started = Date.now();
    const text = readFileSync(parsed.file!, "utf8");
    const summary = await importLeads({
      db,
      text,
      now,
      perMinute: parsed.rate,
      batchSize: parsed.batch,
      allowPrivate: parsed.allowPrivate,
      onProgress: (progress) => reporter.progress(progressLine(progress)),
      onNote: (note) => {
        // Already-known sites are the expected majority of a rerun: counted, not listed one by one.
        if (note.kind === "invalid") reporter.note(`invalid ${note.at}: ${note.reason}`);
        else if (note.reason !== "already indexed" && note.reason !== "already imported")
          reporter.note(`skipped ${note.at}: ${note.reason}`);
      },
    });
    if (process.stderr.isTTY && reporter === stderrReporter) process.stderr.write("\n");
    return { file: parsed.file, ...summary, duration_ms: Date.now() - started };
  }
  const ctx = { db, now, operator: parsed.operator ?? "" };
  switch (parsed.command) {
    case "list-pending":
      return listPending(ctx);
    case "owner-verify-acceptance":
      return ownerVerifyAcceptance(ctx, parsed.id!);
    case "activate-offer":
      return activateOffer(ctx, parsed.id!);
    case "retention-status":
      // Read only; the same figure /healthz reports, with a longer deadline.
      return checkRetentionLag(db, 30_000);
    default:
      throw new Error(`unknown command: ${parsed.command}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let parsed: OperatorCommand;
  try {
    parsed = parseOperatorArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  let database: ReturnType<typeof operatorDatabase>;
  try {
    database = operatorDatabase(process.env);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(`operator: acting on ${database.description}`);
  const settings = parseSettings(database.env, ["DATABASE_URL", "DATABASE_LOCAL_HTTP"]);
  try {
    console.log(JSON.stringify(await runOperatorCommand(parsed, settings), null, 2));
  } catch (error) {
    if (error instanceof DomainError) {
      console.error(`${error.code}: ${error.message}`);
      process.exit(1);
    }
    // The import's file could not be read: a usage error, nothing was done.
    if ((error as NodeJS.ErrnoException).syscall === "open") {
      console.error(`cannot read ${parsed.file}: ${(error as Error).message}`);
      process.exit(2);
    }
    // A database that cannot be reached or refuses the credentials: say so in one line.
    const cause = (error as { cause?: unknown }).cause;
    console.error(`DATABASE_ERROR: ${cause instanceof Error ? cause.message : String(error)}`);
    process.exit(1);
  }
}
