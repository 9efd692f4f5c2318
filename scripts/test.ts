/**
 * `npm test`: lint, typecheck, the OpenAPI document's lint (Redocly and Spectral),
 * `wrangler deploy --dry-run` of every environment (with its gzip size), then every test project: unit and protocol (Node), integration (inside workerd) and
 * e2e (`npm start` as a user runs it) and browser (the pages in Chromium against `npm start`).
 *
 * TEST_DATABASE_URL / TEST_REDIS_URL put the test stacks in front of real Postgres and Redis
 * servers (CI does this); without them the embedded defaults are used.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const bin = (name: string) => `node_modules/.bin/${name}`;

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): void {
  console.log(`\n== ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

run("lint (biome)", bin("biome"), ["check", "."]);
run("typecheck (tsc)", bin("tsc"), ["--noEmit"]);

// The OpenAPI document exactly as GET /openapi.json builds it (from every group's route
// definitions), served as if from `npm start`'s origin. Imported here, not at the top, so a module
// that fails to load is reported after lint and typecheck have said why.
const { createGroups } = await import("../src/routes/groups.ts");
const { buildOpenApiDocument, withOrigin } = await import("../src/routes/openapi-spec.ts");
mkdirSync("dist", { recursive: true });
writeFileSync(
  "dist/openapi.json",
  `${JSON.stringify(withOrigin(buildOpenApiDocument(createGroups()), "http://127.0.0.1:8787"), null, 2)}\n`,
);
// Both linters run offline: Redocly with telemetry and the update check off (redocly.yaml too),
// Spectral with its built-in ruleset only (.spectral.yaml).
run("OpenAPI lint (redocly, recommended)", bin("redocly"), ["lint", "dist/openapi.json"], {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
});
run("OpenAPI lint (spectral, spectral:oas)", bin("spectral"), [
  "lint",
  "dist/openapi.json",
  "--ruleset",
  ".spectral.yaml",
  "--fail-severity",
  "error",
]);

const environments = [
  "",
  ...[...readFileSync("wrangler.toml", "utf8").matchAll(/^\[env\.([a-z0-9-]+)\]/gm)].map((m) => m[1] as string),
];
const sizes: string[] = [];
for (const environment of environments) {
  const name = environment || "all";
  run(
    `wrangler deploy --dry-run ${environment ? `--env ${environment}` : "(all-in-one)"}`,
    bin("wrangler"),
    [
      "deploy",
      "--dry-run",
      "--outdir",
      `dist/${name}`,
      "--metafile",
      `dist/${name}.meta.json`,
      ...(environment ? ["--env", environment] : []),
    ],
    { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  );
  const bundle = `dist/${name}/${environment ? environment : "all"}.js`;
  const gzipKiB = gzipSync(readFileSync(bundle)).length / 1024;
  sizes.push(`${name}: ${(statSync(bundle).size / 1024).toFixed(1)} KiB, gzip ${gzipKiB.toFixed(1)} KiB`);
  if (gzipKiB > 1024) {
    console.error(`bundle ${name} is over the 1 MiB gzip budget`);
    process.exit(1);
  }
}
console.log(`\nbundle sizes:\n  ${sizes.join("\n  ")}`);

// The bundles project reads the bundles built above instead of building them again.
run(
  "tests (vitest: unit, bundles, protocol, integration in workerd, e2e, browser)",
  bin("vitest"),
  ["run", "--reporter=default", "--reporter=json", "--outputFile.json=dist/vitest-results.json"],
  { WORKER_BUNDLES_DIR: "dist" },
);

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
