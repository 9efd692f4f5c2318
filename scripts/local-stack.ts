/**
 * The local stack: a SQL-over-HTTP endpoint speaking Neon's protocol and a REST endpoint speaking
 * Upstash's, each in front of an embedded default or a real server; a mail endpoint speaking
 * Resend's send API into a readable outbox; and a DNS-over-HTTPS endpoint answering from an
 * editable zone.
 *
 *   DATABASE_URL   unset: embedded PGlite with data under PGLITE_DATA_DIR (default .data/pglite,
 *                  or "memory" for a throw-away database); set: that Postgres server
 *   REDIS_URL      unset: an in-memory store; set: that Redis server
 *   LOCAL_SQL_PORT / LOCAL_REDIS_PORT   ports to bind (default 5480 / 5481; 0 picks free ones)
 *   LOCAL_REDIS_TOKEN                   bearer token the Redis endpoint requires
 *   LOCAL_MAIL_PORT / LOCAL_DNS_PORT    ports of the outbox and the DNS zone (default 5482 / 5483)
 *   LOCAL_MAIL_KEY                      API key the mail endpoint requires
 *   LOCAL_DNS_UPSTREAM                  resolver for names outside the zone (default Cloudflare's;
 *                                       "none": other names do not exist)
 *
 * Run alone with `npm run stack`; it prints one JSON line with its endpoints once ready.
 */
import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import { createDnsZoneServer, type ZoneRecord } from "./local-stack/dns-zone.ts";
import { close, listen } from "./local-stack/http.ts";
import { createMailOutboxServer } from "./local-stack/mail-outbox.ts";
import { createNeonHttpServer } from "./local-stack/neon-http.ts";
import { openMemoryBackend, openRedisServerBackend, type RedisBackend } from "./local-stack/redis-backends.ts";
import { openPgliteBackend, openPostgresBackend, type SqlBackend } from "./local-stack/sql-backends.ts";
import { createUpstashRestServer } from "./local-stack/upstash-rest.ts";

export interface LocalStackOptions {
  databaseUrl?: string;
  redisUrl?: string;
  /** Folder of the embedded database, or "memory". */
  pgliteDataDir?: string;
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
  stop(): Promise<void>;
}

export const DEFAULT_REDIS_TOKEN = "local-stack-token";
export const DEFAULT_MAIL_KEY = "re_local_stack_key";
export const DEFAULT_DNS_UPSTREAM = "https://cloudflare-dns.com/dns-query";

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = options.pgliteDataDir ?? ".data/pglite";
  const sql: SqlBackend = options.databaseUrl
    ? await openPostgresBackend(options.databaseUrl)
    : await openPgliteBackend(dataDir === "memory" ? "memory://" : dataDir);
  const redis: RedisBackend = options.redisUrl ? await openRedisServerBackend(options.redisUrl) : openMemoryBackend();
  const token = options.redisToken ?? DEFAULT_REDIS_TOKEN;

  const mailKey = options.mailKey ?? DEFAULT_MAIL_KEY;
  const mail = createMailOutboxServer({ apiKey: mailKey });
  const dns = createDnsZoneServer({ upstream: options.dnsUpstream, records: options.dnsRecords });

  const servers: Server[] = [createNeonHttpServer(sql), createUpstashRestServer(redis, token), mail.server, dns.server];
  const sqlPort = await listen(servers[0] as Server, options.sqlPort ?? 5480);
  const redisPort = await listen(servers[1] as Server, options.redisPort ?? 5481);
  const mailPort = await listen(mail.server, options.mailPort ?? 0);
  const dnsPort = await listen(dns.server, options.dnsPort ?? 0);

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
    async stop() {
      await Promise.all(servers.map(close));
      await Promise.all([sql.close(), redis.close()]);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = (value: string | undefined, fallback: number) => (value ? Number(value) : fallback);
  const stack = await startLocalStack({
    databaseUrl: process.env.DATABASE_URL || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    pgliteDataDir: process.env.PGLITE_DATA_DIR || undefined,
    sqlPort: port(process.env.LOCAL_SQL_PORT, 5480),
    redisPort: port(process.env.LOCAL_REDIS_PORT, 5481),
    redisToken: process.env.LOCAL_REDIS_TOKEN || undefined,
    mailPort: port(process.env.LOCAL_MAIL_PORT, 5482),
    mailKey: process.env.LOCAL_MAIL_KEY || undefined,
    dnsPort: port(process.env.LOCAL_DNS_PORT, 5483),
    dnsUpstream:
      process.env.LOCAL_DNS_UPSTREAM === "none" ? undefined : process.env.LOCAL_DNS_UPSTREAM || DEFAULT_DNS_UPSTREAM,
  });
  const { stop, ...endpoints } = stack;
  console.log(JSON.stringify({ ready: true, ...endpoints }));
  const shutdown = () => void stop().then(() => process.exit(0));
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
