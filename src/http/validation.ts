/**
 * Turns a failed zod validation into the one problem shape, naming each offending field in plain
 * words. zod's own wording ("Invalid input: expected string, received array") is written for
 * developers of the schema, not for the API's clients, so every kind of issue gets its own
 * message here; a message a schema states itself (a pattern's rule, an attestation) wins.
 */
import type { Hook } from "@hono/zod-openapi";
import { type ZodError, z } from "zod";
import type { AppEnv } from "./context.ts";
import { type FieldError, validationProblem } from "./problem.ts";

type RawIssue = z.core.$ZodRawIssue;

const LOCATIONS: Record<string, FieldError["location"]> = {
  query: "query",
  param: "path",
  header: "header",
  json: "body",
  form: "body",
};

/** What a field is called when the issue is about its whole location (a body that is an array). */
const WHOLE_LOCATION_FIELD: Record<FieldError["location"], string> = {
  body: "body",
  query: "query",
  path: "path",
  header: "headers",
  arguments: "arguments",
};

const EXPECTED_TYPES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  bigint: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  date: "a date",
  null: "null",
};

const FORMATS: Record<string, string> = {
  email: "must be an e-mail address",
  url: "must be a URL",
  uuid: "must be a UUID",
  guid: "must be a UUID",
  datetime: "must be a date and time in ISO 8601 form, e.g. 2026-01-31T12:00:00Z",
  date: "must be a date in ISO 8601 form, e.g. 2026-01-31",
  time: "must be a time in ISO 8601 form, e.g. 12:00:00",
  ipv4: "must be an IPv4 address",
  ipv6: "must be an IPv6 address",
  regex: "is not in the accepted format",
};

/** The value a client sent, described for a message: "an array", "the number 5", "null". */
function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return `the number ${value}`;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "string") return "a string";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function describeChoice(values: readonly unknown[]): string {
  const shown = values.map((value) => (typeof value === "string" ? value : JSON.stringify(value)));
  if (shown.length === 1) return `must be ${shown[0]}`;
  if (shown.length === 2) return `must be ${shown[0]} or ${shown[1]}`;
  return `must be one of ${shown.join(", ")}`;
}

function describeSize(issue: Extract<RawIssue, { code: "too_small" | "too_big" }>): string | undefined {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case "string":
      if (small && bound === 1) return "must not be empty";
      return `must be ${small ? "at least" : "at most"} ${bound} character${bound === 1 ? "" : "s"}`;
    case "array":
    case "set":
      if (small && bound === 1) return "must not be empty";
      return `must have ${small ? "at least" : "at most"} ${bound} item${bound === 1 ? "" : "s"}`;
    case "number":
    case "int":
    case "bigint":
      if (inclusive) return `must be ${small ? "at least" : "at most"} ${bound}`;
      return `must be ${small ? "greater" : "less"} than ${bound}`;
    default:
      return undefined;
  }
}

/**
 * The plain message of one zod issue that its schema left without a message of its own, or
 * undefined to keep zod's. Installed as zod's error map for this Worker (below), so that REST,
 * MCP tools and every other parse say the same thing.
 */
export function plainIssueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return "is required";
      const wholeBody = (issue.path?.length ?? 0) === 0 && issue.expected === "object";
      const expected = wholeBody ? "a JSON object" : (EXPECTED_TYPES[issue.expected] ?? `a ${issue.expected}`);
      return `must be ${expected}, not ${describeValue(issue.input)}`;
    }
    case "too_small":
    case "too_big":
      return describeSize(issue);
    case "invalid_format": {
      if (issue.format === "starts_with" && "prefix" in issue) return `must start with "${issue.prefix}"`;
      if (issue.format === "ends_with" && "suffix" in issue) return `must end with "${issue.suffix}"`;
      if (issue.format === "includes" && "includes" in issue) return `must contain "${issue.includes}"`;
      return FORMATS[issue.format] ?? `must be a valid ${issue.format}`;
    }
    case "invalid_value":
      return describeChoice(issue.values);
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `has fields that are not accepted: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return "does not match any accepted form";
    case "invalid_key":
      return "has a key that is not accepted";
    case "invalid_element":
      return "holds a value that is not accepted";
    case "custom":
      return "is not valid";
    default:
      return undefined;
  }
}

// One error map for the isolate: zod applies it only where a schema gives no message of its own.
z.config({ customError: plainIssueMessage });

/** Each offending field of a failed validation of `target` (query, param, header, json, form). */
export function fieldErrors(error: ZodError, target: string): FieldError[] {
  const location = LOCATIONS[target] ?? "body";
  // One value may break two rules with one message (2^53 is neither a safe integer nor under the
  // maximum, and a schema may word both alike): the client reads it once.
  const seen = new Set<string>();
  return error.issues.flatMap((issue): FieldError[] => {
    if (issue.code === "unrecognized_keys") {
      const message = location === "query" ? "unknown parameter, not accepted" : "unknown field, not accepted";
      return issue.keys.map((key) => ({ location, field: [...issue.path, key].map(String).join("."), message }));
    }
    const field = issue.path.map(String).join(".") || WHOLE_LOCATION_FIELD[location];
    const key = `${field}\u0000${issue.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ location, field, message: issue.message }];
  });
}

/**
 * `fieldErrors` of a request's own input. A query string may repeat a parameter, which arrives
 * as an array no query schema accepts: that parameter's issues become one, saying so.
 */
export function requestFieldErrors(error: ZodError, target: string, input: unknown): FieldError[] {
  const errors = fieldErrors(error, target);
  if (target !== "query" || typeof input !== "object" || input === null) return errors;
  const repeated = new Map<string, number>();
  for (const [name, value] of Object.entries(input)) if (Array.isArray(value)) repeated.set(name, value.length);
  const reported = new Set<string>();
  return errors.flatMap((fieldError): FieldError[] => {
    const times = repeated.get(fieldError.field);
    if (times === undefined || fieldError.message === "unknown parameter, not accepted") return [fieldError];
    if (reported.has(fieldError.field)) return [];
    reported.add(fieldError.field);
    return [{ ...fieldError, message: `must be given once, not ${times} times` }];
  });
}

// biome-ignore lint/suspicious/noExplicitAny: the hook serves every route's schemas
export const validationHook: Hook<any, AppEnv, any, any> = (result) => {
  if (result.success) return;
  // On failure the validator still passes the input as the request carried it (not in this type).
  const input = "data" in result ? result.data : undefined;
  throw validationProblem(requestFieldErrors(result.error as ZodError, result.target, input));
};
