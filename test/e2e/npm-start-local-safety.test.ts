/**
 * What `npm start` keeps safe on a shared machine and in a browser: no secret on any command line
 * (`ps` shows every user of the machine every process's arguments), the settings file wrangler
 * reads instead its owner's alone and gone once the run stops; only loopback names and the public
 * origin are served (DNS rebinding); a body declared over the limit is refused at once and
 * `Expect: 100-continue` answered; its output names its own ports, never wrangler's internal one.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEV_VARS_DIR } from "../../scripts/wrangler-dev.ts";
import { MAX_BODY_BYTES } from "../../src/http/middleware/request-size.ts";
import { type RunningService, startService } from "../support/npm-start.ts";

const run = promisify(execFile);
let service: RunningService | undefined;
const secrets = {
  RATE_LIMIT_KEY_SECRET: `e2e-rate-limit-${"k".repeat(32)}`,
  ATTRIBUTION_SIGNING_KEYS: `e2e-att:${"a".repeat(40)}`,
  RECEIPT_SIGNING_KEYS: `e2e-rcpt:${"r".repeat(40)}`,
};
// One run for every test here (a start takes most of a minute on a busy machine).
// Its run record apart from other test files' runs, so that demo:score-drop finds this one alone.
const runsDir = mkdtempSync(join(tmpdir(), "npm-start-runs-"));
beforeAll(async () => {
  // A small demo index (this file needs a few sites, not the default 3000): quicker on a busy machine.
  service = await startService(
    {
      PGLITE_DATA_DIR: "memory",
      PGLITE_START_FROM: inject("migratedPglite"),
      LOCAL_RUNS_DIR: runsDir,
      DEMO_SITES: "200",
      ...secrets,
    },
    170_000,
  );
}, 180_000);
afterAll(() => service?.stop());

/** Every process's whole command line, as any user of the machine reads them, with its group. */
async function processList(): Promise<{ group: number; args: string }[]> {
  const { stdout } = await run("ps", ["-eww", "-o", "pgid=,args="], { maxBuffer: 64 * 1024 * 1024 });
  return stdout
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .flatMap((match) => (match ? [{ group: Number(match[1]), args: match[2] ?? "" }] : []));
}

