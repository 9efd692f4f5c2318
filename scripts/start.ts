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
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { ConfigError, parseConfig, SETTING_NAMES } from "../src/config.ts";
import { type CronScheduler, localCronTable, scheduleCrons, triggerCron } from "./local-crons.ts";
import { recordLocalRun } from "./local-run.ts";
import { type DemoSites, serveDemoSites } from "./local-stack/demo-sites.ts";
import { migrate } from "./migrate.ts";
import { loadDemoIndexIfEmpty } from "./seed-demo.ts";
import { startLocalWorker, wranglerOutputFilter } from "./wrangler-dev.ts";

const STACK_PROVIDED = new Set([
  "DATABASE_URL",
  "DATABASE_LOCAL_HTTP",
  "UPSTASH_REDIS_REST_URL",
  "UPSTASH_REDIS_REST_TOKEN",
]);
const children: ChildProcess[] = [];
let scheduler: CronScheduler | undefined;
let forgetRun: (() => void) | undefined;

function stopAll(code: number): never {
  scheduler?.stop();
  forgetRun?.();
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}

/**
 * Runs the Worker's crons on their schedule, as Cloudflare does in production (wrangler dev never
 * fires them): scripts/local-crons.ts. Each run is logged with its outcome.
 */
function startCrons(wranglerPort: number, table: { cron: string; tasks: string[] }[]): CronScheduler {
  const scheduled = scheduleCrons(
    table.map((entry) => entry.cron),
    async (cron) => {
      const tasks = table.find((entry) => entry.cron === cron)?.tasks.join(", ");
      try {
        const { outcome } = await triggerCron(wranglerPort, cron);
        console.log(`cron "${cron}" (${tasks}): ${outcome}`);
      } catch (error) {
        console.error(`cron "${cron}" (${tasks}): not run: ${String(error)}`);
      }
    },
  );
  for (const { cron, at } of scheduled.next()) {
    const tasks = table.find((entry) => entry.cron === cron)?.tasks.join(", ");
    console.log(`cron: ${tasks} on "${cron}" (UTC), next at ${at?.toISOString() ?? "never"}`);
  }
  return scheduled;
}

/**
 * wrangler's output, as it prints it, but for its note that scheduled Workers are not triggered
 * locally, whose curl line names wrangler's internal port: npm start fires the crons itself.
 */
function showWranglerOutput(wrangler: ChildProcess): void {
  for (const [stream, sink] of [
    [wrangler.stdout, process.stdout],
    [wrangler.stderr, process.stderr],
  ] as const) {
    if (!stream) continue;
    const filter = wranglerOutputFilter(
      "wrangler: scheduled handlers are not fired by wrangler dev; npm start fires them on their crons (below), and `npm run cron -- <name>` runs one now",
    );
    createInterface({ input: stream }).on("line", (line) => {
      for (const shown of filter(line)) sink.write(`${shown}\n`);
    });
  }
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
  stripeApiUrl: string;
  stripeSecretKey: string;
  stripeWebhookSecret: string;
  payPageUrl: string;
}

class StackDidNotStart extends Error {}

/** Starts the stack as its own process (so it can be stopped under a running Worker). */
function startStack(port: string): Promise<StackEndpoints> {
  const stack = spawn(process.execPath, ["--import", "tsx", "scripts/local-stack.ts"], {
    stdio: ["ignore", "pipe", "inherit"],
    // The Stripe stand-in delivers its signed events to this Worker's webhook.
    env: {
      ...process.env,
      // `npm start -- --fresh-database`: a damaged embedded database is moved aside, kept.
      ...(process.argv.includes("--fresh-database") ? { PGLITE_FRESH_DATABASE: "true" } : {}),
      LOCAL_STRIPE_WEBHOOK_URL:
        process.env.LOCAL_STRIPE_WEBHOOK_URL || `http://127.0.0.1:${port}/api/v1/webhooks/stripe`,
    },
  });
  children.push(stack);
  return new Promise((resolve, reject) => {
    // The stack has said why on stderr (a database in use by another run, a damaged one).
    stack.once("exit", (code) =>
      reject(new StackDidNotStart(`the local stack did not start (exit code ${code}; its reason is above)`)),
    );
    createInterface({ input: stack.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) {
        const parsed = JSON.parse(line) as StackEndpoints & { ready?: boolean };
        if (parsed.ready) resolve(parsed);
      } else console.log(line);
    });
  });
}

/**
 * The signing key rings of local runs: made once and kept in .data/signing-keys.json (git-ignored,
 * beside the embedded database), so bearers and receipts of an earlier run still verify after a
 * restart. Delete the file to start with new keys; set ATTRIBUTION_SIGNING_KEYS and
 * RECEIPT_SIGNING_KEYS to use your own.
 */
