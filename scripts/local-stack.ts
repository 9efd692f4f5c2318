/**
 * The local stack: a SQL-over-HTTP endpoint speaking Neon's protocol and a REST endpoint speaking
 * Upstash's, each in front of an embedded default or a real server; a mail endpoint speaking
 * Resend's send API into a readable outbox; a DNS-over-HTTPS endpoint answering from an
 * editable zone; and a stand-in for Stripe's Checkout Sessions API with a local pay page.
 *
 *   DATABASE_URL   unset: embedded PGlite with data under PGLITE_DATA_DIR (default .data/pglite,
 *                  or "memory" for a throw-away database), locked for this stack alone
 *                  (scripts/local-stack/data-dir-lock.ts); set: that Postgres server
 *   PGLITE_START_FROM  with PGLITE_DATA_DIR=memory: a dump of a data directory (PGlite's
 *                  dumpDataDir tar) the throw-away database starts as a copy of; the tests start
 *                  from one already migrated (scripts/local-stack/migrated-pglite.ts)
 *   --fresh-database (or PGLITE_FRESH_DATABASE=true)   moves the data folder aside, kept, and
 *                  starts with a new one (a damaged database)
 *   REDIS_URL      unset: an in-memory store; set: that Redis server
 *   LOCAL_SQL_PORT / LOCAL_REDIS_PORT   ports to bind (default 5480 / 5481; 0 picks free ones)
 *   LOCAL_REDIS_TOKEN                   bearer token the Redis endpoint requires
 *   LOCAL_MAIL_PORT / LOCAL_DNS_PORT    ports of the outbox and the DNS zone (default 5482 / 5483)
 *   LOCAL_MAIL_KEY                      API key the mail endpoint requires
 *   LOCAL_DNS_UPSTREAM                  resolver for names outside the zone (default Cloudflare's;
 *                                       "none": other names do not exist)
 *   LOCAL_STRIPE_PORT                   port of the Stripe stand-in and its pay page (default 5484)
 *   LOCAL_STRIPE_KEY / LOCAL_STRIPE_WEBHOOK_SECRET   the secret key it accepts and the signing secret
 *   LOCAL_STRIPE_WEBHOOK_URL            where it delivers signed events (npm start: the Worker's)
 *   LOCAL_STORE_RTT_MS                  round trip added to every SQL and Redis request (default 0):
 *                                       the stores as if on another continent
 *
 * Both store endpoints count the requests they answered: `GET /_local/requests` on either says
 * `{sql, redis, rtt_ms}`.
 *
 * Run alone with `npm run stack`; it prints one JSON line with its endpoints once ready.
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import {
  type DataDirLock,
  DataDirLockedError,
  DataDirUnusableError,
  lockDataDir,
  setAsideDataDir,
} from "./local-stack/data-dir-lock.ts";
import { createDnsZoneServer, type ZoneRecord } from "./local-stack/dns-zone.ts";
import { close, listen } from "./local-stack/http.ts";
import { createMailOutboxServer } from "./local-stack/mail-outbox.ts";
import { createNeonHttpServer } from "./local-stack/neon-http.ts";
import { openMemoryBackend, openRedisServerBackend, type RedisBackend } from "./local-stack/redis-backends.ts";
import type { ServedCallObserver } from "./local-stack/served-calls.ts";
import { openPgliteBackend, openPostgresBackend, type SqlBackend } from "./local-stack/sql-backends.ts";
import { createStoreDistance, type StoreRequestCounts, storeRttFromEnv } from "./local-stack/store-distance.ts";
import { createStripeStandIn } from "./local-stack/stripe.ts";
import { createUpstashRestServer } from "./local-stack/upstash-rest.ts";

export interface LocalStackOptions {
  databaseUrl?: string;
  redisUrl?: string;
  /** Folder of the embedded database, or "memory". */
  pgliteDataDir?: string;
  /** With "memory": the dump file (PGlite's `dumpDataDir` tar) the database starts as a copy of. */
  pgliteStartFrom?: string;
  /** The PORT of the `npm start` this stack serves, named in its data folder's lock. */
  servesPort?: number;
  /** Move the data folder aside (kept) and start a new database in its place. */
  freshDatabase?: boolean;
  sqlPort?: number;
  redisPort?: number;
  redisToken?: string;
  /** Ports of the outbox and the DNS zone; free ones unless given (the CLI uses 5482 / 5483). */
  mailPort?: number;
  mailKey?: string;
  dnsPort?: number;
  /** Upstream DoH resolver for names outside the local zone; undefined: none. */
  dnsUpstream?: string;
  /** Records the zone starts with. */
  dnsRecords?: ZoneRecord[];
  /** Port of the Stripe stand-in (free one unless given; the CLI uses 5484), its keys and webhook target. */
  stripePort?: number;
  stripeKey?: string;
  stripeWebhookSecret?: string;
  /** Where the stand-in delivers signed events; undefined: they are only recorded (GET /control/events). */
  stripeWebhookUrl?: string;
  /** Sees every request the SQL and Redis endpoints answer, with the store's time (`npm run load`). */
  observeCalls?: ServedCallObserver;
  /** Round trip added to every SQL and Redis request, in milliseconds (default 0). */
  storeRttMs?: number;
}

