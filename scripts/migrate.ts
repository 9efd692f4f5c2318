/**
 * Applies the committed SQL migrations in db/migrations, over the same SQL-over-HTTP driver the
 * Worker uses (Neon in production, the local stack here). Never run by a Worker at request time.
 *
 * Each migration is one transaction that first records itself in the journal: a concurrent
 * migrator blocks on the journal's unique hash, then fails and rolls back whole, so a migration
 * is applied once however many deploys race. The journal is drizzle's own table.
 *
 * Usage: DATABASE_URL=… [DATABASE_LOCAL_HTTP=true] npm run migrate
 */
import { fileURLToPath } from "node:url";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { createSqlClient } from "../src/adapters/db.ts";
import { parseSettings } from "../src/config.ts";

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../db/migrations", import.meta.url));
const JOURNAL = "drizzle.__drizzle_migrations";

export interface MigrateOptions {
  databaseUrl: string;
  localHttp: boolean;
  log?: (line: string) => void;
  /** Applies only the first `upTo` migrations of the journal: tests of a migration over data. */
  upTo?: number;
}

/** Applies every migration not yet in the journal; returns how many it applied. */
export async function migrate({ databaseUrl, localHttp, log = () => undefined, upTo }: MigrateOptions) {
  const sql = createSqlClient({ DATABASE_URL: databaseUrl, DATABASE_LOCAL_HTTP: localHttp });
  await sql.transaction([
    sql.query("create schema if not exists drizzle"),
    sql.query(`create table if not exists ${JOURNAL} (id serial primary key, hash text not null, created_at bigint)`),
    sql.query(`create unique index if not exists __drizzle_migrations_hash on ${JOURNAL} (hash)`),
  ]);
  const applied = new Set(
    ((await sql.query(`select hash from ${JOURNAL}`)) as { hash: string }[]).map((row) => row.hash),
  );
  let count = 0;
  for (const migration of readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).slice(0, upTo)) {
    if (applied.has(migration.hash)) continue;
    try {
      await sql.transaction([
        sql.query(`insert into ${JOURNAL} (hash, created_at) values ($1, $2)`, [
          migration.hash,
          migration.folderMillis,
        ]),
        ...migration.sql.filter((statement) => statement.trim()).map((statement) => sql.query(statement)),
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const config = parseSettings(process.env, ["DATABASE_URL", "DATABASE_LOCAL_HTTP"]);
  const count = await migrate({
    databaseUrl: config.DATABASE_URL,
    localHttp: config.DATABASE_LOCAL_HTTP,
    log: console.log,
  });
  console.log(`${count} migration(s) applied`);
}
