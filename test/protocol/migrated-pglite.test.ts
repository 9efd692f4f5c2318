/**
 * The migrated embedded database the test stacks start from (scripts/local-stack/migrated-pglite.ts):
 * a stack started from its dump has every committed migration applied (`migrate` finds none left)
 * and the same schema, to the column, index, constraint and trigger, as a database migrated
 * from empty; and a dump cannot seed a database on disk.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type LocalStack, startLocalStack } from "../../scripts/local-stack.ts";
import { migrate } from "../../scripts/migrate.ts";
import { createSqlClient } from "../../src/adapters/db.ts";

/** Every table's columns, every index, constraint and trigger, and every function, as sorted lines. */
async function schemaOf(stack: LocalStack): Promise<string[]> {
  const sql = createSqlClient({ DATABASE_URL: stack.databaseUrl, DATABASE_LOCAL_HTTP: true });
  const rows = (await sql.query(`
    select 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' '
      || is_nullable || ' ' || coalesce(column_default, '') as line
      from information_schema.columns where table_schema in ('public', 'drizzle')
    union all select 'index ' || schemaname || '.' || indexname || ' ' || indexdef
      from pg_indexes where schemaname in ('public', 'drizzle')
    union all select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all select 'trigger ' || tgrelid::regclass || ' ' || tgname from pg_trigger where not tgisinternal
    union all select 'function ' || p.proname || ' ' || md5(p.prosrc)
      from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all select 'migration ' || hash from drizzle.__drizzle_migrations`)) as { line: string }[];
  return rows.map((row) => row.line).sort();
}

describe("a stack started from the migrated dump", () => {
  let fromDump: LocalStack;
  let fromEmpty: LocalStack;

  beforeAll(async () => {
    [fromDump, fromEmpty] = await Promise.all([
      startLocalStack({ pgliteDataDir: "memory", pgliteStartFrom: inject("migratedPglite"), sqlPort: 0, redisPort: 0 }),
      startLocalStack({ pgliteDataDir: "memory", sqlPort: 0, redisPort: 0 }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([fromDump?.stop(), fromEmpty?.stop()]);
  });

  it("has every migration applied, and the schema of a database migrated from empty", async () => {
    expect(await migrate({ databaseUrl: fromDump.databaseUrl, localHttp: true })).toBe(0);
    expect(await migrate({ databaseUrl: fromEmpty.databaseUrl, localHttp: true })).toBeGreaterThan(30);
    const [dumped, migrated] = await Promise.all([schemaOf(fromDump), schemaOf(fromEmpty)]);
    expect(dumped.length).toBeGreaterThan(500);
    expect(dumped).toEqual(migrated);
  }, 120_000);

  it("is refused for a database on disk: a dump only seeds a throw-away one", async () => {
    await expect(
      startLocalStack({ pgliteDataDir: ".data/never-made", pgliteStartFrom: inject("migratedPglite"), sqlPort: 0 }),
    ).rejects.toThrow("only in memory");
  });
});
