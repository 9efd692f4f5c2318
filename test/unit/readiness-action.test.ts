/**
 * The GitHub Action's definition (action.yml) and the example workflow (docs/readiness-workflow.yml),
 * read as GitHub reads them: a composite action of bash steps, no action of anyone else's, nothing
 * installed (the checker is one committed bundle) and no network beyond the checked site, every input reaching the checker through the
 * environment (never spliced into a script), every output set by the step it names; the example
 * passing only inputs the action has. test/protocol/readiness-action.test.ts runs them.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseReadinessArgs } from "../../scripts/readiness.ts";
import {
  type ActionDefinition,
  evaluateExpression,
  interpolate,
  type RunStep,
  readYaml,
} from "../support/github-actions.ts";

const root = resolve(import.meta.dirname, "../..");
const action = readYaml<ActionDefinition>(join(root, "action.yml"));
const workflow = readYaml<{
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, { if?: string; "runs-on": string; steps: RunStep[] }>;
}>(join(root, "docs/readiness-workflow.yml"));

const expressionsIn = (text: string) => [...text.matchAll(/\$\{\{(.*?)\}\}/g)].map((match) => match[1]!.trim());

describe("action.yml", () => {
  it("is a composite action with a name, a description and the checker's inputs", () => {
    expect(action.name).toMatch(/\S/);
    expect(action.description).toMatch(/\S/);
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs).sort()).toEqual(
      ["api", "api-key", "compare", "fail-under", "local", "require", "summary", "url"].sort(),
    );
    expect(action.inputs.url?.required).toBe(true);
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toMatch(/\S/);
      if (name !== "url") expect(input.required ?? false, name).toBe(false);
      if (name !== "url") expect(typeof input.default, name).toBe("string");
    }
    expect(action.inputs.summary?.default).toBe("true");
  });

  it("runs only bash steps of its own: no other action and no install, so nothing is fetched but the checked site", () => {
    for (const step of action.runs.steps) {
      expect(step.uses, step.name).toBeUndefined();
      expect(step.shell, step.name).toBe("bash");
      expect(step.run, step.name).toMatch(/\S/);
    }
    const scripts = action.runs.steps.map((step) => step.run).join("\n");
    // The only network tool is the checker (the site, or the service named by `api`); no package
    // manager runs: the checker is the committed bundle (scripts/build-action.ts).
    expect(scripts).not.toMatch(/\b(curl|wget|git clone|npx|npm|yarn|pnpm)\b/);
    expect(scripts).toContain('node "$GITHUB_ACTION_PATH/action/agent-readiness.mjs"');
  });

  it("hands every input to the checker through the environment, never through the script text", () => {
    const check = action.runs.steps.find((step) => step.id === "check")!;
    for (const step of action.runs.steps) expect(expressionsIn(step.run ?? ""), step.name).toEqual([]);
    const used = Object.values(check.env ?? {}).flatMap((value) => expressionsIn(value));
    expect(used.sort()).toEqual(
      Object.keys(action.inputs)
        .map((name) => `inputs.${name}`)
        .sort(),
    );
    for (const name of Object.keys(check.env ?? {})) expect(check.run).toContain(`$${name}`);
  });

  it("passes the checker only options it knows, and writes the summary and the outputs", () => {
    const check = action.runs.steps.find((step) => step.id === "check")!;
    const flags = [...(check.run ?? "").matchAll(/(--[a-z-]+)/g)].map((match) => match[1]!);
    expect(new Set(flags)).toEqual(
      new Set([
        "--markdown",
        "--json-file",
        "--progress",
        "--fail-under",
        "--require",
        "--api",
        "--local",
        "--compare",
      ]),
    );
    // Every one parses, with a value where it takes one.
    expect(() =>
      parseReadinessArgs([
        "https://shop.example.com",
        "--markdown",
        "--json-file",
        "/tmp/x.json",
        "--progress",
        "--fail-under",
        "50",
        "--require",
        "has_llms_txt",
        "--api",
        "https://index.example/api/v1",
        "--local",
        "--compare",
        "shop.example.com",
      ]),
    ).not.toThrow();
    expect(check.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(check.run).toContain('>> "$GITHUB_OUTPUT"');
    expect(check.run).toContain('exit "$status"');
    expect(check.run).toContain("::add-mask::$READINESS_API_KEY");
    for (const [name, output] of Object.entries(action.outputs)) {
      expect(output.value, name).toBe(`\${{ steps.check.outputs.${name} }}`);
      expect(check.run, name).toContain(`echo "${name}=`);
    }
  });

  it("sets a score and the body's path only for a site that was checked (crawl success)", () => {
    const check = action.runs.steps.find((step) => step.id === "check")!;
    expect(check.run).toContain('body.crawl_status === "success"');
    expect(action.outputs.score?.description).toMatch(/empty when the site could not be checked/);
    expect(action.outputs.json?.description).toMatch(/absent when the site could not be checked/);
  });
});

describe("the example workflow", () => {
  const [job] = Object.values(workflow.jobs);
  const steps = job!.steps;
  const checkout = steps.find((step) => step.uses?.startsWith("actions/checkout@"));
  const readiness = steps.find((step) => step.uses?.startsWith("./"));

  it("checks each successful deployment, or a URL given by hand, with read-only permissions", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["deployment_status", "workflow_dispatch"]);
    expect(workflow.permissions).toEqual({ contents: "read" });
    const context = (state: string) => ({
      github: { event_name: "deployment_status", event: { deployment_status: { state } } },
    });
    expect(evaluateExpression(job!.if!, context("success"))).toBe(true);
    expect(evaluateExpression(job!.if!, context("failure"))).toBe(false);
  });

  it("checks the checker out where it then uses it as an action", () => {
    expect(checkout?.with?.path).toBe(".agent-readiness");
    expect(readiness?.uses).toBe(`./${checkout?.with?.path}`);
  });

  it("passes only inputs the action has, the required one included", () => {
    const given = Object.keys(readiness?.with ?? {});
    for (const name of given) expect(Object.keys(action.inputs)).toContain(name);
    expect(given).toContain("url");
    const url = interpolate(readiness!.with!.url!, {
      github: { event: { deployment_status: { environment_url: "https://preview-42.shop.example.com" } } },
      inputs: {},
    });
    expect(url).toBe("https://preview-42.shop.example.com");
    const byHand = interpolate(readiness!.with!.url!, {
      github: { event: {} },
      inputs: { url: "https://shop.example.com" },
    });
    expect(byHand).toBe("https://shop.example.com");
  });

  it("is documented", () => {
    const manual = readFileSync(join(root, "docs/readiness-cli.md"), "utf8");
    expect(manual).toContain("docs/readiness-workflow.yml");
    for (const name of Object.keys(action.inputs)) expect(manual, name).toContain(`\`${name}\``);
  });
});

describe("the expressions the tests evaluate", () => {
  it("follow GitHub's rules for the operators the action and the example use", () => {
    const context = { inputs: { a: "", b: "x" }, github: { event_name: "push" } };
    expect(evaluateExpression("inputs.a || inputs.b", context)).toBe("x");
    expect(evaluateExpression("inputs.b && 'y'", context)).toBe("y");
    expect(evaluateExpression("github.event_name == 'PUSH'", context)).toBe(true);
    expect(evaluateExpression("!(github.event_name != 'push')", context)).toBe(true);
    expect(evaluateExpression("always()", context)).toBe(true);
    expect(() => evaluateExpression("toJSON(inputs)", context)).toThrow();
    expect(() => evaluateExpression("secrets.token", context)).toThrow(/no context/);
  });
});
