/**
 * Postgres, reached only over Neon's SQL-over-HTTP protocol (`@neondatabase/serverless` +
 * `drizzle-orm/neon-http`). Locally the same driver talks to the local stack's endpoint.
 */
import { neon, neonConfig } from "@neondatabase/serverless";
import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/neon-http";
import * as schema from "../../db/schema/index.ts";
import type { Config } from "../config.ts";

const neonDefaultEndpoint = neonConfig.fetchEndpoint;

/** The local stack listens on DATABASE_URL's own host and port, in plain HTTP. */
const localStackEndpoint = (host: string, port: number | string) => `http://${host}${port ? `:${port}` : ""}/sql`;

type DatabaseSettings = Pick<Config, "DATABASE_URL" | "DATABASE_LOCAL_HTTP">;

/** The raw Neon SQL function, pointed at the local stack when DATABASE_LOCAL_HTTP is set. */
export function createSqlClient(config: DatabaseSettings) {
  // The driver reads its endpoint from a global; every Worker of one deployment shares a setting.
  neonConfig.fetchEndpoint = config.DATABASE_LOCAL_HTTP ? localStackEndpoint : neonDefaultEndpoint;
  return neon(config.DATABASE_URL);
}

export function createDatabase(config: DatabaseSettings) {
  return drizzle({ client: createSqlClient(config), schema });
}

export type Database = ReturnType<typeof createDatabase>;

/** The Postgres error code (SQLSTATE) behind a driver error, if any. */
export function postgresErrorCode(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object"; ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Rows of raw SQL, keyed by column name, typed as the driver parses them. */
export type SqlRow = Record<string, unknown>;

/** Runs statements as one transaction (one round trip over HTTP) and gives each one's rows. */
export type RunSqlBatch = (statements: SQL[]) => Promise<SqlRow[][]>;

/** `RunSqlBatch` over the Worker's database: a Neon batch of raw statements. */
export function sqlBatchRunner(db: Database): RunSqlBatch {
  return async (statements) => {
    const queries = statements.map((statement) => db.execute(statement));
    const results = await db.batch(queries as [(typeof queries)[number], ...typeof queries]);
    return results.map((result) => result.rows as SqlRow[]);
  };
}
