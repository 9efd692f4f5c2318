/**
 * Postgres, reached only over Neon's SQL-over-HTTP protocol (`@neondatabase/serverless` +
 * `drizzle-orm/neon-http`). Locally the same driver talks to the local stack's endpoint.
 */
import { neon, neonConfig } from "@neondatabase/serverless";
import type { SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/neon-http";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Config } from "../config.ts";
import { StoreUnavailableError, watchForSilence } from "./store-availability.ts";

const neonDefaultEndpoint = neonConfig.fetchEndpoint;

/** The local stack listens on DATABASE_URL's own host and port, in plain HTTP. */
const localStackEndpoint = (host: string, port: number | string) => `http://${host}${port ? `:${port}` : ""}/sql`;

type DatabaseSettings = Pick<Config, "DATABASE_URL" | "DATABASE_LOCAL_HTTP"> &
  Partial<Pick<Config, "DATABASE_TIMEOUT_MS">>;

/**
 * The driver's fetch, made to fail with a StoreUnavailableError whenever the SQL endpoint is
 * unavailable: connection refused or lost (also while the answer is being read, so a connection
 * cut mid-answer is told apart from a database error), a 5xx, or, when `silenceMs` is given,
 * silence for that long. Scripts give none: a migration may legitimately run for minutes.
 */
function databaseFetch(silenceMs: number | undefined): typeof fetch {
  return async (input, init) => {
    const endpoint = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const watch = silenceMs === undefined ? undefined : watchForSilence(endpoint, silenceMs, "database");
    try {
      const response = await fetch(input, { ...init, signal: watch?.signal ?? null });
      const body = await response.arrayBuffer();
      watch?.answered();
      if (response.status >= 500) {
        throw new StoreUnavailableError("database", `the SQL endpoint answered HTTP ${response.status}`);
      }
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw new StoreUnavailableError("database", "the SQL endpoint could not be reached", { cause: error });
    } finally {
      watch?.release();
    }
  };
}

/** Points the driver's globals (endpoint and fetch) at what `config` names. */
function configureDriver(config: DatabaseSettings): void {
  // The driver reads its endpoint and fetch from globals; every Worker of one deployment shares
  // one setting of each.
  neonConfig.fetchEndpoint = config.DATABASE_LOCAL_HTTP ? localStackEndpoint : neonDefaultEndpoint;
  neonConfig.fetchFunction = databaseFetch(config.DATABASE_TIMEOUT_MS);
}

/** The raw Neon SQL function, pointed at the local stack when DATABASE_LOCAL_HTTP is set. */
export function createSqlClient(config: DatabaseSettings) {
  configureDriver(config);
  return neon(config.DATABASE_URL);
}

// Without drizzle's relational API (no `db.query`): every statement names the tables it reads,
// so a Worker bundles only the tables its own code imports, not the whole schema barrel.
function newDatabase(config: DatabaseSettings) {
  return drizzle({ client: createSqlClient(config) });
}

export type Database = ReturnType<typeof newDatabase>;

// One drizzle instance per settings object (the Worker's are parsed once per isolate): building
// one with the schema for the relational API walked every table, about a millisecond of CPU that
// every request paid, and the instance is still worth keeping. The instance holds no connection or request state (the driver speaks HTTP), so
// an isolate's requests can share it.
const databaseBySettings = new WeakMap<DatabaseSettings, Database>();

/** The drizzle database over Neon's HTTP driver for these settings (shared per settings object). */
export function createDatabase(config: DatabaseSettings): Database {
  let database = databaseBySettings.get(config);
  if (database) {
    // The globals follow the settings of the latest request, as when each request built its own.
    configureDriver(config);
  } else {
    database = newDatabase(config);
    databaseBySettings.set(config, database);
  }
  return database;
}

/** The Postgres error code (SQLSTATE) behind a driver error, if any. */
export function postgresErrorCode(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object"; ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

// Postgres errors that mean the server cannot serve now, not that the statement was wrong:
// connection exceptions (class 08), shutdown and start-up (57P01-57P03), too many connections.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/**
 * Whether an error from a database call means the database is unavailable (unreachable, silent,
 * shutting down, out of connections) rather than that the call was wrong; walks the driver's and
 * drizzle's wrappers.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 8; depth++) {
    if (current instanceof StoreUnavailableError) return current.store === "database";
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_SQLSTATE.test(code)) return true;
    const { sourceError, cause } = current as { sourceError?: unknown; cause?: unknown };
    current = sourceError ?? cause;
  }
  return false;
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

/**
 * Runs read statements as one read-only, repeatable-read transaction (one round trip): every
 * statement sees the same snapshot, so rows read together are consistent with each other and with
 * the transaction's `now()`. Rows come back keyed by column name.
 */
export async function readOnlySnapshot(db: Database, statements: SQL[]): Promise<SqlRow[][]> {
  const dialect = new PgDialect();
  const client = db.$client;
  const queries = statements.map((statement) => {
    const query = dialect.sqlToQuery(statement);
    return client.query(query.sql, query.params);
  });
  const results = await client.transaction(queries, { isolationLevel: "RepeatableRead", readOnly: true });
  return results as SqlRow[][];
}
