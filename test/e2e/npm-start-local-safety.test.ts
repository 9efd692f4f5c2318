/**
 * What `npm start` keeps safe on a shared machine: no secret on any command line (`ps` shows
 * every user of the machine every process's arguments); the settings file wrangler reads instead
 * is its owner's alone and is gone once the run stops.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { DEV_VARS_DIR } from "../../scripts/wrangler-dev.ts";
import { type RunningService, startService } from "../support/npm-start.ts";

const run = promisify(execFile);
let service: RunningService | undefined;
afterEach(() => {
  service?.stop();
  service = undefined;
});

/** Every process's whole command line, as any user of the machine reads them, with its group. */
async function processList(): Promise<{ group: number; args: string }[]> {
  const { stdout } = await run("ps", ["-eww", "-o", "pgid=,args="], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .flatMap((match) => (match ? [{ group: Number(match[1]), args: match[2] ?? "" }] : []));
}

describe("npm start and its secrets", () => {
  it("puts no secret on a command line: wrangler reads them from a file only its owner can read", async () => {
    const secrets = {
      RATE_LIMIT_KEY_SECRET: `e2e-rate-limit-${"k".repeat(32)}`,
      ATTRIBUTION_SIGNING_KEYS: `e2e-att:${"a".repeat(40)}`,
      RECEIPT_SIGNING_KEYS: `e2e-rcpt:${"r".repeat(40)}`,
    };
    service = await startService({ PGLITE_DATA_DIR: "memory", ...secrets });
    // The Worker got its settings from the file: its database answers.
    expect((await fetch(`${service.origin}/healthz`)).status).toBe(200);

    const processes = await processList();
    const everyone = processes.map((entry) => entry.args).join("\n");
    // This run's own processes (other runs on the machine may be older code).
    const group = service.group;
    const ours = processes.filter((entry) => entry.group === group).map((entry) => entry.args);
    expect(
      ours.some((args) => args.includes("wrangler.js dev")),
      ours.join("\n"),
    ).toBe(true);
    for (const value of Object.values(secrets)) expect(everyone, value).not.toContain(value);
    for (const args of ours) {
      expect(args).not.toMatch(/--var\b/);
      for (const value of ["whsec_local_stack_secret", "sk_test_local_stack", "local-stack-token"]) {
        expect(args, value).not.toContain(value);
      }
    }

    const port = /--port (\d+)/.exec(ours.find((args) => args.includes("wrangler.js dev")) ?? "")?.[1];
    const file = join(DEV_VARS_DIR, `wrangler-${port}.env`);
    expect(existsSync(file), `${file} in ${readdirSync(DEV_VARS_DIR)}`).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(DEV_VARS_DIR).mode & 0o777).toBe(0o700);

    service.stop();
    service = undefined;
    for (let waited = 0; waited < 10_000 && existsSync(file); waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(existsSync(file)).toBe(false);
  });
});