export interface LocalStack {
  /** Connection string the Worker uses, with DATABASE_LOCAL_HTTP=true. */
  databaseUrl: string;
  redisRestUrl: string;
  redisRestToken: string;
  sqlBackend: string;
  redisBackend: string;
  /** Resend-compatible API base URL of the outbox, and the key it takes. */
  mailApiUrl: string;
  mailApiKey: string;
  /** The outbox: `GET {outboxUrl}/messages?to=` (JSON) or `{outboxUrl}/` (a page). */
  outboxUrl: string;
  /** JSON DoH endpoint of the local zone; `PUT`/`DELETE {dnsZoneUrl}/records` edit it. */
  dohUrl: string;
  dnsZoneUrl: string;
  /** Stripe's API base for the Worker (STRIPE_API_URL), its keys, and the page listing pay links. */
  stripeApiUrl: string;
  stripeSecretKey: string;
  stripeWebhookSecret: string;
  payPageUrl: string;
  /** The simulated store round trip in milliseconds. */
  storeRttMs: number;
  /** What the stack did on the way that its user should know (a stale lock taken over, a folder set aside). */
  notices: string[];
  /** SQL and Redis requests answered so far (also at `GET {url}/_local/requests`). */
  storeRequests(): StoreRequestCounts;
  /** Changes the simulated round trip for the requests that arrive from now on (`npm run load`). */
  setStoreRtt(ms: number): void;
  /** The embedded database's data directory as one tar file; undefined in front of a server. */
  dumpDatabase?(): Promise<Blob>;
  stop(): Promise<void>;
}

