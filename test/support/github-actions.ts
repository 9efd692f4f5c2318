/**
 * Just enough of GitHub Actions to run this repository's composite action and the example
 * workflow's steps on this machine: the `${{ }}` expressions they use (property paths, string
 * literals, ||, &&, ==, !=, !, always(), success(), failure()), inputs with their defaults, and
 * `run` steps in bash as a runner starts them (`bash --noprofile --norc -eo pipefail`), with the
 * files and variables a runner gives a step (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP,
 * GITHUB_ACTION_PATH…). An expression or a step kind it does not know is an error, never skipped.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";

export type ExpressionContext = Record<string, unknown> & { jobStatus?: "success" | "failure" };

type Token = { kind: "string" | "number" | "path" | "op"; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let rest = source.trim();
  while (rest.length > 0) {
    const match =
      /^'((?:[^']|'')*)'/.exec(rest) ??
      /^(\|\||&&|==|!=|!|\(|\))/.exec(rest) ??
      /^(-?\d+(?:\.\d+)?)(?![\w.-])/.exec(rest) ??
      /^([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)/.exec(rest);
    if (!match) throw new Error(`expression not understood at: ${rest}`);
    const text = match[0];
    const kind = text.startsWith("'")
      ? "string"
      : /^(\|\||&&|==|!=|!|\(|\))$/.test(text)
        ? "op"
        : /^-?\d/.test(text)
          ? "number"
          : "path";
    tokens.push({ kind, text: kind === "string" ? (match[1] ?? "").replace(/''/g, "'") : text });
    rest = rest.slice(text.length).trimStart();
  }
  return tokens;
}

const truthy = (value: unknown) =>
  !(value === "" || value === 0 || value === false || value === null || value === undefined);

/** Evaluates one expression (the text inside `${{ }}`, or an `if:`). */
export function evaluateExpression(source: string, context: ExpressionContext): unknown {
  const tokens = tokenize(source);
  let position = 0;
  const peek = () => tokens[position];
  const take = (text?: string) => {
    const token = tokens[position++];
    if (!token || (text !== undefined && token.text !== text)) throw new Error(`expected ${text} in ${source}`);
    return token;
  };
  const primary = (): unknown => {
    const token = take();
    if (token.kind === "string") return token.text;
    if (token.kind === "number") return Number(token.text);
    if (token.kind === "op" && token.text === "(") {
      const value = or();
      take(")");
      return value;
    }
    if (token.kind === "op" && token.text === "!") return !truthy(primary());
    if (token.kind !== "path") throw new Error(`unexpected ${token.text} in ${source}`);
    if (peek()?.text === "(") {
      take("(");
      take(")");
      const status = context.jobStatus ?? "success";
      if (token.text === "always") return true;
      if (token.text === "success") return status === "success";
      if (token.text === "failure") return status === "failure";
      throw new Error(`function ${token.text}() is not known here`);
    }
    if (token.text === "true" || token.text === "false") return token.text === "true";
    const [root, ...path] = token.text.split(".");
    if (!(root! in context)) throw new Error(`no context named ${root} (in ${source})`);
    let value: unknown = context[root!];
    for (const key of path)
      value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    return value ?? null;
  };
  const equality = (): unknown => {
    let left = primary();
    while (peek()?.text === "==" || peek()?.text === "!=") {
      const op = take().text;
      const right = primary();
      const same = String(left ?? "").toLowerCase() === String(right ?? "").toLowerCase();
      left = op === "==" ? same : !same;
    }
    return left;
  };
  const and = (): unknown => {
    let left = equality();
    while (peek()?.text === "&&") {
      take();
      const right = equality();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): unknown => {
    let left = and();
    while (peek()?.text === "||") {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const value = or();
  if (position !== tokens.length) throw new Error(`trailing tokens in ${source}`);
  return value;
}

/** Replaces every `${{ }}` in a value with its result as text. */
export function interpolate(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_whole, source: string) => {
    const value = evaluateExpression(source, context);
    return value === null || value === undefined ? "" : String(value);
  });
}

/** Whether a step with this `if:` runs (a step without one runs while the job succeeds). */
export function stepRuns(condition: unknown, context: ExpressionContext): boolean {
  if (condition === undefined) return (context.jobStatus ?? "success") === "success";
  const source = String(condition).replace(/^\$\{\{(.*)\}\}$/s, "$1");
  return truthy(evaluateExpression(source, context));
}

export interface RunStep {
  id?: string;
  name?: string;
  if?: string;
  shell?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
}

export interface ActionDefinition {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: RunStep[] };
}

