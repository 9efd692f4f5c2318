/**
 * `npm start` as a user runs it: the local stack, migrations and `wrangler dev` come up and
 * /healthz answers 200 within 60 s; stopping the stack under the running Worker turns it into a
 * 503 problem+json. Runs on the embedded defaults and, when TEST_DATABASE_URL / TEST_REDIS_URL
 * name them, in front of real servers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freshServerDatabase } from "../support/server-database.ts";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function poll(url: string, accept: (status: number) => boolean, deadlineMs: number) {
  const started = Date.now();
  while (Date.now() - started < deadlineMs) {
    const response = await fetch(url).catch(() => undefined);
    if (response && accept(response.status)) return { response, elapsedMs: Date.now() - started };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer as expected within ${deadlineMs} ms`);
}

let running: ChildProcess | undefined;
afterEach(() => {
  // npm start runs in its own process group: end the stack and wrangler with it.
  if (running?.pid) process.kill(-running.pid, "SIGTERM");
  running = undefined;
});

const variants: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: "embedded defaults", env: async () => ({ PGLITE_DATA_DIR: "memory" }) },
];
if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) {
  variants.push({
    name: "real Postgres and Redis servers",
    env: async () => ({
      DATABASE_URL: await freshServerDatabase(process.env.TEST_DATABASE_URL as string, "e2e"),
      REDIS_URL: process.env.TEST_REDIS_URL as string,
    }),
  });
}

describe.each(variants)("npm start on $name", ({ env }) => {
  it("serves /healthz with 200 within 60 s, and 503 problem+json once the stack stops", async () => {
    const port = await freePort();
    const output: string[] = [];
    running = spawn("npm", ["start"], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...(await env()),
        PORT: String(port),
        LOCAL_SQL_PORT: "0",
        LOCAL_REDIS_PORT: "0",
        TEST_DATABASE_URL: "",
        TEST_REDIS_URL: "",
      },
    });
    running.stdout?.on("data", (chunk) => output.push(String(chunk)));
    running.stderr?.on("data", (chunk) => output.push(String(chunk)));

    const healthz = `http://127.0.0.1:${port}/healthz`;
    const up = await poll(healthz, (status) => status === 200, 60_000).catch((error) => {
      throw new Error(`${error.message}\n${output.join("")}`);
    });
    expect(await up.response.json()).toMatchObject({ status: "ok", database: { ok: true }, redis: { ok: true } });
    expect(output.join("")).toContain("demo index: 3000 synthetic sites loaded");

    const stackPid = Number(/local stack \(pid (\d+)\)/.exec(output.join(""))?.[1]);
    expect(stackPid).toBeGreaterThan(0);
    process.kill(stackPid, "SIGTERM");

    const down = await poll(healthz, (status) => status === 503, 15_000);
    expect(down.response.headers.get("content-type")).toBe("application/problem+json");
    expect(await down.response.json()).toMatchObject({
      status: 503,
      code: "DEPENDENCY_UNAVAILABLE",
      database: { ok: false },
      redis: { ok: false },
    });
  });
});
