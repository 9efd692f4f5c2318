/**
 * `npm run fuzz -- [--count N] [--seed S] [--url URL] [--concurrency C]`: the schema-driven
 * fuzzer of test/support/fuzz.ts, longer than the CI run.
 *
 * - With `--url` (e.g. the origin `npm start` prints), it sends over HTTP to that running service,
 *   without credentials (authenticated operations are fuzzed up to their 401), and judges every
 *   answer by the same rules as the test. Talks to that URL only.
 * - Without `--url`, it runs test/integration/fuzz.test.ts (the Worker in-process inside workerd,
 *   with the integration stack and a session and provider key of its own) for N requests per seed,
 *   with no time budget: the fixed seed and S (random unless given).
 *
 * Prints the seed (replay it with --seed), the counts of statuses and the first failures with
 * their requests; exits 1 on any failure. Default: 20000 requests.
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { createGroups } from "../src/routes/groups.ts";
import { openApiDocumentOf } from "../src/routes/openapi-spec.ts";
import { reportFuzz, runFuzz } from "../test/support/fuzz.ts";

const { values } = parseArgs({
  options: {
    count: { type: "string", default: "20000" },
    seed: { type: "string" },
    url: { type: "string" },
    concurrency: { type: "string", default: "4" },
  },
});
const count = Number(values.count);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(values.seed);
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(seed)) {
  console.error("usage: npm run fuzz -- [--count N] [--seed S] [--url URL] [--concurrency C]");
  process.exit(2);
}

if (values.url === undefined) {
  // Both seeds of the test file, each with `count` requests.
  console.log(`fuzz: ${count} requests per seed in-process (the fixed seed and ${seed})`);
  const result = spawnSync("npx", ["vitest", "run", "--project", "integration", "test/integration/fuzz.test.ts"], {
    stdio: "inherit",
    env: { ...process.env, FUZZ_COUNT: String(count), FUZZ_SEED: String(seed), FUZZ_BUDGET_MS: "0" },
  });
  process.exit(result.status ?? 1);
}

const base = values.url.replace(/\/$/, "");
const origin = new URL(base).origin;
console.log(`fuzz: ${count} requests to ${base}, seed ${seed}`);
const run = await runFuzz({
  document: openApiDocumentOf(createGroups()),
  seed,
  count,
  concurrency: Number(values.concurrency),
  credentials: { ownOrigin: origin },
  send: async (request) => {
    const response = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: "manual",
      signal: AbortSignal.timeout(60_000),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  },
});
console.log(reportFuzz(run, 30));
process.exit(run.failures.length === 0 ? 0 : 1);