export const DEFAULT_REDIS_TOKEN = "local-stack-token";
export const DEFAULT_MAIL_KEY = "re_local_stack_key";
export const DEFAULT_DNS_UPSTREAM = "https://cloudflare-dns.com/dns-query";
export const DEFAULT_STRIPE_KEY = "sk_test_local_stack";
export const DEFAULT_STRIPE_WEBHOOK_SECRET = "whsec_local_stack_secret";

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = options.pgliteDataDir ?? ".data/pglite";
  const notices: string[] = [];
  let lock: DataDirLock | undefined;
  let sql: SqlBackend;
  if (options.databaseUrl) sql = await openPostgresBackend(options.databaseUrl);
  else if (dataDir === "memory") {
    const startFrom = options.pgliteStartFrom ? new Blob([readFileSync(options.pgliteStartFrom)]) : undefined;
    sql = await openPgliteBackend("memory://", startFrom);
  } else if (options.pgliteStartFrom) throw new Error("a database starts from a dump only in memory");
  else {
    // Locked before anything opens it, and set aside only once locked: never a running one's.
    lock = lockDataDir(dataDir, options.servesPort);
    if (lock.tookOverFrom) {
      notices.push(
        `embedded database: the lock of ${dataDir} was left by pid ${lock.tookOverFrom.pid}, which is gone; taken over`,
      );
    }
    if (options.freshDatabase) {
      const moved = setAsideDataDir(dataDir);
      notices.push(
        moved
          ? `embedded database: the old ${dataDir} was moved aside to ${moved} (kept); starting with a new one`
          : `embedded database: ${dataDir} did not exist; starting with a new one`,
      );
    }
    try {
      sql = await openPgliteBackend(dataDir);
    } catch (error) {
      lock.release();
      throw new DataDirUnusableError(dataDir, error);
    }
  }
  const redis: RedisBackend = options.redisUrl ? await openRedisServerBackend(options.redisUrl) : openMemoryBackend();
  const token = options.redisToken ?? DEFAULT_REDIS_TOKEN;

  const mailKey = options.mailKey ?? DEFAULT_MAIL_KEY;
  const mail = createMailOutboxServer({ apiKey: mailKey });
  const dns = createDnsZoneServer({ upstream: options.dnsUpstream, records: options.dnsRecords });

  let stripePort = 0;
  const stripeKey = options.stripeKey ?? DEFAULT_STRIPE_KEY;
  const stripeWebhookSecret = options.stripeWebhookSecret ?? DEFAULT_STRIPE_WEBHOOK_SECRET;
  const stripe = createStripeStandIn({
    apiKey: stripeKey,
    webhookSecret: stripeWebhookSecret,
    webhookUrl: options.stripeWebhookUrl,
    publicOrigin: () => `http://127.0.0.1:${stripePort}`,
  });

  const distance = createStoreDistance(options.storeRttMs ?? 0);
  const servers: Server[] = [
    createNeonHttpServer(sql, options.observeCalls, distance),
    createUpstashRestServer(redis, token, options.observeCalls, distance),
    mail.server,
    dns.server,
    stripe.server,
  ];
  const sqlPort = await listen(servers[0] as Server, options.sqlPort ?? 5480);
  const redisPort = await listen(servers[1] as Server, options.redisPort ?? 5481);
  const mailPort = await listen(mail.server, options.mailPort ?? 0);
  const dnsPort = await listen(dns.server, options.dnsPort ?? 0);
  stripePort = await listen(stripe.server, options.stripePort ?? 0);

  return {
    databaseUrl: `postgres://local:local@127.0.0.1:${sqlPort}/local`,
    redisRestUrl: `http://127.0.0.1:${redisPort}`,
    redisRestToken: token,
    sqlBackend: sql.description,
    redisBackend: redis.description,
    mailApiUrl: `http://127.0.0.1:${mailPort}`,
    mailApiKey: mailKey,
    outboxUrl: `http://127.0.0.1:${mailPort}`,
    dohUrl: `http://127.0.0.1:${dnsPort}/dns-query`,
    dnsZoneUrl: `http://127.0.0.1:${dnsPort}`,
    stripeApiUrl: `http://127.0.0.1:${stripePort}`,
    stripeSecretKey: stripeKey,
    stripeWebhookSecret,
    payPageUrl: `http://127.0.0.1:${stripePort}/`,
    storeRttMs: distance.rttMs,
    notices,
    storeRequests: () => ({ ...distance.counts }),
    setStoreRtt(ms) {
      distance.rttMs = createStoreDistance(ms).rttMs;
    },
    dumpDatabase: sql.dumpDataDir?.bind(sql),
    async stop() {
      await Promise.all(servers.map(close));
      await Promise.all([sql.close(), redis.close()]);
      lock?.release();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);
  const stack = await startLocalStack({
    databaseUrl: process.env.DATABASE_URL || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    pgliteDataDir: process.env.PGLITE_DATA_DIR || undefined,
    pgliteStartFrom: process.env.PGLITE_START_FROM || undefined,
    servesPort: process.env.PORT ? Number(process.env.PORT) : undefined,
    freshDatabase: process.env.PGLITE_FRESH_DATABASE === "true" || process.argv.includes("--fresh-database"),
    sqlPort: port(process.env.LOCAL_SQL_PORT, 5480),
    redisPort: port(process.env.LOCAL_REDIS_PORT, 5481),
    redisToken: process.env.LOCAL_REDIS_TOKEN || undefined,
    mailPort: port(process.env.LOCAL_MAIL_PORT, 5482),
    mailKey: process.env.LOCAL_MAIL_KEY || undefined,
    dnsPort: port(process.env.LOCAL_DNS_PORT, 5483),
    dnsUpstream:
      process.env.LOCAL_DNS_UPSTREAM === "none" ? undefined : process.env.LOCAL_DNS_UPSTREAM || DEFAULT_DNS_UPSTREAM,
    stripePort: port(process.env.LOCAL_STRIPE_PORT, 5484),
    stripeKey: process.env.LOCAL_STRIPE_KEY || undefined,
    stripeWebhookSecret: process.env.LOCAL_STRIPE_WEBHOOK_SECRET || undefined,
    stripeWebhookUrl: process.env.LOCAL_STRIPE_WEBHOOK_URL || undefined,
    storeRttMs: storeRttFromEnv(process.env.LOCAL_STORE_RTT_MS),
  }).catch((error: unknown) => {
    // Said plainly, with what to do, rather than as a stack trace.
    if (error instanceof DataDirLockedError || error instanceof DataDirUnusableError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
  const { stop, storeRequests: _counts, setStoreRtt: _setRtt, dumpDatabase: _dump, notices, ...endpoints } = stack;
  for (const notice of notices) console.log(notice);
  console.log(JSON.stringify({ ready: true, ...endpoints }));
  const shutdown = () => void stop().then(() => process.exit(0));
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
