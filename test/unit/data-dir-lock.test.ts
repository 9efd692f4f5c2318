/**
 * The embedded database folder's lock (scripts/local-stack/data-dir-lock.ts): held by a running
 * process it refuses, naming it; left by a process that is gone, or whose pid now runs another
 * program, it is taken over; released by its holder only; a folder set aside is renamed, never
 * deleted.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DataDirLockedError,
  lockDataDir,
  lockFileOf,
  setAsideDataDir,
} from "../../scripts/local-stack/data-dir-lock.ts";

const folder = () => join(mkdtempSync(join(tmpdir(), "data-dir-lock-")), "pglite");

/** A pid that ran and is gone. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(String(child.stdout));
}

describe("the data folder's lock", () => {
  it("refuses while a running process holds it, naming its pid and port, and frees on release", () => {
    const dir = folder();
    const lock = lockDataDir(dir, 8787);
    expect(JSON.parse(readFileSync(lockFileOf(dir), "utf8"))).toMatchObject({ pid: process.pid, port: 8787 });
    let refusal: unknown;
    try {
      lockDataDir(dir, 8788);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect(String((refusal as Error).message)).toContain(
      `in use by the \`npm start\` on port 8787 (pid ${process.pid},`,
    );
    lock.release();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    lockDataDir(dir).release();
  });

  it("takes over a lock whose process is gone, or whose pid runs another program now", () => {
    for (const holder of [
      { pid: deadPid(), port: 8787, command: "node scripts/local-stack.ts", startedAt: "2026-01-01T00:00:00Z" },
      { pid: process.pid, port: 8787, command: "some other program", startedAt: "2026-01-01T00:00:00Z" },
    ]) {
      const dir = folder();
      mkdirSync(dir, { recursive: true });
      writeFileSync(lockFileOf(dir), JSON.stringify(holder));
      const lock = lockDataDir(dir, 9000);
      expect(lock.tookOverFrom).toMatchObject({ pid: holder.pid });
      expect(JSON.parse(readFileSync(lockFileOf(dir), "utf8"))).toMatchObject({ pid: process.pid, port: 9000 });
      lock.release();
    }
  });

  it("sets a folder aside by renaming it, its files kept", () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "PG_VERSION"), "17\n");
    const moved = setAsideDataDir(dir, new Date("2026-12-01T20:00:00Z"));
    expect(moved).toBe(`${dir}.set-aside-2026-12-01T20-00-00-000Z`);
    expect(readFileSync(join(moved!, "PG_VERSION"), "utf8")).toBe("17\n");
    expect(existsSync(dir)).toBe(false);
    expect(setAsideDataDir(dir)).toBeUndefined();
  });
});
