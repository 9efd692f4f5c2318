/**
 * The two databases the local SQL-over-HTTP endpoint can sit in front of: embedded PGlite (the
 * default, nothing to install) and a real Postgres server reached with node-postgres.
 *
 * Both return rows exactly as Postgres sends them in text format, with each column's type OID, so
 * that the Neon client parses them with its own type parsers, as it does against Neon itself.
 */
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { BadRequest } from "./http.ts";
import { epochMs, type StoreTiming } from "./served-calls.ts";

export type SqlParam = string | null;

export interface SqlStatement {
  query: string;
  params: SqlParam[];
}

export interface RawField {
  name: string;
  dataTypeID: number;
  tableID: number;
  columnID: number;
  dataTypeSize: number;
  dataTypeModifier: number;
  format: "text";
}

export interface RawResult {
  command: string;
  rowCount: number | null;
  fields: RawField[];
  rows: SqlParam[][];
}

export interface BatchOptions {
  isolationLevel?: string;
  readOnly?: boolean;
  deferrable?: boolean;
}

/** Postgres' error report, in the members the Neon client copies onto its NeonDbError. */
export const POSTGRES_ERROR_MEMBERS = [
  "severity",
  "code",
  "detail",
  "hint",
  "position",
  "internalPosition",
  "internalQuery",
  "where",
  "schema",
  "table",
  "column",
  "dataType",
  "constraint",
  "file",
  "line",
  "routine",
] as const;

export interface SqlBackend {
  readonly description: string;
  /** Runs one statement; `timing`, when given, receives the time the database spent on it. */
  run(statement: SqlStatement, timing?: StoreTiming): Promise<RawResult>;
  /** Runs every statement in one transaction: all commit, or none does. */
  runBatch(statements: SqlStatement[], options: BatchOptions, timing?: StoreTiming): Promise<RawResult[]>;
  /** The embedded database's data directory as one tar file (PGlite only). */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
}

/** Runs `work`, adding its duration to `timing` (also when it fails). */
async function timed<T>(timing: StoreTiming | undefined, work: () => Promise<T>): Promise<T> {
  if (!timing) return work();
  const started = epochMs();
  try {
    return await work();
  } finally {
    timing.storeMs += epochMs() - started;
  }
}

const ISOLATION_LEVELS: Record<string, string> = {
  ReadUncommitted: "READ UNCOMMITTED",
  ReadCommitted: "READ COMMITTED",
  RepeatableRead: "REPEATABLE READ",
  Serializable: "SERIALIZABLE",
};

/** Builds the BEGIN statement for a batch from Neon's batch headers; throws on an unknown level. */
export function beginStatement(options: BatchOptions): string {
  const modes: string[] = [];
  if (options.isolationLevel !== undefined) {
    const level = ISOLATION_LEVELS[options.isolationLevel];
    if (!level) throw new BadRequest(`unknown isolation level: ${options.isolationLevel}`);
    modes.push(`ISOLATION LEVEL ${level}`);
  }
  if (options.readOnly !== undefined) modes.push(options.readOnly ? "READ ONLY" : "READ WRITE");
  if (options.deferrable !== undefined) modes.push(options.deferrable ? "DEFERRABLE" : "NOT DEFERRABLE");
  return modes.length ? `BEGIN ${modes.join(", ")}` : "BEGIN";
}

function toRawField(field: { name: string; dataTypeID: number; tableID?: number; columnID?: number }): RawField {
  return {
    name: field.name,
    dataTypeID: field.dataTypeID,
    tableID: field.tableID ?? 0,
    columnID: field.columnID ?? 0,
    dataTypeSize: -1,
    dataTypeModifier: -1,
    format: "text",
  };
}

/** Every type is handed over as the text Postgres produced; parameters arrive already as text. */
const keepText = new Proxy({}, { get: () => (value: unknown) => value });

/**
 * Embedded PGlite in `dataDir` ("memory://": a throw-away one). With `startFrom` (a data directory
 * as PGlite's `dumpDataDir` writes it, memory only), the database starts as a copy of that one
 * rather than empty: the tests start many databases already migrated, each from one dump, instead of
 * applying every migration to each (scripts/local-stack/migrated-pglite.ts).
 */
export async function openPgliteBackend(dataDir: string, startFrom?: Blob): Promise<SqlBackend> {
  if (startFrom && dataDir !== "memory://") throw new Error("only an in-memory database starts from a dump");
  if (dataDir !== "memory://") mkdirSync(dataDir, { recursive: true });
  const db = startFrom ? await PGlite.create({ loadDataDir: startFrom }) : await PGlite.create(dataDir);
  // Replaced on the instance: PGlite copies per-query parser options with a spread, which a
  // Proxy does not survive, but consults the instance's own tables directly.
  Object.assign(db, { parsers: keepText, serializers: keepText });
  const options = { rowMode: "array" as const };

  async function runOn(target: Pick<PGlite, "query">, statement: SqlStatement): Promise<RawResult> {
    const result = (await target.query(statement.query, statement.params, options)) as {
      rows: SqlParam[][];
      fields: { name: string; dataTypeID: number }[];
      command?: string;
      rowCount?: number;
      affectedRows?: number;
    };
    return {
      command: result.command ?? "",
      rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
      fields: result.fields.map(toRawField),
      rows: result.rows,
    };
  }

  return {
    description: `embedded PGlite (${dataDir})`,
    run: (statement, timing) => timed(timing, () => runOn(db, statement)),
    async runBatch(statements, batchOptions, timing) {
      // PGlite has one connection: its transaction() serialises batches, like row locks would.
      const begin = beginStatement(batchOptions);
      return timed(timing, () =>
        db.transaction(async (tx) => {
          if (begin !== "BEGIN") await tx.query(`SET TRANSACTION ${begin.slice("BEGIN ".length)}`);
          const results: RawResult[] = [];
          for (const statement of statements) results.push(await runOn(tx, statement));
          return results;
        }),
      );
    },
    dumpDataDir: () => db.dumpDataDir("none"),
    close: () => db.close(),
  };
}

export async function openPostgresBackend(connectionString: string): Promise<SqlBackend> {
  const pool = new pg.Pool({
    connectionString,
    max: 20,
    // Connections stay open while idle: a new Postgres backend costs a fork and cold catalog
    // caches, which a request after a pause would otherwise pay (Neon's own pooler keeps them).
    idleTimeoutMillis: 0,
    // Hand every value over as the server's text, untouched.
    types: { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig,
  });
  // Fail at start-up, not on the first request, when the server is unreachable.
  const probe = await pool.connect();
  probe.release();

  async function runOn(client: pg.PoolClient, statement: SqlStatement): Promise<RawResult> {
    const result = await client.query({ text: statement.query, values: statement.params, rowMode: "array" });
    return {
      command: result.command ?? "",
      rowCount: result.rowCount,
      fields: result.fields.map(toRawField),
      rows: result.rows as SqlParam[][],
    };
  }

  return {
    description: `Postgres server (${new URL(connectionString).host})`,
    async run(statement, timing) {
      const client = await pool.connect();
      try {
        return await timed(timing, () => runOn(client, statement));
      } finally {
        client.release();
      }
    },
    async runBatch(statements, batchOptions, timing) {
      const client = await pool.connect();
      try {
        return await timed(timing, async () => {
          try {
            await client.query(beginStatement(batchOptions));
            const results: RawResult[] = [];
            for (const statement of statements) results.push(await runOn(client, statement));
            await client.query("COMMIT");
            return results;
          } catch (error) {
            await client.query("ROLLBACK").catch(() => undefined);
            throw error;
          }
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