export function readYaml<T>(path: string): T {
  return parse(readFileSync(path, "utf8")) as T;
}

/** The files and variables a runner gives every step of one job. */
export interface RunnerFiles {
  runnerTemp: string;
  workspace: string;
  summaryFile: string;
}

export function newRunner(): RunnerFiles {
  const root = mkdtempSync(join(tmpdir(), "actions-runner-"));
  const summaryFile = join(root, "step-summary.md");
  writeFileSync(summaryFile, "");
  return { runnerTemp: root, workspace: root, summaryFile };
}

export interface StepResult {
  exitCode: number;
  outputs: Record<string, string>;
  stdout: string;
  stderr: string;
}

/** Reads a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIMITER` blocks. */
export function readOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const value: string[] = [];
      for (index++; index < lines.length && lines[index] !== block[2]; index++) value.push(lines[index]!);
      outputs[block[1]!] = value.join("\n");
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

/** Runs one `run` step in bash as a runner does; never throws on a failing script. */
export async function runScriptStep(
  step: RunStep,
  context: ExpressionContext,
  runner: RunnerFiles,
  extraEnv: Record<string, string>,
): Promise<StepResult> {
  if (step.uses !== undefined || step.run === undefined) throw new Error(`only run steps run here: ${step.name}`);
  if ((step.shell ?? "bash") !== "bash") throw new Error(`only bash steps run here: ${step.name}`);
  const dir = mkdtempSync(join(runner.runnerTemp, "step-"));
  const script = join(dir, "script.sh");
  const outputFile = join(dir, "output");
  writeFileSync(script, interpolate(step.run, context));
  writeFileSync(outputFile, "");
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: runner.workspace,
    RUNNER_TEMP: runner.runnerTemp,
    GITHUB_STEP_SUMMARY: runner.summaryFile,
    GITHUB_OUTPUT: outputFile,
    ...extraEnv,
  };
  for (const [name, value] of Object.entries(step.env ?? {})) env[name] = interpolate(String(value), context);
  const cwd = step["working-directory"] ? interpolate(step["working-directory"], context) : runner.workspace;
  const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd, env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  const exitCode = await new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? 1)));
  return { exitCode, outputs: readOutputFile(readFileSync(outputFile, "utf8")), stdout, stderr };
}

export interface ActionRun {
  outcome: "success" | "failure";
  steps: Record<string, StepResult>;
  outputs: Record<string, string>;
}

/** Runs a composite action's steps with these inputs (defaults filled in, required ones enforced). */
export async function runCompositeAction(options: {
  actionDir: string;
  inputs: Record<string, string>;
  runner: RunnerFiles;
  github?: Record<string, unknown>;
}): Promise<ActionRun> {
  const action = readYaml<ActionDefinition>(join(options.actionDir, "action.yml"));
  if (action.runs.using !== "composite") throw new Error("not a composite action");
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const given = options.inputs[name];
    if (spec.required && (given === undefined || given === "")) throw new Error(`input ${name} is required`);
    inputs[name] = given ?? spec.default ?? "";
  }
  for (const name of Object.keys(options.inputs)) {
    if (!(name in action.inputs)) throw new Error(`the action has no input named ${name}`);
  }
  const steps: Record<string, StepResult> = {};
  let jobStatus: "success" | "failure" = "success";
  const context = (): ExpressionContext => ({
    inputs,
    github: { ...options.github, action_path: options.actionDir },
    steps: Object.fromEntries(Object.entries(steps).map(([id, step]) => [id, { outputs: step.outputs }])),
    runner: { temp: options.runner.runnerTemp },
    jobStatus,
  });
  for (const [index, step] of action.runs.steps.entries()) {
    if (!stepRuns(step.if, context())) continue;
    const result = await runScriptStep(step, context(), options.runner, { GITHUB_ACTION_PATH: options.actionDir });
    steps[step.id ?? `step-${index}`] = result;
    if (result.exitCode !== 0) jobStatus = "failure";
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, spec]) => [name, interpolate(spec.value, context())]),
  );
  return { outcome: jobStatus, steps, outputs };
}
