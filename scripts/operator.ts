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
 *
 * Prints one JSON object on success (exit 0); on refusal prints the reason on stderr (exit 1);
 * a usage error exits 2.
 */
import { fileURLToPath } from "node:url";
import { createDatabase } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";
import { DomainError } from "../src/domain/errors.ts";
import { checkRetentionLag } from "../src/domain/health/retention-lag.ts";
import { activateOffer, listPending, ownerVerifyAcceptance } from "../src/domain/offers/operator-acts.ts";
import { findLocalRun, type LocalRun } from "./local-run.ts";

const USAGE = `usage: npm run operator -- <command> [argument] [--by <operator>]
  list-pending                              acceptances awaiting owner verification, drafts ready to activate
  owner-verify-acceptance <acceptance_id>   record that the owner confirmed this provider acceptance
  activate-offer <offer_id>                 activate a draft whose current terms carry a verified acceptance
  retention-status                          how long the oldest record past its retention has been overdue
The operator is --by <name>, or the OPERATOR environment variable.
The database is DATABASE_URL's or, unset, the running \`npm start\`'s (PORT picks one of several).`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface OperatorCommand {
  command: "list-pending" | "owner-verify-acceptance" | "activate-offer" | "retention-status";
  id?: string;
  operator?: string;
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

/** Runs one parsed command against the database; the JSON-ready result. */
export async function runOperatorCommand(
  parsed: OperatorCommand,
  settings: { DATABASE_URL: string; DATABASE_LOCAL_HTTP: boolean },
  now: Date = new Date(),
) {
  const db = createDatabase(settings);
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
    // A database that cannot be reached or refuses the credentials: say so in one line.
    const cause = (error as { cause?: unknown }).cause;
    console.error(`DATABASE_ERROR: ${cause instanceof Error ? cause.message : String(error)}`);
    process.exit(1);
  }
}
