/**
 * `npm start` as a user runs it: the local stack, migrations and `wrangler dev` come up and
 * /healthz answers 200 (how soon is measured quietly, in the README, not here); a client cannot
 * choose the address it is counted as; a priority key and a score fix are bought through the local
 * pay page, whose signed webhooks the Worker accepts, and the key works; bodies over the limit get
 * the Worker's 413 without disturbing others, and an unusable Host a 400; the crons are scheduled,
 * `npm run cron` runs one and `npm run operator` finds the run's database; stopping the stack
 * under the running Worker turns /healthz and a search into 503 problem+json, while the reads the
 * edge keeps are still answered from it, the same, without a store. Runs on the embedded defaults
 * and, when TEST_DATABASE_URL / TEST_REDIS_URL name them, in front of real servers.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { pollStatus, type RunningService, SERVICE_START_WITHIN_MS, startService } from "../support/npm-start.ts";
import { freshServerDatabase, freshServerRedis } from "../support/server-database.ts";

let service: RunningService | undefined;
afterEach(() => {
  service?.stop();
  service = undefined;
});

const variants: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: "embedded defaults", env: async () => ({ PGLITE_DATA_DIR: "memory" }) },
];
if (process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL) {
  variants.push({
    name: "real Postgres and Redis servers",
    env: async () => ({
      DATABASE_URL: await freshServerDatabase(process.env.TEST_DATABASE_URL as string, "e2e"),
      REDIS_URL: await freshServerRedis(process.env.TEST_REDIS_URL as string),
    }),
  });
}

/** The start, then two minutes for the rest. */
const TEST_WITHIN_MS = SERVICE_START_WITHIN_MS + 120_000;

describe.each(variants)("npm start on $name", ({ env }) => {
  it("serves /healthz with 200, and 503 problem+json once the stack stops", { timeout: TEST_WITHIN_MS }, async () => {
    service = await startService(await env(), SERVICE_START_WITHIN_MS);
    const healthz = `${service.origin}/healthz`;
    const up = await pollStatus(healthz, (status) => status === 200, 1_000);
    expect(await up.response.json()).toMatchObject({ status: "ok", database: { ok: true }, redis: { ok: true } });
    const output = service.output();
    expect(output).toContain("demo index: 3000 synthetic sites loaded");

    // The client is who the connection says, as on Cloudflare: a CF-Connecting-IP of the client's
    // own choosing is replaced, so every one of these searches counts against the same client.
    const remaining: number[] = [];
    for (const spoofed of ["203.0.113.1", "203.0.113.2", "2001:db8::1"]) {
      const response = await fetch(`${service.origin}/api/v1/search?q=agent`, {
        headers: { "CF-Connecting-IP": spoofed, "X-SVC-Synthetic": "true" },
      });
      expect(response.status).toBe(200);
      remaining.push(Number(response.headers.get("ratelimit-remaining")));
    }
    expect(remaining).toEqual([remaining[0], (remaining[0] ?? 0) - 1, (remaining[0] ?? 0) - 2]);

    await buyThroughThePayPage(service.origin, output);
    await largeBodiesAndOddHeads(service.origin);
    await cronsAndOperator(service.origin, output);
    const edgeReads = await readsToKeepAtTheEdge(service.origin);

    const stackPid = Number(/local stack \(pid (\d+)\)/.exec(output)?.[1]);
    expect(stackPid).toBeGreaterThan(0);
    process.kill(stackPid, "SIGTERM");

    // The stack closes its SQL and Redis endpoints one after the other (under load the first 503
    // has come while Redis still answered): what is held to the contract is the answer once both
    // are gone.
    const down = await bothStoresGone(healthz, 15_000);
    expect(down.contentType).toBe("application/problem+json");
    expect(down.body).toMatchObject({
      status: 503,
      code: "DEPENDENCY_UNAVAILABLE",
      database: { ok: false },
      redis: { ok: false },
    });

    // Every database-backed endpoint says the same, quickly, never 500.
    const started = Date.now();
    const search = await fetch(`${service.origin}/api/v1/search?q=agent`);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(search.status).toBe(503);
    expect(search.headers.get("retry-after")).toBe("5");
    expect(await search.json()).toMatchObject({ code: "DEPENDENCY_UNAVAILABLE", retry_after_seconds: 5 });

    // A repeated cacheable read makes no SQL and no Redis request: with both stores gone it is
    // still answered, the same, from the edge (wrangler dev's Cache API).
    for (const [path, first] of edgeReads) {
      const again = await fetch(`${service.origin}${path}`);
      expect(again.status, path).toBe(200);
      expect(await again.text(), path).toBe(first);
    }
  });
});

/**
 * Polls /healthz until it answers 503 with neither store reachable, or `withinMs` has passed;
 * gives the last 503's content type and body.
 */
