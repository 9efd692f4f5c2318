/**
 * `npm test`: lint, typecheck, `wrangler deploy --dry-run` of every environment (with its gzip
 * size), then every test project: unit and protocol (Node), integration (inside workerd) and
 * e2e (`npm start` as a user runs it).
 *
 * TEST_DATABASE_URL / TEST_REDIS_URL put the test stacks in front of real Postgres and Redis
 * servers (CI does this); without them the embedded defaults are used.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
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
    ["deploy", "--dry-run", "--outdir", `dist/${name}`, ...(environment ? ["--env", environment] : [])],
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

run("tests (vitest: unit, protocol, integration in workerd, e2e)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=dist/vitest-results.json",
]);

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
