/**
 * Dogfood: the service, started with `npm start` as a user runs it, crawled by our own crawler
 * (the guarded fetcher with private addresses allowed, as for the local fixture web, and the
 * Worker's connection limit) must score 100 with every one of the seven signals present.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch } from "../../src/adapters/guarded-fetch.ts";
import { crawlerUserAgent } from "../../src/adapters/outbound-fetch.ts";
import { createConcurrencyLimiter, WORKER_CONNECTION_LIMIT } from "../../src/domain/crawl/crawl-fetcher.ts";
import { crawlSite, type SiteCrawl } from "../../src/domain/crawl/crawl-site.ts";
import { SIGNAL_FIELDS } from "../../src/domain/sites/site-fields.ts";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForStatus(url: string, status: number, deadlineMs: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < deadlineMs) {
    const response = await fetch(url).catch(() => undefined);
    if (response?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer ${status} within ${deadlineMs} ms`);
}

let running: ChildProcess | undefined;
let origin = "";
const output: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  running = spawn("npm", ["start"], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PGLITE_DATA_DIR: "memory",
      // The crawl reads no search results: a small demo index starts faster.
      DEMO_SITES: "50",
      PORT: String(port),
      LOCAL_SQL_PORT: "0",
      LOCAL_REDIS_PORT: "0",
      DATABASE_URL: "",
      REDIS_URL: "",
      TEST_DATABASE_URL: "",
      TEST_REDIS_URL: "",
      // Every document must name the origin the crawler reached.
      PUBLIC_ORIGIN: "",
    },
  });
  running.stdout?.on("data", (chunk) => output.push(String(chunk)));
  running.stderr?.on("data", (chunk) => output.push(String(chunk)));
  await waitForStatus(`${origin}/healthz`, 200, 90_000).catch((error) => {
    throw new Error(`${error.message}\n${output.join("")}`);
  });
});

afterAll(() => {
  // npm start runs in its own process group: end the stack and wrangler with it.
  if (running?.pid) process.kill(-running.pid, "SIGTERM");
  running = undefined;
});

describe("dogfood: our crawler on our own service", () => {
  let crawl: SiteCrawl;
  beforeAll(async () => {
    crawl = await crawlSite({
      origin,
      fetcher: createGuardedFetch({
        allowPrivate: true,
        resolver: () => Promise.reject(new Error("no lookups: the target is an IP literal")),
        userAgent: crawlerUserAgent(origin),
      }),
      limiter: createConcurrencyLimiter(WORKER_CONNECTION_LIMIT),
    });
    const report = SIGNAL_FIELDS.map(
      (field) => `${field}: ${crawl.signals[field].status}: ${crawl.signals[field].reason}`,
    );
    console.log(`dogfood ${origin}: score ${crawl.agenticScore}, ${crawl.crawlStatus}\n${report.join("\n")}`);
  });

  it("crawls the home page successfully", () => {
    expect(crawl.crawlStatus, crawl.crawlNote).toBe("success");
  });

  it("finds all seven signals present and scores 100", () => {
    const notPresent = SIGNAL_FIELDS.filter((field) => crawl.signals[field].status !== "present").map(
      (field) => `${field} ${crawl.signals[field].status}: ${crawl.signals[field].reason}`,
    );
    expect(notPresent, notPresent.join("\n")).toEqual([]);
    expect(crawl.agenticScore).toBe(100);
  });
});
