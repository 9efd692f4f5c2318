/**
 * The local stack: a SQL-over-HTTP endpoint speaking Neon's protocol and a REST endpoint speaking
 * Upstash's, each in front of an embedded default or a real server.
 *
 *   DATABASE_URL   unset: embedded PGlite with data under PGLITE_DATA_DIR (default .data/pglite,
 *                  or "memory" for a throw-away database); set: that Postgres server
 *   REDIS_URL      unset: an in-memory store; set: that Redis server
 *   LOCAL_SQL_PORT / LOCAL_REDIS_PORT   ports to bind (default 5480 / 5481; 0 picks free ones)
 *   LOCAL_REDIS_TOKEN                   bearer token the Redis endpoint requires
 *
 * Run alone with `npm run stack`; it prints one JSON line with its endpoints once ready.
 */
import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import { close, listen } from "./local-stack/http.ts";
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
}

export interface LocalStack {
  /** Connection string the Worker uses, with DATABASE_LOCAL_HTTP=true. */
  databaseUrl: string;
  redisRestUrl: string;
  redisRestToken: string;
  sqlBackend: string;
  redisBackend: string;
  stop(): Promise<void>;
}

export const DEFAULT_REDIS_TOKEN = "local-stack-token";

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = options.pgliteDataDir ?? ".data/pglite";
  const sql: SqlBackend = options.databaseUrl
    ? await openPostgresBackend(options.databaseUrl)
    : await openPgliteBackend(dataDir === "memory" ? "memory://" : dataDir);
  const redis: RedisBackend = options.redisUrl ? await openRedisServerBackend(options.redisUrl) : openMemoryBackend();
  const token = options.redisToken ?? DEFAULT_REDIS_TOKEN;

  const servers: Server[] = [createNeonHttpServer(sql), createUpstashRestServer(redis, token)];
  const [sqlServer, redisServer] = servers as [Server, Server];
  const sqlPort = await listen(sqlServer, options.sqlPort ?? 5480);
  const redisPort = await listen(redisServer, options.redisPort ?? 5481);

  return {
    databaseUrl: `postgres://local:local@127.0.0.1:${sqlPort}/local`,
    redisRestUrl: `http://127.0.0.1:${redisPort}`,
    redisRestToken: token,
    sqlBackend: sql.description,
    redisBackend: redis.description,
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
  });
  const { stop, ...endpoints } = stack;
  console.log(JSON.stringify({ ready: true, ...endpoints }));
  const shutdown = () => void stop().then(() => process.exit(0));
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
