import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { ProjectRankSequencer } from "./test/support/run-order.ts";
import { integrationBindings } from "./test/support/stack-settings.ts";

const runId = randomBytes(4).toString("hex");

/**
 * Test files run side by side: most of an integration or protocol file's time is spent waiting
 * (on workerd, the local stack, a fixture site's deliberate delay), so on 2 cores several files at
 * a time finish sooner than one (docs/testing.md has the figures). The first group runs five at a
 * time: the unit files, pure computation, fill the others' waits, and so do the long e2e files
 * that mostly wait (e2e-beside: the checker's comparison of the fixture web, the two 3,000-site
 * starts, the starts over a data folder). The other files that start `npm start` (e2e, each file
 * its own; browser, one for the project) run after them, three at a time. With them go the
 * integration files that count the whole index (integration-alone, on the integration project's
 * stack), which e2e and browser never write. The longest files start first in their group (test/support/run-order.ts).
 */
const SIDE_BY_SIDE = { maxWorkers: 5, sequence: { groupOrder: 1 } };
const AFTER_THE_FIRST = { maxWorkers: 3, sequence: { groupOrder: 2 } };

/** What the projects that start `npm start` share. */
const E2E = {
  environment: "node",
  // The services of the files that are not about the start itself begin from it too.
  globalSetup: ["test/support/migrated-pglite-setup.ts"],
  // Every answer of the running service's API is held to its OpenAPI document.
  setupFiles: ["test/support/e2e-contract.ts"],
  testTimeout: 120_000,
  hookTimeout: 120_000,
};
const E2E_BESIDE = [
  "test/e2e/readiness-cli.test.ts",
  "test/e2e/npm-start.test.ts",
  "test/e2e/npm-start-data-dir.test.ts",
  "test/e2e/npm-start-damaged-data-dir.test.ts",
];

/** The projects named on the command line (`--project x` or `--project=x`); none means all. */
function namedProjects(argv: string[]): string[] {
  return argv.flatMap((arg, i) =>
    arg === "--project" ? [argv[i + 1] ?? ""] : arg.startsWith("--project=") ? [arg.slice("--project=".length)] : [],
  );
}

/**
 * Alone (`npm run test:unit`), the unit files have nothing to wait beside: one at a time is
 * faster there (two at a time was slower on 2 cores).
 */
const named = namedProjects(process.argv);
const UNIT_GROUP =
  named.length > 0 && named.every((name) => name === "unit")
    ? { maxWorkers: 1, sequence: { groupOrder: 0 } }
    : SIDE_BY_SIDE;

export default defineConfig({
  test: {
    sequence: { sequencer: ProjectRankSequencer },
    projects: [
      {
        test: {
          name: "unit",
          ...UNIT_GROUP,
          isolate: false,
          environment: "node",
          include: ["test/unit/**/*.test.{ts,tsx}"],
        },
        // workerd's built-in module, for the Worker entries the unit files load in Node.
        resolve: {
          alias: {
            "cloudflare:workers": fileURLToPath(
              new URL("./test/support/cloudflare-workers-in-node.ts", import.meta.url),
            ),
          },
        },
      },
      {
        // The deployable bundles: which jobs each holds, and the size budget (builds them unless
        // WORKER_BUNDLES_DIR names the ones `npm test` already built).
        test: {
          name: "bundles",
          ...SIDE_BY_SIDE,
          environment: "node",
          include: ["test/bundles/**/*.test.{ts,tsx}"],
          // A migrated embedded database for the stack to start from (as the protocol files do).
          globalSetup: ["test/support/migrated-pglite-setup.ts"],
          hookTimeout: 240_000,
        },
      },
      {
        test: {
          name: "protocol",
          ...SIDE_BY_SIDE,
          isolate: false,
          environment: "node",
          include: ["test/protocol/**/*.test.{ts,tsx}"],
          // One migrated embedded database that the files' stacks start from, rather than each
          // applying the 40 migrations (scripts/local-stack/migrated-pglite.ts).
          globalSetup: ["test/support/migrated-pglite-setup.ts"],
          // The embedded PGlite answers in the test's own process: at load average 11 on 2 cores a
          // recomputation of the search index that takes 2 s alone took 36 s (2026-12-02).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          ...AFTER_THE_FIRST,
          ...E2E,
          include: ["test/e2e/**/*.test.{ts,tsx}"],
          exclude: E2E_BESIDE,
        },
      },
      {
        // The long e2e files, mostly waiting (on the fixture sites' delays, on two starts of 3,000
        // demo sites one after the other, on starts over a data folder), run beside the first
        // group rather than after it.
        test: { name: "e2e-beside", ...SIDE_BY_SIDE, ...E2E, include: E2E_BESIDE },
      },
      {
        // The pages in Debian's Chromium, against one `npm start` for the whole project.
        test: {
          name: "browser",
          ...AFTER_THE_FIRST,
          environment: "node",
          include: ["test/browser/**/*.test.{ts,tsx}"],
          globalSetup: ["test/support/browser-stack.ts"],
          // Each file waits for that service, which starts while the first group runs.
          setupFiles: ["test/support/browser-service-ready.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: integrationBindings(runId) },
          }),
        ],
        test: {
          name: "integration",
          ...SIDE_BY_SIDE,
          include: ["test/integration/**/*.test.{ts,tsx}"],
          globalSetup: ["test/support/integration-stack.ts"],
          testTimeout: 30_000,
        },
      },
      {
        // Files that count the whole index: nothing else writes it while they run.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: integrationBindings(runId) },
          }),
        ],
        test: {
          name: "integration-alone",
          ...AFTER_THE_FIRST,
          // The stack is the integration project's; this only hands over the published document.
          globalSetup: ["test/support/openapi-document-setup.ts"],
          include: ["test/integration-alone/**/*.test.{ts,tsx}"],
          testTimeout: 30_000,
        },
      },
      {
        // The fetch guards as in production (no private addresses), against the same local stack.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: integrationBindings(runId, { allowPrivate: false }) },
          }),
        ],
        test: {
          name: "integration-guarded",
          ...SIDE_BY_SIDE,
          // The stack is the integration project's; this only hands over the published document.
          globalSetup: ["test/support/openapi-document-setup.ts"],
          include: ["test/integration-guarded/**/*.test.{ts,tsx}"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
