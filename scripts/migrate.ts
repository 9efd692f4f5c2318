/**
 * Applies the committed SQL migrations in db/migrations, over the same SQL-over-HTTP driver the
 * Worker uses (Neon in production, the local stack here). Never run by a Worker at request time.
 *
 * Each migration is one transaction that first records itself in the journal: a concurrent
 * migrator blocks on the journal's unique hash, then fails and rolls back whole, so a migration
 * is applied once however many deploys race. The journal is drizzle's own table.
 *
 * A migration that rewrites a large table (0035 rewrites every posting: minutes at 1,000,000
 * sites) outlasts what an HTTP request may wait. `--direct` applies the same migrations, with the
 * same journal and the same one-transaction-each rule, over Postgres's own protocol (Neon takes
 * it too, at the same DATABASE_URL), which has no such limit.
 *
 * Usage: DATABASE_URL=… [DATABASE_LOCAL_HTTP=true] npm run migrate [-- --direct]
 */
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { createSqlClient } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../db/migrations", import.meta.url));
const JOURNAL = "drizzle.__drizzle_migrations";

export interface MigrateOptions {
  databaseUrl: string;
  localHttp: boolean;
  /** Over a Postgres connection to `databaseUrl` rather than SQL over HTTP (long migrations). */
  direct?: boolean;
  log?: (line: string) => void;
  /** Applies only the first `upTo` migrations of the journal: tests of a migration over data. */
  upTo?: number;
}

/** Applies every migration not yet in the journal; returns how many it applied. */
export async function migrate({ databaseUrl, localHttp, direct = false, log = () => undefined, upTo }: MigrateOptions) {
  const connection = direct ? await postgresTransactions(databaseUrl) : httpTransactions(databaseUrl, localHttp);
  try {
    await connection.transaction([
      ["create schema if not exists drizzle"],
      [`create table if not exists ${JOURNAL} (id serial primary key, hash text not null, created_at bigint)`],
      [`create unique index if not exists __drizzle_migrations_hash on ${JOURNAL} (hash)`],
    ]);
    const applied = new Set((await connection.hashes()).map((row) => row.hash));
    let count = 0;
    for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).slice(0, upTo)) {
      if (applied.has(migration.hash)) continue;
      try {
        await connection.transaction([
          [`insert into ${JOURNAL} (hash, created_at) values ($1, $2)`, [migration.hash, migration.folderMillis]],
          ...migration.sql.filter((statement) => statement.trim()).map((statement): Statement => [statement]),
        ]);
        count += 1;
        log(`applied migration ${migration.folderMillis}`);
      } catch (error) {
        const code = (error as { code?: string }).code;
        // Another migrator committed this migration first: nothing of ours was kept.
        if (code === "23505") continue;
        throw error;
      }
    }
    return count;
  } finally {
    await connection.close();
  }
}

type Statement = [text: string, params?: unknown[]];

/** Runs statements as one transaction and reads the journal, over one of the two transports. */
interface MigrationConnection {
  transaction(statements: Statement[]): Promise<void>;
  hashes(): Promise<{ hash: string }[]>;
  close(): Promise<void>;
}

/** SQL over HTTP, as the Worker talks to the database: each transaction one request. */
function httpTransactions(databaseUrl: string, localHttp: boolean): MigrationConnection {
  const sql = createSqlClient({ DATABASE_URL: databaseUrl, DATABASE_LOCAL_HTTP: localHttp });
  return {
    async transaction(statements) {
      await sql.transaction(statements.map(([text, params]) => sql.query(text, params)));
    },
    hashes: async () => (await sql.query(`select hash from ${JOURNAL}`)) as { hash: string }[],
    close: async () => undefined,
  };
}

/** One Postgres connection: no request time limit. */
async function postgresTransactions(databaseUrl: string): Promise<MigrationConnection> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async transaction(statements) {
      await client.query("begin");
      try {
        for (const [text, params] of statements) await client.query(text, params);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
    },
    hashes: async () => (await client.query<{ hash: string }>(`select hash from ${JOURNAL}`)).rows,
    close: () => client.end(),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = parseSettings(process.env, ["DATABASE_URL", "DATABASE_LOCAL_HTTP"]);
  const count = await migrate({
    databaseUrl: config.DATABASE_URL,
    localHttp: config.DATABASE_LOCAL_HTTP,
    direct: process.argv.slice(2).includes("--direct"),
    log: console.log,
  });
  console.log(`${count} migration(s) applied`);
}
