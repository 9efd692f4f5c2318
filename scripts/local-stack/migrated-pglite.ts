/**
 * A migrated embedded database as one dump file (PGlite's `dumpDataDir` tar), for the test stacks
 * to start from (`startLocalStack({ pgliteDataDir: "memory", pgliteStartFrom })`, or
 * `PGLITE_START_FROM` for `npm start`) instead of applying every migration to each database they
 * open: on 2 cores under load the 40 migrations took 15 to 30 s per database, the start from a
 * dump 5 to 10 s. The migrations are applied as `npm run migrate` applies them, over SQL over
 * HTTP through the local stack; the dump is kept under a name made of the migrations' contents
 * and PGlite's version, so a changed or added migration makes a new one, and a stack that starts
 * from it and runs `migrate` again finds nothing left to apply.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startLocalStack } from "../local-stack.ts";
import { migrate } from "../migrate.ts";

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../db/migrations", import.meta.url));
/** The installed PGlite's version (its package exports no package.json: read from the folder). */
const PGLITE_VERSION: string = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url)), "utf8"),
).version;
const DEFAULT_CACHE = fileURLToPath(new URL("../../node_modules/.cache/agent-readiness", import.meta.url));

/** The name of the dump for the committed migrations and the installed PGlite. */
function dumpName(): string {
  const hash = createHash("sha256");
  hash.update(PGLITE_VERSION);
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(`\0${path.slice(MIGRATIONS_FOLDER.length)}\0`).update(readFileSync(path));
    }
  };
  walk(MIGRATIONS_FOLDER);
  return `pglite-migrated-${hash.digest("hex").slice(0, 16)}.tar`;
}

/**
 * The path of a dump of an embedded database with every committed migration applied, made now
 * (written aside and renamed, so a reader beside never sees half of one) unless one for these
 * migrations is already in `cacheDir`. Tests ask for it through test/support/migrated-pglite-setup.ts,
 * which runs this file as its own process.
 */
export async function migratedPgliteDump(cacheDir = DEFAULT_CACHE): Promise<string> {
  const file = join(cacheDir, dumpName());
  return existsSync(file) ? file : makeDump(file, cacheDir);
}

async function makeDump(file: string, cacheDir: string): Promise<string> {
  const stack = await startLocalStack({ pgliteDataDir: "memory", sqlPort: 0, redisPort: 0 });
  try {
    await migrate({ databaseUrl: stack.databaseUrl, localHttp: true });
    const dump = await stack.dumpDatabase?.();
    if (!dump) throw new Error("the embedded database gave no dump");
    mkdirSync(cacheDir, { recursive: true });
    const aside = `${file}.${process.pid}`;
    writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
    renameSync(aside, file);
  } finally {
    await stack.stop();
  }
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await migratedPgliteDump());
