/**
 * Starting the local service on a shared machine: every `wrangler dev` gets an inspector port of
 * its own (two left to wrangler's default both took 9229, and one died), and a start whose process
 * died is reported at once, with why, instead of after the whole readiness deadline.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { freePort, inspectorPortArgs } from "../../scripts/wrangler-dev.ts";
import { pollStatus } from "../support/npm-start.ts";

describe("a wrangler dev of its own", () => {
  it("names its own inspector port, in the option this wrangler takes", () => {
    expect(inspectorPortArgs(61234)).toEqual(["--inspector-port", "61234"]);
    expect(inspectorPortArgs(undefined)).toEqual([]);
    const help = spawnSync(process.execPath, ["node_modules/wrangler/bin/wrangler.js", "dev", "--help"], {
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    expect(help.stdout).toMatch(/--inspector-port\b/);
  }, 60_000);
});

describe("waiting for a local service", () => {
  it("gives up as soon as the service's process has exited, saying so", async () => {
    const url = `http://127.0.0.1:${await freePort()}/healthz`; // nothing listens there
    const child = spawn(process.execPath, ["-e", "process.exit(3)"]);
    await once(child, "exit");
    // The deadline is far beyond the test's own timeout: only the exit can end the wait in time.
    await expect(pollStatus(url, (status) => status === 200, 600_000, child)).rejects.toThrow(
      /never answered: its process exited \(3\)/,
    );
  });
});
