/**
 * A damaged embedded database folder gets a message saying what to do, and
 * `npm start -- --fresh-database` moves it aside, kept, and starts anew. (One run per folder:
 * npm-start-data-dir.test.ts.)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lockFileOf } from "../../scripts/local-stack/data-dir-lock.ts";
import { type RunningService, startService, startServiceExpectingRefusal } from "../support/npm-start.ts";

const services: RunningService[] = [];
// A small demo index: a database on disk takes its rows slower than one in memory.
const DEMO_SITES = "40";
afterEach(() => {
  for (const service of services.splice(0)) service.stop();
});

describe("npm start and a damaged embedded database folder", () => {
  it("says what to do with a damaged folder, and --fresh-database moves it aside, kept", {
    timeout: 240_000,
  }, async () => {
    const parent = mkdtempSync(join(tmpdir(), "npm-start-damaged-"));
    const dataDir = join(parent, "pglite");
    // What a folder written by two runs at once can look like to PGlite: Postgres' files, garbled.
    mkdirSync(join(dataDir, "global"), { recursive: true });
    writeFileSync(join(dataDir, "PG_VERSION"), "17\n");
    writeFileSync(join(dataDir, "global", "pg_control"), Buffer.alloc(8192, 0x5a));
    writeFileSync(join(dataDir, "postgresql.conf"), "this is not a configuration\n");

    const refused = await startServiceExpectingRefusal({ PGLITE_DATA_DIR: dataDir, DEMO_SITES });
    expect(refused.code, refused.output).not.toBe(0);
    expect(refused.output).toContain(`The embedded database ${dataDir} could not be opened`);
    expect(refused.output).toContain("npm start -- --fresh-database");
    expect(existsSync(lockFileOf(dataDir)), "the refused run left its lock").toBe(false);

    const fresh = await startService({ PGLITE_DATA_DIR: dataDir, DEMO_SITES }, 90_000, ["--fresh-database"]);
    services.push(fresh);
    const moved = /the old \S+ was moved aside to (\S+) \(kept\)/.exec(fresh.output())?.[1] ?? "";
    expect(moved.startsWith(`${dataDir}.set-aside-`), fresh.output()).toBe(true);
    // The old files are all there, as they were.
    expect(readFileSync(join(moved, "postgresql.conf"), "utf8")).toBe("this is not a configuration\n");
    expect(readFileSync(join(moved, "global", "pg_control"))).toEqual(Buffer.alloc(8192, 0x5a));
    expect(readdirSync(parent).sort()).toEqual(["pglite", "pglite.lock", moved.slice(parent.length + 1)].sort());
    expect(fresh.output()).toContain(`demo index: ${DEMO_SITES} synthetic sites loaded`);
    expect((await fetch(`${fresh.origin}/healthz`)).status).toBe(200);
  });
});
