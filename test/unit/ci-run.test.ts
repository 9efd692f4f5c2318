/**
 * .ci/run, with every system command it calls replaced by a stand-in that records what it was
 * asked: the npm packages install while the servers and Chromium are made ready (the two used to
 * run one after the other), and the tests start only once both are done.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const TOOLS = ["cat", "dirname", "ls", "mktemp", "rm", "seq", "sleep", "sort", "tail", "touch"];

/** A checkout holding only .ci/run, and a PATH of stand-ins (no real apt, servers, npm or Chromium). */
function sandbox(npmCiExit = 0) {
  const root = mkdtempSync(join(tmpdir(), "ci-run-"));
  const bin = join(root, "bin");
  mkdirSync(join(root, ".ci"));
  mkdirSync(bin);
  copyFileSync(".ci/run", join(root, ".ci/run"));
  const which = (tool: string) => spawnSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
  for (const tool of TOOLS) symlinkSync(which(tool), join(bin, tool));
  const log = join(root, "log");
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/bash\necho "${name} $*" >> ${log}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  for (const name of ["pg_ctlcluster", "pg_isready", "psql", "su", "redis-server", "redis-cli"]) stub(name, "exit 0");
  // Installing Chromium waits (boundedly) for the npm install to have started beside it.
  stub(
    "apt-get",
    `if [ "$1" = install ]; then
  for _ in $(seq 1 100); do [ -e ${root}/npm-ci-started ] && break; sleep 0.1; done
  if [ -e ${root}/npm-ci-started ]; then echo "apt saw npm ci running" >> ${log}; else echo "apt ran alone" >> ${log}; fi
  printf '#!/bin/bash\\nexit 0\\n' > ${bin}/chromium; chmod +x ${bin}/chromium
fi
exit 0`,
  );
  stub(
    "npm",
    `if [ "$1" = ci ]; then touch ${root}/npm-ci-started; sleep 0.3; echo "installed"; exit ${npmCiExit}; fi
[ -e ${bin}/chromium ] && echo "npm test after chromium" >> ${log}
exit 0`,
  );
  const run = spawnSync("/bin/bash", [join(root, ".ci/run")], {
    encoding: "utf8",
    env: { PATH: bin, HOME: root },
  });
  return { run, log: () => readFileSync(log, "utf8") };
}

describe(".ci/run", () => {
  it("installs the npm packages while Chromium is installed, then runs the tests", () => {
    const { run, log } = sandbox();
    expect(run.status, run.stderr).toBe(0);
    const lines = log().trim().split("\n");
    expect(lines).toContain("apt saw npm ci running");
    expect(lines).toContain("npm ci --prefer-offline --no-audit --no-fund");
    expect(lines.at(-1)).toBe("npm test after chromium");
    // npm's own output is shown, whole, before the tests.
    expect(run.stdout).toContain("installed");
  });

  it("stops before the tests when the install fails", () => {
    const { run, log } = sandbox(7);
    expect(run.status).toBe(7);
    expect(run.stderr).toContain("npm ci failed (exit 7)");
    expect(log()).not.toContain("npm test");
  });
});