async function bothStoresGone(healthz: string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const { response } = await pollStatus(healthz, (status) => status === 503, Math.max(deadline - Date.now(), 1));
    const body = (await response.json()) as { database?: { ok: boolean }; redis?: { ok: boolean } };
    const gone = { contentType: response.headers.get("content-type"), body };
    if ((body.database?.ok === false && body.redis?.ok === false) || Date.now() > deadline) return gone;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Reads the edge keeps (docs/operations.md, "Reads from the edge"), each read once so that the
 * edge stores it, with the body it answered.
 */
async function readsToKeepAtTheEdge(origin: string): Promise<[string, string][]> {
  const search = (await (await fetch(`${origin}/api/v1/search?q=agent`)).json()) as { results: { domain: string }[] };
  const domain = search.results[0]?.domain ?? "";
  expect(domain).not.toBe("");
  const paths = [
    "/api/v1/top?limit=7",
    "/api/v1/categories",
    "/api/v1/stats",
    `/api/v1/site/${domain}`,
    `/badge/${domain}.svg`,
    "/api/v1/stats/adoption",
    `/sites/${domain}`,
    "/state",
  ];
  const reads: [string, string][] = [];
  for (const path of paths) {
    const response = await fetch(`${origin}${path}`);
    expect(response.status, path).toBe(200);
    reads.push([path, await response.text()]);
  }
  return reads;
}

const run = promisify(execFile);

/**
 * Bodies over the limit get the Worker's 413 problem, whatever their size, and requests in flight
 * beside them are not disturbed; a request head the runtime could not make a URL of gets a 400.
 */
async function largeBodiesAndOddHeads(origin: string) {
  const upload = (size: number) =>
    fetch(`${origin}/api/v1/check`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "a".repeat(size),
    });
  for (const size of [70_000, 300 * 1024, 2 * 1024 * 1024, 10 * 1024 * 1024]) {
    const response = await upload(size);
    expect(response.status, `${size} bytes`).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as { code: string; request_id: string };
    expect(problem.code).toBe("CONTENT_TOO_LARGE");
    expect(problem.request_id).toBe(response.headers.get("x-request-id"));
  }
  const quote = () => postJson(`${origin}/api/v1/quote`, {}).then((response) => response.status);
  const statuses = await Promise.all([
    upload(10 * 1024 * 1024).then((response) => response.status),
    upload(300 * 1024).then((response) => response.status),
    ...Array.from({ length: 40 }, quote),
  ]);
  expect(statuses).toEqual([413, 413, ...Array.from({ length: 40 }, () => 200)]);

  const { port } = new URL(origin);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(`GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1:${port}@evil.example\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (chunk) => {
      text += String(chunk);
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(answer).toContain('"code":"BAD_REQUEST"');
  expect((await fetch(`${origin}/healthz`)).status).toBe(200);
}

/** The crons are scheduled and one runs on demand; the operator finds this run's database. */
async function cronsAndOperator(origin: string, output: string) {
  expect(output).toMatch(/cron: recheck-claims on "\*\/15 \* \* \* \*" \(UTC\), next at \d{4}-/);
  expect(output).toMatch(/cron: retention-purge on "40 3 \* \* \*" \(UTC\)/);
  const env = { ...process.env, PORT: new URL(origin).port, DATABASE_URL: "", OPERATOR: "e2e" };
  const cron = await run("npm", ["run", "-s", "cron", "--", "recheck-claims"], { env });
  expect(cron.stdout).toContain('cron "*/15 * * * *": ok');
  const operator = await run("npm", ["run", "-s", "operator", "--", "list-pending"], { env });
  expect(operator.stderr).toContain(`operator: acting on the database of the \`npm start\` on port ${env.PORT}`);
  expect(JSON.parse(operator.stdout)).toHaveProperty("offers_ready_to_activate");

  // A seed import queues each new site once and reports the rest; a second run queues nothing.
  const list = join(mkdtempSync(join(tmpdir(), "seed-import-")), "seeds.txt");
  writeFileSync(
    list,
    "e2e-one.seed-example.com\nhttps://e2e-two.seed-example.com/about\nE2E-ONE.seed-example.com\nnot a domain\n",
  );
  const first = await run("npm", ["run", "-s", "operator", "--", "import", list], { env });
  expect(first.stderr).toContain("import: done 4/4 · queued 2 · skipped 1 (already indexed 0) · invalid 1");
  expect(first.stderr).toContain("invalid line 4: more than one word on the line");
  expect(JSON.parse(first.stdout)).toMatchObject({ queued: 2, skipped: 1, alreadyIndexed: 0, invalid: 1 });
  const second = await run("npm", ["run", "-s", "operator", "--", "import", list], { env });
  expect(JSON.parse(second.stdout)).toMatchObject({ queued: 0, skipped: 3, skippedBy: { "already imported": 2 } });
}

const postJson = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

/** The README's walk-through: a key bought, paid on the pay page, activated and used; a score fix paid. */
async function buyThroughThePayPage(origin: string, output: string) {
  const stripe = /payments: local Stripe stand-in (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
  expect(stripe).toBeDefined();
  const deliveries = async (sessionId: string) =>
    ((await (await fetch(`${stripe}/control/events`)).json()) as { payload: string; delivery: unknown }[])
      .filter((event) => event.payload.includes(sessionId))
      .map((event) => event.delivery);

  const order = (await (
    await postJson(`${origin}/api/v1/api-keys/subscribe`, { email: "e2e@example.com" })
  ).json()) as {
    checkout_url: string;
    checkout_session_id: string;
  };
  expect(order.checkout_url).toBe(`${stripe}/pay/${order.checkout_session_id}`);
  const paid = await fetch(order.checkout_url, { method: "POST", redirect: "manual" });
  expect(paid.status).toBe(303);
  expect(await deliveries(order.checkout_session_id)).toEqual([{ status: 200 }]);
  const activation = await fetch(paid.headers.get("location") as string);
  const { api_key: key } = (await activation.json()) as { api_key: string };
  expect(key).toMatch(/^svcpri_/);
  const search = await fetch(`${origin}/api/v1/search?q=agent`, {
    headers: { Authorization: `Bearer ${key}`, "X-SVC-Synthetic": "true" },
  });
  expect(search.status).toBe(200);
  expect(search.headers.get("ratelimit-limit")).toBe("5000");

  const fix = (await (
    await postJson(`${origin}/api/v1/checkout`, { host: "example.com", email: "e2e@example.com" })
  ).json()) as { checkout_url: string; checkout_session_id: string };
  expect((await fetch(fix.checkout_url, { method: "POST", redirect: "manual" })).status).toBe(303);
  expect(await deliveries(fix.checkout_session_id)).toEqual([{ status: 200 }]);
}
