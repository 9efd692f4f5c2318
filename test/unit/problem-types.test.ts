/**
 * The table of problem types (src/domain/problem-types.ts) against the sources that emit them:
 * every code a `DomainError` or an `HttpProblem` is built with is in the table with the status it
 * answers with, and every code of the table is emitted somewhere (no page documents a problem
 * nobody answers). The typecheck already refuses an unknown code; this scan also catches a status
 * that disagrees with the table and an entry no code uses any more.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  PROBLEM_TYPES,
  type ProblemCode,
  problemCodeOfSlug,
  problemStatuses,
  problemTypeSlug,
} from "../../src/domain/problem-types.ts";
import { DOMAIN_ERROR_TABLE } from "../../src/http/domain-error-table.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const TABLE_FILE = "src/domain/problem-types.ts";

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The text of a call's arguments from just after `(` to its matching `)`, split at depth 0. */
function callArguments(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = start;
  for (let at = start; at < text.length; at++) {
    const char = text[at]!;
    if (quote) {
      if (char === "\\") at++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'" || char === "`") quote = char;
    else if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) {
      if (depth === 0) {
        args.push(text.slice(from, at).trim());
        return args;
      }
      depth--;
    } else if (char === "," && depth === 0) {
      args.push(text.slice(from, at).trim());
      from = at + 1;
    }
  }
  throw new Error("unbalanced call");
}

const CODE_LITERAL = /"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"/g;

interface Emission {
  code: string;
  /** The status it answers with, when the call names it as a literal (a number, or a DomainError kind). */
  status: number | undefined;
  where: string;
}

/**
 * Every problem code a call builds: `new DomainError(kind, code, …)`, `new HttpProblem(status,
 * code, …)`, and the calls of a file's own shorthand whose first parameter is a `ProblemCode`
 * (`const invalid = (code: ProblemCode, …) => new DomainError("invalid", code, …)`).
 */
function emissions(file: string, text: string): Emission[] {
  const found: Emission[] = [];
  const calls: { pattern: RegExp; status: (first: string) => number | undefined; codeAt: number }[] = [
    {
      pattern: /new DomainError\(/g,
      status: (kind) => DOMAIN_ERROR_TABLE[/^"(\w+)"$/.exec(kind)?.[1] as keyof typeof DOMAIN_ERROR_TABLE]?.status,
      codeAt: 1,
    },
    {
      pattern: /new HttpProblem\(/g,
      status: (status) => (/^\d{3}$/.test(status) ? Number(status) : undefined),
      codeAt: 1,
    },
  ];
  for (const shorthand of text.matchAll(/const (\w+) = \(code: ProblemCode[^=]*=> new DomainError\("(\w+)"/g)) {
    const status = DOMAIN_ERROR_TABLE[shorthand[2] as keyof typeof DOMAIN_ERROR_TABLE]?.status;
    found.push(
      ...[...text.matchAll(new RegExp(`\\b${shorthand[1]}\\(`, "g"))].flatMap((call) => {
        const [code = ""] = callArguments(text, call.index + call[0].length);
        return [...code.matchAll(CODE_LITERAL)].map((literal) => ({ code: literal[1]!, status, where: file }));
      }),
    );
  }
  for (const call of calls) {
    for (const match of text.matchAll(call.pattern)) {
      const args = callArguments(text, match.index + match[0].length);
      const status = call.status(args[0] ?? "");
      for (const literal of (args[call.codeAt] ?? "").matchAll(CODE_LITERAL)) {
        found.push({ code: literal[1]!, status, where: file });
      }
    }
  }
  return found;
}

const files = [...sourceFiles("src"), ...sourceFiles("scripts")].filter((file) => file !== TABLE_FILE);
const texts = new Map(files.map((file) => [file, readFileSync(join(root, file), "utf8")]));
const emitted = [...texts].flatMap(([file, text]) => emissions(relative(root, join(root, file)), text));

describe("the problem types", () => {
  it("finds the emitters it scans (the scan itself works)", () => {
    const codes = new Set(emitted.map((emission) => emission.code));
    // One of each way a code is built: a domain error, the HTTP layer's own, the validation
    // problem, the rate limit, the local edge of npm start and a file's own shorthand.
    for (const code of [
      "SITE_NOT_FOUND",
      "METHOD_NOT_ALLOWED",
      "VALIDATION_FAILED",
      "RATE_LIMITED",
      "MISDIRECTED_REQUEST",
      "INVALID_FILTER",
    ]) {
      expect(codes, code).toContain(code);
    }
    expect(emitted.length).toBeGreaterThan(100);
  });

  it("lists every code the sources emit, with the status it is emitted with", () => {
    const unlisted = emitted.filter((emission) => !Object.hasOwn(PROBLEM_TYPES, emission.code));
    expect(unlisted).toEqual([]);
    const wrongStatus = emitted.filter(
      (emission) =>
        emission.status !== undefined && !problemStatuses(emission.code as ProblemCode).includes(emission.status),
    );
    expect(wrongStatus).toEqual([]);
  });

  it("lists no code that nothing emits", () => {
    const quoted = new Set([...texts.values()].flatMap((text) => [...text.matchAll(CODE_LITERAL)].map((m) => m[1]!)));
    const scanned = new Set(emitted.map((emission) => emission.code));
    const unused = Object.keys(PROBLEM_TYPES).filter((code) => !scanned.has(code) && !quoted.has(code));
    expect(unused).toEqual([]);
  });

  it("says for each what happened and what to do, in sentences", () => {
    for (const [code, type] of Object.entries(PROBLEM_TYPES)) {
      expect(code, code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(type.title.length, code).toBeGreaterThan(2);
      expect(type.happened, code).toMatch(/^[A-Z`].{15,}[.)]$/s);
      expect(type.todo, code).toMatch(/^[A-Z`].{5,}[.)]$/s);
      for (const status of problemStatuses(code as ProblemCode)) {
        expect(status, code).toBeGreaterThanOrEqual(400);
        expect(status, code).toBeLessThan(600);
      }
    }
    const titles = Object.values(PROBLEM_TYPES).map((type) => type.title);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("turns a code into its type URL's segment and back, and knows no other segment", () => {
    expect(problemTypeSlug("VALIDATION_FAILED")).toBe("validation-failed");
    expect(problemCodeOfSlug("validation-failed")).toBe("VALIDATION_FAILED");
    for (const code of Object.keys(PROBLEM_TYPES) as ProblemCode[]) {
      expect(problemCodeOfSlug(problemTypeSlug(code))).toBe(code);
    }
    for (const slug of ["VALIDATION-FAILED", "validation_failed", "no-such-problem", "", "constructor", "__proto__"]) {
      expect(problemCodeOfSlug(slug), slug).toBeUndefined();
    }
  });
});
