/**
 * `npm start`: brings up the local stack, applies migrations, loads the demo index into an empty
 * database, and runs `wrangler dev` behind the local edge on http://127.0.0.1:$PORT (default
 * 8787), API at /api/v1. The edge sets CF-Connecting-IP from the connection, as Cloudflare does.
 *
 * DATABASE_URL / REDIS_URL, when set, put the stack in front of those servers instead of the
 * embedded defaults. Any Worker setting (src/config.ts) found in the environment is passed on to
 * the Worker; the database and Redis ones are always the stack's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { ConfigError, parseConfig, SETTING_NAMES } from "../src/config.ts";
import { migrate } from "./migrate.ts";
import { loadDemoIndexIfEmpty } from "./seed-demo.ts";
import { startLocalWorker } from "./wrangler-dev.ts";

const STACK_PROVIDED = new Set([
  "DATABASE_URL",
  "DATABASE_LOCAL_HTTP",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
]);
const children: ChildProcess[] = [];

function stopAll(code: number): never {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}

interface StackEndpoints {
  databaseUrl: string;
  redisRestUrl: string;
  redisRestToken: string;
  sqlBackend: string;
  redisBackend: string;
  mailApiUrl: string;
  mailApiKey: string;
  outboxUrl: string;
  dohUrl: string;
  dnsZoneUrl: string;
}

/** Starts the stack as its own process (so it can be stopped under a running Worker). */
function startStack(): Promise<StackEndpoints> {
  const stack = spawn(process.execPath, ["--import", "tsx", "scripts/local-stack.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
    env: process.env,
  });
  children.push(stack);
  return new Promise((resolve, reject) => {
    stack.once("exit", (code) => reject(new Error(`local stack exited with code ${code}`)));
    createInterface({ input: stack.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) {
        const parsed = JSON.parse(line) as StackEndpoints & { ready?: boolean };
        if (parsed.ready) resolve(parsed);
      } else console.log(line);
    });
  });
}

async function main() {
  const stack = await startStack();
  console.log(
    `local stack (pid ${children[0]?.pid}): SQL over HTTP -> ${stack.sqlBackend}; Redis REST -> ${stack.redisBackend}`,
  );

  const workerSettings: Record<string, string> = {
    ...Object.fromEntries(
      SETTING_NAMES.filter((name) => !STACK_PROVIDED.has(name) && process.env[name]).map((name) => [
        name,
        process.env[name] as string,
      ]),
    ),
    DATABASE_URL: stack.databaseUrl,
    DATABASE_LOCAL_HTTP: "true",
    UPSTASH_REDIS_REST_URL: stack.redisRestUrl,
    UPSTASH_REDIS_REST_TOKEN: stack.redisRestToken,
    // Mail goes to the local outbox, and DNS (address vetting and ownership proofs) asks the local
    // zone, unless the environment names real ones.
    MAIL_API_URL: process.env.MAIL_API_URL || stack.mailApiUrl,
    MAIL_API_KEY: process.env.MAIL_API_KEY || stack.mailApiKey,
    MAIL_FROM: process.env.MAIL_FROM || "Agent Readiness Search <mail@agent-readiness.localhost>",
    DOH_URL: process.env.DOH_URL || stack.dohUrl,
    OWNERSHIP_DOH_URLS: process.env.OWNERSHIP_DOH_URLS || stack.dohUrl,
  };
  if (!workerSettings.RATE_LIMIT_KEY_SECRET) {
    // Rate limits need a key to hash client addresses with; a run without one makes its own, so
    // its windows start afresh at every start.
    workerSettings.RATE_LIMIT_KEY_SECRET = randomBytes(32).toString("base64url");
    console.log("rate-limit key: a random one for this run (set RATE_LIMIT_KEY_SECRET to keep one)");
  }
  parseConfig(workerSettings);

  const applied = await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
  console.log(`migrations: ${applied} applied`);
  const seeded = await loadDemoIndexIfEmpty({
    databaseUrl: stack.databaseUrl,
    localHttp: true,
    count: Number(process.env.DEMO_SITES ?? 3000),
  });
  console.log(
    seeded ? `demo index: ${seeded} synthetic sites loaded` : "demo index: not loaded (the index holds sites)",
  );

  const port = process.env.PORT ?? "8787";
  const worker = await startLocalWorker(port, workerSettings, { stdio: "inherit" });
  children.push(worker.wrangler);
  worker.wrangler.on("exit", (code) => stopAll(code ?? 0));
  console.log(`serving http://127.0.0.1:${port} (API at /api/v1, health at /healthz; wrangler's own port is internal)`);
  console.log(`outbox: ${stack.outboxUrl}/ (JSON: ${stack.outboxUrl}/messages?to=<address>)`);
  console.log(
    `DNS zone: ${stack.dnsZoneUrl}/records (PUT {name, type, value} to add a record; DoH at ${stack.dohUrl})`,
  );
  // The operator commands (scripts/operator.ts) reach this database the way migrations do.
  console.log(
    `operator: DATABASE_URL=${stack.databaseUrl} DATABASE_LOCAL_HTTP=true OPERATOR=<name> npm run operator -- list-pending`,
  );
}

process.on("SIGINT", () => stopAll(130));
process.on("SIGTERM", () => stopAll(143));
main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  stopAll(1);
});
