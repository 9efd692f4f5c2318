/**
 * The embedded database's folder is one run's at a time: a second `npm start` on it refuses,
 * naming the running one (pid, port), and the first goes on unharmed; a lock left by a killed run
 * is taken over. (A damaged folder: npm-start-damaged-data-dir.test.ts, a file of its own so the
 * two run side by side.)
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
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

/** Waits until `file` is gone (a stopped run releases its lock as it ends). */
async function gone(file: string, withinMs = 15_000) {
  for (let waited = 0; waited < withinMs && existsSync(file); waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return !existsSync(file);
}

describe("npm start and its embedded database folder", () => {
  it("refuses a second start on the folder in use, naming the first; takes over the lock of a killed one", {
    timeout: 300_000,
  }, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), "npm-start-data-")), "pglite");
    const first = await startService({ PGLITE_DATA_DIR: dataDir, DEMO_SITES });
    services.push(first);
    const stackPid = /local stack \(pid (\d+)\)/.exec(first.output())?.[1];
    const lock = JSON.parse(readFileSync(lockFileOf(dataDir), "utf8")) as { pid: number; port: number };
    expect(lock).toMatchObject({ pid: Number(stackPid), port: Number(new URL(first.origin).port) });

    const second = await startServiceExpectingRefusal({ PGLITE_DATA_DIR: dataDir, DEMO_SITES });
    expect(second.code, second.output).not.toBe(0);
    expect(second.output).toContain(
      `The embedded database ${dataDir} is in use by the \`npm start\` on port ${new URL(first.origin).port} (pid ${stackPid},`,
    );
    expect(second.output).toContain(`PGLITE_DATA_DIR=${dataDir}-2`);
    expect(second.output).not.toContain("RuntimeError");
    // The first run is untouched: its database still answers, and still holds the lock.
    const search = await fetch(`${first.origin}/api/v1/search?q=agent`);
    expect(search.status).toBe(200);
    expect(JSON.parse(readFileSync(lockFileOf(dataDir), "utf8"))).toMatchObject({ pid: Number(stackPid) });

    // Killed outright: no chance to release the lock, which names a process that is gone.
    process.kill(-first.group, "SIGKILL");
    services.splice(0);
    for (let waited = 0; waited < 10_000; waited += 250) {
      if (spawnSync("kill", ["-0", String(stackPid)]).status !== 0) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(existsSync(lockFileOf(dataDir))).toBe(true);
    const third = await startService({ PGLITE_DATA_DIR: dataDir, DEMO_SITES });
    services.push(third);
    expect(third.output()).toContain(`the lock of ${dataDir} was left by pid ${stackPid}, which is gone; taken over`);
    // The database the first run loaded is the one the third serves (nothing was set aside).
    expect(third.output()).toContain("demo index: not loaded (the index holds sites)");
    third.stop();
    services.splice(0);
    expect(await gone(lockFileOf(dataDir))).toBe(true);
  });
});