describe("npm start on a shared machine", () => {
  it("answers a body declared over the limit at once, Expect: 100-continue, and loopback names only", async () => {
    await edgeAnswers(service!.origin);
  });

  it("names its own ports, never wrangler's internal one, and demo:score-drop finds the run", async () => {
    await outputAndDemoScoreDrop(service!);
  });

  it("serves local demo sites the live check reads, and fetches no other loopback host", async () => {
    const output = service!.output();
    const origins = Object.fromEntries(
      [...output.matchAll(/(ready|half-ready|soft-404) (http:\/\/127\.0\.0\.1:\d+)\//g)].map((match) => [
        match[1],
        match[2],
      ]),
    ) as Record<"ready" | "half-ready" | "soft-404", string>;
    expect(Object.keys(origins).sort(), output).toEqual(["half-ready", "ready", "soft-404"]);
    const check = async (url: string) => {
      const response = await fetch(`${service!.origin}/api/v1/check`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ url }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const ready = await check(`${origins.ready}/`);
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
    expect(ready.body).toMatchObject({
      crawl_status: "success",
      has_llms_txt: true,
      has_openapi: true,
      has_robots_ai: true,
      has_schema_org: true,
    });
    const half = await check(`${origins["half-ready"]}/`);
    expect(half.body).toMatchObject({ crawl_status: "success", has_llms_txt: true, has_openapi: false });
    // The catch-all answers 200 everywhere; none of it counts as a signal.
    const soft = await check(`${origins["soft-404"]}/`);
    expect(soft.body).toMatchObject({
      crawl_status: "success",
      has_llms_txt: false,
      has_openapi: false,
      has_ai_plugin: false,
      has_robots_ai: false,
    });
    const scores = [ready, half, soft].map((result) => Number(result.body.agentic_score));
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    expect(scores[1]).toBeGreaterThan(scores[2]!);

    // Any other loopback host (the stack's own SQL endpoint here) is still refused, as in production.
    const sqlPort = /LOCAL_SQL_PORT=(\d+)/.exec(output)?.[1];
    const other = await check(`http://127.0.0.1:${sqlPort}/`);
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(other.status).toBeLessThan(500);

    // Submit and /verify-mcp take the same exemption (REST and MCP), and still refuse the rest.
    const submit = async (url: string) => {
      const response = await fetch(`${service!.origin}/api/v1/submit`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ url }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const submitted = await submit(`${origins["half-ready"]}/`);
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(201);
    expect(submitted.body).toMatchObject({ domain: new URL(origins["half-ready"]).host, status: "queued" });
    expect((await submit(`http://127.0.0.1:${sqlPort}/`)).body).toMatchObject({ code: "URL_NOT_ALLOWED" });
    const verify = await fetch(
      `${service!.origin}/api/v1/verify-mcp?url=${encodeURIComponent(`${origins.ready}/mcp`)}`,
    );
    expect(verify.status).toBe(200);
    expect(await verify.json()).toMatchObject({ verified: false, endpoint: `${origins.ready}/mcp` });
    const mcp = new Client({ name: "e2e-demo-sites", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${service!.origin}/mcp`)));
    try {
      const checked = await mcp.callTool({ name: "check_site", arguments: { url: `${origins.ready}/` } });
      expect(checked.isError, JSON.stringify(checked.content)).toBeFalsy();
      expect(checked.structuredContent).toMatchObject({ crawl_status: "success", has_llms_txt: true });
      const verified = await mcp.callTool({ name: "verify_mcp", arguments: { url: `${origins.ready}/mcp` } });
      expect(verified.isError, JSON.stringify(verified.content)).toBeFalsy();
    } finally {
      await mcp.close();
    }

    // A demo index site (.example) offers the local demo sites instead of a check that cannot work.
    const top = (await (await fetch(`${service!.origin}/api/v1/top?limit=1`)).json()) as {
      results: { domain: string }[];
    };
    const demo = top.results[0]!.domain;
    expect(demo.endsWith(".example")).toBe(true);
    const page = await (await fetch(`${service!.origin}/sites/${demo}`)).text();
    expect(page).not.toContain("Check again now");
    expect(page).toContain("This site cannot be checked live.");
    for (const origin of Object.values(origins)) expect(page).toContain(`value="${origin}/"`);
  });

  // Last: it stops the run.
  it("puts no secret on a command line: wrangler reads them from a file only its owner can read", async () => {
    if (!service) throw new Error("npm start did not start");
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

/** One raw exchange on a fresh connection: what came within the first answer (or until the edge closed). */
function exchange(origin: string, head: string, then?: string): Promise<string> {
  const { port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(head));
    let text = "";
    let continued = false;
    socket.on("data", (chunk) => {
      text += String(chunk);
      if (then !== undefined && !continued && text.startsWith("HTTP/1.1 100 ") && text.includes("\r\n\r\n")) {
        continued = true;
        socket.write(then);
      }
      // Every answer of the edge and the Worker here is a JSON body, whole once its braces close.
      if (/\r\n\r\n[\s\S]*\}\s*$/.test(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ""))) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
}

async function edgeAnswers(origin: string) {
  const { host } = new URL(origin);
  // Declared over the limit, never sent: the 413 comes at once, while the connection is open.
  const declared = await exchange(
    origin,
    `POST /api/v1/check HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"url":`,
  );
  expect(declared).toMatch(/^HTTP\/1\.1 413 /);
  expect(declared).toContain('"code":"CONTENT_TOO_LARGE"');
  // 100 Continue, then the Worker's answer to the body sent after it.
  const body = JSON.stringify({ domain: "example.com" });
  const continued = await exchange(
    origin,
    `POST /api/v1/quote HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    body,
  );
  expect(continued).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 (200|400|422) /);
  const refusedExpect = await exchange(
    origin,
    `POST /api/v1/quote HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${MAX_BODY_BYTES * 2}\r\nExpect: 100-continue\r\n\r\n`,
  );
  expect(refusedExpect).toMatch(/^HTTP\/1\.1 413 /);

  // A page of another name rebound to 127.0.0.1, and another origin's page: 4xx problems.
  const reboundRaw = await exchange(origin, "GET /api/v1/search?q=agent HTTP/1.1\r\nHost: evil.example.com\r\n\r\n");
  expect(reboundRaw).toMatch(/^HTTP\/1\.1 421 /);
  expect(reboundRaw).toContain('"code":"MISDIRECTED_REQUEST"');
  // (Raw: these are the local edge's own answers, not the Worker's, so not in its OpenAPI document.)
  const foreign = await exchange(
    origin,
    `GET /api/v1/search?q=agent HTTP/1.1\r\nHost: ${host}\r\nOrigin: https://evil.example.com\r\n\r\n`,
  );
  expect(foreign).toMatch(/^HTTP\/1\.1 403 /);
  expect(foreign.toLowerCase()).toContain("content-type: application/problem+json");
  expect(foreign).toContain('"code":"ORIGIN_NOT_ALLOWED"');
  for (const name of ["localhost", "127.0.0.1"]) {
    const local = await exchange(origin, `GET /healthz HTTP/1.1\r\nHost: ${name}:${new URL(origin).port}\r\n\r\n`);
    expect(local, name).toMatch(/^HTTP\/1\.1 200 /);
  }
  const own = await fetch(`${origin}/api/v1/search?q=agent`, { headers: { Origin: origin } });
  expect(own.status).toBe(200);
}

async function outputAndDemoScoreDrop(service: RunningService) {
  const output = service.output();
  // wrangler's note about scheduled handlers, with its internal port, is not repeated.
  expect(output).not.toContain("Scheduled Workers are not automatically triggered");
  expect(output).not.toMatch(/cdn-cgi\/handler\/scheduled/);
  expect(output).toContain("npm start fires them on their crons");

  // demo:score-drop finds the run and prints its port, in a shell that never set PORT.
  const top = (await (await fetch(`${service.origin}/api/v1/top?limit=1`)).json()) as { results: { domain: string }[] };
  const domain = top.results[0]?.domain ?? "";
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: "", LOCAL_RUNS_DIR: runsDir };
  delete env.PORT;
  delete env.LOCAL_SQL_PORT;
  const drop = await run("npm", ["run", "-s", "demo:score-drop", "--", domain], { env });
  const { port } = new URL(service.origin);
  expect(drop.stdout).toContain(`${domain}: has_`);
  expect(drop.stdout).toContain(`PORT=${port} npm run cron -- monitor-alerts`);
  expect(drop.stdout).not.toContain("8787");
}
