/**
 * `npm test`: `wrangler deploy --dry-run` of every environment (with its gzip size) and the OpenAPI
 * document's lint (Redocly and Spectral), side by side, then every test project: unit and protocol
 * (Node), integration (inside workerd) and e2e (`npm start` as a user runs it) and browser (the
 * pages in Chromium against `npm start`). Lint and typecheck run beside the tests, at a lower
 * priority: no test needs them, and they take the CPU the tests leave idle while they wait.
 *
 * TEST_DATABASE_URL / TEST_REDIS_URL put the test stacks in front of real Postgres and Redis
 * servers (CI does this); without them the embedded defaults are used.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { gzipSync } from "node:zlib";

const bin = (name: string) => `node_modules/.bin/${name}`;

interface Step {
  title: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Checked once the step has passed; a message fails the run. */
  after?: () => string | undefined;
}

/**
 * Runs `step`, its output printed whole when it ends (so the log reads as if the steps ran one
 * after another); resolves with why it failed, or undefined. With `niceness`, it runs at that
 * lower priority (`nice`), its threads too.
 */
function runStep(step: Step, niceness?: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const started = performance.now();
    const [command, args] =
      niceness === undefined
        ? [step.command, step.args]
        : ["nice", ["-n", String(niceness), step.command, ...step.args]];
    const child = spawn(command, args, { env: { ...process.env, ...step.env } });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code, signal) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`\n== ${step.title} (${seconds} s)\n${output.trimEnd()}`);
      const failure = code !== 0 ? `exit ${code ?? signal}` : step.after?.();
      if (failure) console.error(`\n${step.title} failed (${failure})`);
      resolve(failure);
    });
  });
}

/**
 * The builds and checks the tests need, side by side (each is mostly one process waiting on
 * itself, and they share nothing). The first failure stops the run.
 */
async function runSideBySide(steps: Step[], concurrency: number): Promise<void> {
  const queue = [...steps];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let step = queue.shift(); step; step = queue.shift()) {
        if (await runStep(step)) process.exit(1);
      }
    }),
  );
}

const { createGroups } = await import("../src/routes/groups.ts");
const { buildOpenApiDocument, withOrigin } = await import("../src/routes/openapi-spec.ts");
mkdirSync("dist", { recursive: true });
writeFileSync(
  "dist/openapi.json",
  `${JSON.stringify(withOrigin(buildOpenApiDocument(createGroups()), "http://127.0.0.1:8787"), null, 2)}\n`,
);

const environments = [
  "",
  ...[...readFileSync("wrangler.toml", "utf8").matchAll(/^\[env\.([a-z0-9-]+)\]/gm)].map((m) => m[1] as string),
];
const sizes: string[] = [];
const builds: Step[] = environments.map((environment) => {
  const name = environment || "all";
  return {
    title: `wrangler deploy --dry-run ${environment ? `--env ${environment}` : "(all-in-one)"}`,
    command: bin("wrangler"),
    args: [
      "deploy",
      "--dry-run",
      "--outdir",
      `dist/${name}`,
      "--metafile",
      `dist/${name}.meta.json`,
      ...(environment ? ["--env", environment] : []),
    ],
    env: { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    after: () => {
      const bundle = `dist/${name}/${environment ? environment : "all"}.js`;
      const gzipKiB = gzipSync(readFileSync(bundle)).length / 1024;
      sizes.push(`${name}: ${(statSync(bundle).size / 1024).toFixed(1)} KiB, gzip ${gzipKiB.toFixed(1)} KiB`);
      return gzipKiB > 1024 ? `bundle ${name} is over the 1 MiB gzip budget` : undefined;
    },
  };
});

await runSideBySide(
  [
    {
      title: "OpenAPI lint (redocly, recommended)",
      command: bin("redocly"),
      args: ["lint", "dist/openapi.json"],
      env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
    {
      title: "OpenAPI lint (spectral, spectral:oas)",
      command: bin("spectral"),
      args: ["lint", "dist/openapi.json", "--ruleset", ".spectral.yaml", "--fail-severity", "error"],
    },
    ...builds,
  ],
  Math.max(2, availableParallelism()),
);
console.log(`\nbundle sizes:\n  ${sizes.sort().join("\n  ")}`);

// Beside the tests, one after the other, at niceness 10 (the CPU the tests leave idle while they
// wait on workerd, npm start and their fixtures): before the tests, tsc alone held them back 40 s
// on 2 cores. Their failures fail the run once the
// tests are done (the tests' own output comes first).
const checks = (async () => {
  const failed: string[] = [];
  for (const step of [
    { title: "typecheck (tsc)", command: bin("tsc"), args: ["--noEmit"] },
    { title: "lint (biome)", command: bin("biome"), args: ["check", "."] },
  ]) {
    if (await runStep(step, 10)) failed.push(step.title);
  }
  return failed;
})();

const testsTitle = "tests (vitest: unit, bundles, protocol, integration in workerd, e2e, browser)";
console.log(`\n== ${testsTitle}`);
const tests = spawn(
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", "--outputFile.json=dist/vitest-results.json"],
  { stdio: "inherit", env: { ...process.env, WORKER_BUNDLES_DIR: "dist" } },
);
const testsExit = await new Promise<number | string>((resolve) =>
  tests.on("close", (code, signal) => resolve(code ?? signal ?? 1)),
);
const failedChecks = await checks;
if (testsExit !== 0) {
  console.error(`\n${testsTitle} failed (exit ${testsExit})`);
  process.exit(typeof testsExit === "number" ? testsExit : 1);
}
if (failedChecks.length > 0) {
  console.error(`\nfailed: ${failedChecks.join(", ")}`);
  process.exit(1);
}

const results = JSON.parse(readFileSync("dist/vitest-results.json", "utf8")) as {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
};
if (results.numPassedTests === 0) {
  console.error("no test ran");
  process.exit(1);
}
console.log(`\n${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped`);