function localSigningKeys(): { ATTRIBUTION_SIGNING_KEYS: string; RECEIPT_SIGNING_KEYS: string } {
  const file = ".data/signing-keys.json";
  if (existsSync(file)) {
    console.log(`signing keys: ${file}`);
    return JSON.parse(readFileSync(file, "utf8"));
  }
  const keys = {
    ATTRIBUTION_SIGNING_KEYS: `local-att-1:${randomBytes(32).toString("base64url")}`,
    RECEIPT_SIGNING_KEYS: `local-rcpt-1:${randomBytes(32).toString("base64url")}`,
  };
  mkdirSync(".data", { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  console.log(`signing keys: new ones kept in ${file}`);
  return keys;
}

/**
 * The local MCP Registry namespace key: an Ed25519 pair made once and kept in
 * .data/mcp-registry-key.pem (mode 0600, git-ignored); the Worker gets the public half only, and
 * serves it at /.well-known/mcp-registry-auth. Set MCP_REGISTRY_PUBLIC_KEY to use your own.
 */
function localRegistryPublicKey(): string {
  const file = ".data/mcp-registry-key.pem";
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync("ed25519");
    mkdirSync(".data", { recursive: true });
    // Written aside and renamed: a second start beside this one never reads half a key.
    const aside = `${file}.${process.pid}`;
    writeFileSync(aside, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
    renameSync(aside, file);
    console.log(`MCP Registry key: a new one kept in ${file}`);
  }
  const publicKey = createPublicKey(createPrivateKey(readFileSync(file, "utf8")));
  // The raw key is the last 32 bytes of its SPKI encoding (RFC 8410).
  return publicKey.export({ type: "spki", format: "der" }).subarray(-32).toString("base64");
}

async function main() {
  const port = process.env.PORT ?? "8787";
  const stack = await startStack(port);
  // Sites to try the live check on with no network (scripts/local-stack/demo-sites.ts).
  const demoSites: DemoSites = await serveDemoSites();
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
    // Payments through the local Stripe stand-in unless a real Stripe key is given.
    STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY || stack.stripeSecretKey,
    STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET || stack.stripeWebhookSecret,
    STRIPE_API_URL: process.env.STRIPE_SECRET_KEY
      ? process.env.STRIPE_API_URL || "https://api.stripe.com"
      : stack.stripeApiUrl,
  };
  if (!workerSettings.RATE_LIMIT_KEY_SECRET) {
    // Rate limits need a key to hash client addresses with; a run without one makes its own, so
    // its windows start afresh at every start.
    workerSettings.RATE_LIMIT_KEY_SECRET = randomBytes(32).toString("base64url");
    console.log("rate-limit key: a random one for this run (set RATE_LIMIT_KEY_SECRET to keep one)");
  }
  // The Worker may fetch these loopback hosts, and no other (honoured on the local stack only).
  workerSettings.LOCAL_DEMO_HOSTS = Object.values(demoSites.origins)
    .map((origin) => new URL(origin).host)
    .join(",");
  // Jobs have no request to take an origin from: the links the monitor cron mails point here.
  workerSettings.PUBLIC_ORIGIN ||= `http://127.0.0.1:${port}`;
  if (!workerSettings.ATTRIBUTION_SIGNING_KEYS && !workerSettings.RECEIPT_SIGNING_KEYS) {
    Object.assign(workerSettings, localSigningKeys());
  }
  workerSettings.MCP_REGISTRY_PUBLIC_KEY ||= localRegistryPublicKey();
  parseConfig(workerSettings);

  // The database is migrated and loaded while wrangler bundles the Worker and starts workerd (the
  // two share nothing until the first request); the port opens once both are done.
  const databaseReady = (async () => {
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
  })();
  // Its failure is thrown where the edge waits for it (startLocalWorker), not at once.
  databaseReady.catch(() => {});
  const worker = await startLocalWorker(port, workerSettings, {
    stdio: ["inherit", "pipe", "pipe"],
    edgeAfter: databaseReady,
    onSpawn: (wrangler) => {
      children.push(wrangler);
      showWranglerOutput(wrangler);
      wrangler.on("exit", (code) => stopAll(code ?? 0));
    },
  });
  console.log(`serving http://127.0.0.1:${port} (API at /api/v1, health at /healthz; wrangler's own port is internal)`);
  const crons = localCronTable();
  scheduler = startCrons(worker.wranglerPort, crons);
  console.log("crons: run one now with `npm run cron -- <name>` (the names above)");
  forgetRun = recordLocalRun({
    pid: process.pid,
    port: Number(port),
    wranglerPort: worker.wranglerPort,
    databaseUrl: stack.databaseUrl,
    crons,
    startedAt: new Date().toISOString(),
  });
  console.log(
    `demo sites to check offline: ${Object.entries(demoSites.origins)
      .map(([name, origin]) => `${name} ${origin}/`)
      .join(", ")} (the home page's "Check a site", POST /api/v1/check, npx agent-readiness)`,
  );
  console.log(`outbox: ${stack.outboxUrl}/ (JSON: ${stack.outboxUrl}/messages?to=<address>)`);
  console.log(
    `SQL over HTTP: ${new URL(stack.databaseUrl).host} (scripts on the stack: LOCAL_SQL_PORT=${new URL(stack.databaseUrl).port})`,
  );
  console.log(
    `DNS zone: ${stack.dnsZoneUrl}/records (PUT {name, type, value} to add a record; DoH at ${stack.dohUrl})`,
  );
  // The operator commands (scripts/operator.ts) find this run's database by themselves.
  console.log("operator: OPERATOR=<name> npm run operator -- list-pending (acts on this run's database)");
  console.log(
    `payments: local Stripe stand-in ${stack.payPageUrl} (checkout sessions with their pay links; events at ${stack.stripeApiUrl}/control/events)`,
  );
}

process.on("SIGINT", () => stopAll(130));
process.on("SIGTERM", () => stopAll(143));
main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof StackDidNotStart ? error.message : error);
  stopAll(1);
});
