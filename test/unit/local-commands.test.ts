/**
 * The local commands around `npm start`: its crons, read from wrangler.toml and fired on their
 * schedule through wrangler dev's scheduled-handler URL (`npm run cron -- <name>` fires one now),
 * and how `npm run cron` and `npm run operator` find the running stack and its database.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import {
  commandName,
  cronSchedules,
  cronTable,
  localCronTable,
  resolveCron,
  scheduleCrons,
  triggerCron,
} from "../../scripts/local-crons.ts";
import { findLocalRun, type LocalRun, recordLocalRun, runningLocalRuns } from "../../scripts/local-run.ts";
import { close, listen } from "../../scripts/local-stack/http.ts";
import { operatorDatabase } from "../../scripts/operator.ts";
import { MONITOR_ALERTS_CRON } from "../../src/jobs/monitor-alerts.ts";
import { RECHECK_CLAIMS_CRON } from "../../src/jobs/recheck-claims.ts";
import { RECRAWL_CRON } from "../../src/jobs/recrawl-stale.ts";
import { WIDE_BEGINNINGS_CRON } from "../../src/jobs/refresh-wide-beginnings.ts";
import { RETENTION_PURGE_CRON } from "../../src/jobs/retention-purge.ts";
import { ADOPTION_ROLLUP_CRON } from "../../src/jobs/rollup-adoption.ts";

let server: Server | undefined;
const dirs: string[] = [];
afterEach(async () => {
  if (server) await close(server);
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "local-runs-"));
  dirs.push(dir);
  return dir;
}

describe("the crons npm start runs", () => {
  it("are wrangler.toml's top-level triggers, each with the task the Worker runs for it", () => {
    expect(localCronTable()).toEqual([
      { cron: RECRAWL_CRON, tasks: ["recrawl-stale-sites", "queue-imported-crawls"] },
      { cron: RECHECK_CLAIMS_CRON, tasks: ["recheck-claims"] },
      { cron: RETENTION_PURGE_CRON, tasks: ["retention-purge"] },
      { cron: MONITOR_ALERTS_CRON, tasks: ["monitor-alerts"] },
      { cron: WIDE_BEGINNINGS_CRON, tasks: ["refresh-wide-beginnings"] },
      { cron: ADOPTION_ROLLUP_CRON, tasks: ["rollup-adoption"] },
    ]);
    // Only the default Worker's: an environment's own triggers are not what wrangler dev runs.
    expect(cronSchedules(readFileSync("wrangler.toml", "utf8"))).toHaveLength(6);
    expect(cronSchedules('[triggers]\ncrons = ["1 2 * * *"]\n[env.x]\ntriggers = { crons = ["3 4 * * *"] }')).toEqual([
      "1 2 * * *",
    ]);
    expect(cronSchedules('name = "x"')).toEqual([]);
    expect(cronTable(["7 7 * * *"])).toEqual([{ cron: "7 7 * * *", tasks: [] }]);
  });

  it("are named on the command line by task or by expression", () => {
    const table = localCronTable();
    expect(resolveCron(table, "recheck-claims")).toBe(RECHECK_CLAIMS_CRON);
    expect(resolveCron(table, "Recrawl stale sites")).toBe(RECRAWL_CRON);
    expect(resolveCron(table, RETENTION_PURGE_CRON)).toBe(RETENTION_PURGE_CRON);
    expect(() => resolveCron(table, "nightly")).toThrow(
      /no cron named "nightly".*recheck-claims \(\*\/15 \* \* \* \*\)/,
    );
    expect(commandName("  recrawl   stale sites ")).toBe("recrawl-stale-sites");
  });

  it("fire on their schedule, in UTC, and say when they fire next", async () => {
    // The clock is the test's: Croner's timers and Date move only when the test moves them.
    vi.useFakeTimers({ now: new Date("2026-11-27T08:00:00.500Z") });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const fired: string[] = [];
    // Croner reads a sixth, leading field as seconds: every second here.
    const scheduler = scheduleCrons(["* * * * * *", "0 0 1 1 *"], async (cron) => {
      fired.push(cron);
    });
    try {
      const next = scheduler.next();
      expect(next[0]?.at?.toISOString()).toBe("2026-11-27T08:00:01.000Z");
      expect(next[1]?.at?.toISOString()).toBe("2027-01-01T00:00:00.000Z");
      await vi.advanceTimersByTimeAsync(2_600);
      expect(fired).toEqual(["* * * * * *", "* * * * * *", "* * * * * *"]);
    } finally {
      scheduler.stop();
    }
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fired).toHaveLength(3);
  });

  it("are run through wrangler dev's scheduled-handler URL, with the outcome it reports", async () => {
    const asked: string[] = [];
    server = createServer((incoming, outgoing) => {
      asked.push(incoming.url ?? "");
      const failing = incoming.url?.includes("40%203");
      outgoing.writeHead(failing ? 500 : 200, { "content-type": "text/plain" });
      outgoing.end(failing ? "exception" : "ok");
    });
    const port = await listen(server, 0);
    expect(await triggerCron(port, RECHECK_CLAIMS_CRON)).toEqual({ ok: true, outcome: "ok" });
    expect(await triggerCron(port, RETENTION_PURGE_CRON)).toEqual({ ok: false, outcome: "exception" });
    expect(asked).toEqual([
      "/cdn-cgi/handler/scheduled?cron=*%2F15%20*%20*%20*%20*",
      "/cdn-cgi/handler/scheduled?cron=40%203%20*%20*%20*",
    ]);
  });
});

const run = (port: number, pid = process.pid): LocalRun => ({
  pid,
  port,
  wranglerPort: port + 1,
  databaseUrl: `http://127.0.0.1:${port + 2}/sql?db=x`,
  crons: [],
  startedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, port % 60)).toISOString(),
});

describe("finding the running npm start", () => {
  it("finds the only running one, ignores stopped ones, and forgets a run when it stops", () => {
    const dir = tempDir();
    expect(() => findLocalRun({ dir })).toThrow(/no running `npm start` was found/);
    // A pid no process has (above Linux's pid_max): a run that ended without cleaning up.
    recordLocalRun(run(8001, 2 ** 23), dir);
    const forget = recordLocalRun(run(8002), dir);
    expect(findLocalRun({ dir })).toEqual(run(8002));
    forget();
    expect(runningLocalRuns(dir)).toEqual([]);
  });

  it("asks which when several run, and PORT picks one", () => {
    const dir = tempDir();
    recordLocalRun(run(8003), dir);
    recordLocalRun(run(8004), dir);
    expect(() => findLocalRun({ dir })).toThrow(/2 local stacks are running \(ports 8003, 8004\): name one with PORT/);
    expect(findLocalRun({ dir, port: "8004" }).port).toBe(8004);
    expect(() => findLocalRun({ dir, port: "9" })).toThrow(/no running `npm start` on port 9/);
  });
});

describe("the operator's database", () => {
  it("is DATABASE_URL's when set, named without its credentials", () => {
    const chosen = operatorDatabase({ DATABASE_URL: "postgres://ops:secret@db.example:5432/prod" }, () => {
      throw new Error("not asked");
    });
    expect(chosen.env.DATABASE_URL).toBe("postgres://ops:secret@db.example:5432/prod");
    expect(chosen.description).toBe("DATABASE_URL (db.example:5432/prod)");
    expect(chosen.description).not.toContain("secret");
  });

  it("is the running npm start's otherwise, over SQL over HTTP, and says which", () => {
    const ports: (string | undefined)[] = [];
    const chosen = operatorDatabase({ PORT: "8005" }, ({ port }) => {
      ports.push(port);
      return run(8005);
    });
    expect(ports).toEqual(["8005"]);
    expect(chosen.env).toMatchObject({ DATABASE_URL: run(8005).databaseUrl, DATABASE_LOCAL_HTTP: "true" });
    expect(chosen.description).toBe(
      `the database of the \`npm start\` on port 8005 (pid ${process.pid}, SQL over HTTP at 127.0.0.1:8007)`,
    );
  });
});
