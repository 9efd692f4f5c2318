/**
 * The GitHub Action run as a runner runs it (test/support/github-actions.ts), driven by the
 * example workflow's own step and inputs, against fixture sites on this machine: the report in the
 * job summary, the outputs, and the step's exit status for a passing gate, a failing one and a
 * site that could not be checked. The action runs from a directory holding only what a checkout
 * of it needs at run time (action.yml and the checker's bundle), as it would on a runner with
 * nothing installed, and the time its set-up takes is measured and printed (not asserted: a busy
 * machine is no measure).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSites, serveFixtureSites } from "../support/fixture-sites.ts";
import {
  type ActionRun,
  interpolate,
  newRunner,
  type RunnerFiles,
  type RunStep,
  readYaml,
  runCompositeAction,
  runScriptStep,
} from "../support/github-actions.ts";

const root = resolve(import.meta.dirname, "../..");
const workflow = readYaml<{ jobs: Record<string, { steps: RunStep[] }> }>(join(root, "docs/readiness-workflow.yml"));
const exampleSteps = Object.values(workflow.jobs)[0]!.steps;
const readinessStep = exampleSteps.find((step) => step.uses?.startsWith("./"))!;
const scoreStep = exampleSteps.find((step) => step.run !== undefined)!;

let sites: FixtureSites;
/** The action as a runner gets it, but with nothing of the repository it does not use at run time. */
let actionDir: string;
beforeAll(async () => {
  sites = await serveFixtureSites(["all-six-signals", "redirect-loop"]);
  actionDir = mkdtempSync(join(tmpdir(), "readiness-action-"));
  mkdirSync(join(actionDir, "action"));
  copyFileSync(join(root, "action.yml"), join(actionDir, "action.yml"));
  copyFileSync(join(root, "action/agent-readiness.mjs"), join(actionDir, "action/agent-readiness.mjs"));
});
afterAll(() => sites?.stop());

/** The example's readiness step for a deployment of `url`, with `overrides` on its inputs. */
async function runExample(url: string, overrides: Record<string, string> = {}) {
  const github = {
    event_name: "deployment_status",
    event: { deployment_status: { state: "success", environment_url: url } },
  };
  const inputs = Object.fromEntries(
    Object.entries(readinessStep.with ?? {}).map(([name, value]) => [
      name,
      interpolate(String(value), { github, inputs: {} }),
    ]),
  );
  const runner = newRunner();
  // The example checks this repository out at .agent-readiness and uses it from there: here it is the checkout.
  const started = performance.now();
  const run = await runCompositeAction({ actionDir, inputs: { ...inputs, ...overrides }, runner, github });
  return { run, runner, github, elapsedMs: performance.now() - started };
}

async function sayTheScore(run: ActionRun, runner: RunnerFiles) {
  return runScriptStep(
    scoreStep,
    {
      steps: { readiness: { outputs: run.outputs } },
      github: {},
      jobStatus: run.outcome,
    },
    runner,
    {},
  );
}

describe("the action, as the example workflow runs it", () => {
  it("checks a deployment that passes its gates: the report in the job summary, the score in the outputs", async () => {
    const { run, runner, elapsedMs } = await runExample(sites.origins["all-six-signals"]!);
    const check = run.steps.check!;
    expect(run.outcome, `${check.stdout}\n${check.stderr}`).toBe("success");
    expect(check.exitCode).toBe(0);
    const summary = readFileSync(runner.summaryFile, "utf8");
    expect(summary).toContain("<!-- agent-readiness-check -->");
    expect(summary).toMatch(/### Agent readiness of `127\.0\.0\.1:\d+`: 80\/100 \(gates passed\)/);
    expect(summary).toContain("| fail under 50 | ✅ passed |");
    expect(summary).toContain("| require has_llms_txt | ✅ passed |");
    expect(run.outputs).toMatchObject({ score: "80", "exit-code": "0" });
    expect(readFileSync(run.outputs.markdown!, "utf8")).toBe(summary);
    const body = JSON.parse(readFileSync(run.outputs.json!, "utf8")) as { agentic_score: number; url: string };
    expect(body).toMatchObject({ agentic_score: 80, url: sites.origins["all-six-signals"] });
    // The progress line went to the log, not into the report.
    expect(check.stderr).toMatch(/requests answered, [\d.]+ s, done/);
    const said = await sayTheScore(run, runner);
    expect(said.stdout).toBe("agent readiness score 80 (checker exit 0)\n");
    // Nothing was installed: the directory holds what it held, and no step ran a package manager.
    expect(readdirSync(actionDir).sort()).toEqual(["action", "action.yml"]);
    expect(readdirSync(join(actionDir, "action"))).toEqual(["agent-readiness.mjs"]);
    const setUp = Object.entries(run.steps).find(([id]) => id !== "check")?.[1];
    expect(setUp?.exitCode).toBe(0);
    console.log(
      `readiness action: set-up (the Node check, no install) and check of a fixture site took ${(elapsedMs / 1000).toFixed(1)} s in all`,
    );
  }, 120_000);

  it("fails the job on a gate, with the report still in the summary", async () => {
    const { run, runner } = await runExample(sites.origins["all-six-signals"]!, {
      "fail-under": "90",
      require: "has_mcp_server, has_llms_txt",
    });
    const check = run.steps.check!;
    expect(run.outcome).toBe("failure");
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain("::error::agent readiness: a gate failed");
    const summary = readFileSync(runner.summaryFile, "utf8");
    expect(summary).toContain("80/100 (a gate failed)");
    expect(summary).toContain("| fail under 90 | ❌ failed | the score is 80, under 90 |");
    expect(summary).toMatch(/\| require has_mcp_server \| ❌ failed \|/);
    expect(run.outputs).toMatchObject({ score: "80", "exit-code": "1" });
    // `if: always()` steps still run after a failed one.
    expect((await sayTheScore(run, runner)).stdout).toBe("agent readiness score 80 (checker exit 1)\n");
  }, 120_000);

  it("fails the job when the site cannot be checked, saying why", async () => {
    const { run, runner } = await runExample(sites.origins["redirect-loop"]!);
    const check = run.steps.check!;
    expect(run.outcome).toBe("failure");
    expect(check.exitCode).toBe(2);
    expect(check.stdout).toContain("::error::agent readiness: the site could not be checked");
    const summary = readFileSync(runner.summaryFile, "utf8");
    expect(summary).toContain("(could not be checked)");
    expect(summary).toContain("crawl unreachable");
    // As action.yml promises: an empty score and no json for a site that could not be checked.
    expect(run.outputs).toMatchObject({ "exit-code": "2", score: "" });
    expect(run.outputs.json).toBe("");
    expect(existsSync(run.outputs.markdown!)).toBe(true);
  }, 120_000);

  it("writes nothing to the summary when told not to, and masks the priority key", async () => {
    const { run, runner } = await runExample(sites.origins["all-six-signals"]!, {
      summary: "false",
      "api-key": "svcpri_not_sent_anywhere",
    });
    expect(run.outcome).toBe("success");
    expect(readFileSync(runner.summaryFile, "utf8")).toBe("");
    expect(run.steps.check!.stdout).toContain("::add-mask::svcpri_not_sent_anywhere");
  }, 120_000);
});
