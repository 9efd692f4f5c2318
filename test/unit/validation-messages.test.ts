/**
 * Validation messages in plain words, one rule per kind of zod issue, with the field named (the
 * whole body as `body`); a schema's own message wins over them; a repeated query parameter is
 * reported as such, not as a type error.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_LISTED_FIELD_ERRORS, validationProblem } from "../../src/http/problem.ts";
import { fieldErrors, requestFieldErrors } from "../../src/http/validation.ts";
import { isStorableText, storableText, UNSTORABLE_TEXT_MESSAGE } from "../../src/routes/shared/text.ts";

/** The field errors of `input` against `schema`, as the body of a request. */
function bodyErrors(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error("expected a validation failure");
  return fieldErrors(result.error, "json");
}

function messageFor(schema: z.ZodType, value: unknown): string | undefined {
  return bodyErrors(z.strictObject({ field: schema }), { field: value })[0]?.message;
}

describe("plain messages per kind of issue", () => {
  it.each([
    ["a missing field", z.string(), undefined, "is required"],
    ["a list for a string", z.string(), ["a", "b"], "must be a string, not an array"],
    ["a number for a string", z.string(), 5, "must be a string, not the number 5"],
    ["null for a string", z.string(), null, "must be a string, not null"],
    ["an object for a string", z.string(), { a: 1 }, "must be a string, not an object"],
    ["text for a number", z.number(), "5", "must be a number, not a string"],
    ["a decimal for an integer", z.number().int(), 1.5, "must be an integer, not the number 1.5"],
    ["text for a boolean", z.boolean(), "yes", "must be true or false, not a string"],
    ["a boolean for an array", z.array(z.string()), true, "must be an array, not true"],
    ["a string for an object", z.object({}), "x", "must be an object, not a string"],
    ["an empty string", z.string().min(1), "", "must not be empty"],
    ["a short string", z.string().min(3), "ab", "must be at least 3 characters"],
    ["a long string", z.string().max(3), "abcd", "must be at most 3 characters"],
    ["a small number", z.number().min(1), 0, "must be at least 1"],
    ["a large number", z.number().max(100), 101, "must be at most 100"],
    ["a number at an exclusive bound", z.number().gt(0), 0, "must be greater than 0"],
    ["a number at an exclusive upper bound", z.number().lt(10), 10, "must be less than 10"],
    ["too few items", z.array(z.string()).min(2), ["a"], "must have at least 2 items"],
    ["an empty list", z.array(z.string()).nonempty(), [], "must not be empty"],
    ["too many items", z.array(z.string()).max(1), ["a", "b"], "must have at most 1 item"],
    ["a value outside a choice of two", z.enum(["true", "false"]), "yes", "must be true or false"],
    ["a value outside a choice", z.enum(["a", "b", "c"]), "d", "must be one of a, b, c"],
    ["a literal", z.literal("v1"), "v2", "must be v1"],
    ["a pattern", z.string().regex(/^x/), "y", "is not in the accepted format"],
    ["an e-mail address", z.email(), "nope", "must be an e-mail address"],
    ["a URL", z.url(), "nope", "must be a URL"],
    ["a UUID", z.uuid(), "nope", "must be a UUID"],
    [
      "a date and time",
      z.iso.datetime(),
      "nope",
      "must be a date and time in ISO 8601 form, e.g. 2026-01-31T12:00:00Z",
    ],
    ["a prefix", z.string().startsWith("svc-"), "x", 'must start with "svc-"'],
    ["a multiple", z.number().multipleOf(5), 7, "must be a multiple of 5"],
    ["a union", z.union([z.string(), z.number()]), true, "does not match any accepted form"],
    ["a refinement", z.string().refine((value) => value === "ok"), "no", "is not valid"],
  ])("%s", (_name, schema, value, message) => {
    expect(messageFor(schema as z.ZodType, value)).toBe(message);
  });

  it("never passes zod's own wording through", () => {
    const schema = z.strictObject({ a: z.string(), b: z.number().int().min(1), c: z.enum(["x", "y"]) });
    for (const input of [{}, { a: [], b: "1", c: "z" }, { a: 1, b: 0.5, c: null }, { a: "", b: -1, c: "x" }]) {
      const result = schema.safeParse(input);
      for (const error of result.success ? [] : fieldErrors(result.error, "query")) {
        expect(error.message).not.toMatch(/expected|received|Invalid|Too (big|small)|>=|<=/);
      }
    }
  });

  it("keeps a schema's own message", () => {
    expect(messageFor(z.string().regex(/^[a-z]+$/, { error: "must be lower-case letters" }), "A")).toBe(
      "must be lower-case letters",
    );
    expect(messageFor(z.literal(true, { error: "must be true: the caller attests it" }), false)).toBe(
      "must be true: the caller attests it",
    );
  });
});

describe("fields", () => {
  it("names the whole body `body`, with what it is instead of an object", () => {
    const schema = z.strictObject({ url: z.string() });
    expect(bodyErrors(schema, ["https://a.example"])).toEqual([
      { location: "body", field: "body", message: "must be a JSON object, not an array" },
    ]);
    expect(bodyErrors(schema, null)).toEqual([
      { location: "body", field: "body", message: "must be a JSON object, not null" },
    ]);
  });

  it("dots nested fields and lists each unknown field apart", () => {
    const schema = z.strictObject({ page: z.number().int(), nested: z.object({ a: z.string() }) });
    expect(bodyErrors(schema, { page: 1.5, nested: { a: 1 }, extra: true, more: 2 })).toEqual([
      { location: "body", field: "page", message: "must be an integer, not the number 1.5" },
      { location: "body", field: "nested.a", message: "must be a string, not the number 1" },
      { location: "body", field: "extra", message: "unknown field, not accepted" },
      { location: "body", field: "more", message: "unknown field, not accepted" },
    ]);
  });

  it("calls an unknown query field a parameter", () => {
    const result = z.strictObject({ q: z.string().optional() }).safeParse({ bogus: "1" });
    expect(result.success ? [] : fieldErrors(result.error, "query")).toEqual([
      { location: "query", field: "bogus", message: "unknown parameter, not accepted" },
    ]);
  });
});

describe("repeated query parameters", () => {
  const schema = z.strictObject({
    url: z.string(),
    page: z.string().regex(/^\d+$/).optional(),
    flag: z.enum(["true", "false"]).optional(),
  });

  it("are reported as given more than once, whatever the schema would say of an array", () => {
    const input = { url: ["https://a.example", "https://b.example"], page: ["1", "2", "3"], flag: "true" };
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(requestFieldErrors(result.error, "query", input)).toEqual([
      { location: "query", field: "url", message: "must be given once, not 2 times" },
      { location: "query", field: "page", message: "must be given once, not 3 times" },
    ]);
  });

  it("leave other errors as they are, and arrays in a JSON body are just arrays", () => {
    const input = { url: ["a", "b"], flag: "maybe", bogus: ["1", "2"] };
    const result = schema.safeParse(input);
    if (result.success) throw new Error("expected a validation failure");
    expect(requestFieldErrors(result.error, "query", input)).toEqual([
      { location: "query", field: "url", message: "must be given once, not 2 times" },
      { location: "query", field: "flag", message: "must be true or false" },
      { location: "query", field: "bogus", message: "unknown parameter, not accepted" },
    ]);
    expect(requestFieldErrors(result.error, "json", input)[0]).toEqual({
      location: "body",
      field: "url",
      message: "must be a string, not an array",
    });
  });
});

describe("a bounded problem, whatever the number of issues", () => {
  it("lists the first 20 field errors, counts the rest, and says so in the detail", () => {
    const errors = Array.from({ length: 5000 }, (_, index) => ({
      location: "body" as const,
      field: `k${index}`,
      message: "unknown field, not accepted",
    }));
    const problem = validationProblem(errors);
    expect(problem.extensions.errors).toHaveLength(MAX_LISTED_FIELD_ERRORS);
    expect(problem.extensions.errors_omitted).toBe(4980);
    expect(problem.message.endsWith("; and 4980 more")).toBe(true);
    expect(problem.message.length).toBeLessThan(1000);
  });

  it("lists every error up to the cap, with no count", () => {
    const errors = Array.from({ length: MAX_LISTED_FIELD_ERRORS }, (_, index) => ({
      location: "query" as const,
      field: `p${index}`,
      message: "unknown parameter, not accepted",
    }));
    const problem = validationProblem(errors);
    expect(problem.extensions.errors).toHaveLength(MAX_LISTED_FIELD_ERRORS);
    expect(problem.extensions).not.toHaveProperty("errors_omitted");
  });

  it("shortens a field name a client made kilobytes long", () => {
    const problem = validationProblem([{ location: "body", field: "k".repeat(60_000), message: "unknown field" }]);
    const [error] = problem.extensions.errors as { field: string }[];
    expect(error?.field).toBe(`${"k".repeat(100)}…`);
  });

  it("names a field once when one value breaks two rules worded alike", () => {
    const message = "must be an integer from 1 to 2147483647";
    const schema = z.strictObject({ v: z.number().int(message).max(2147483647, message) });
    expect(bodyErrors(schema, { v: 2 ** 53 })).toEqual([{ location: "body", field: "v", message }]);
  });
});

describe("text that cannot be stored", () => {
  const schema = z.strictObject({ notes: storableText().max(50) });
  it.each([
    ["NUL", "a\u0000b"],
    ["a lone high surrogate", "a\ud800b"],
    ["a lone high surrogate at the end", "ab\udbff"],
    ["a lone low surrogate", "\udc00ab"],
    ["a reversed pair", "\udc00\ud800"],
  ])("refuses %s", (_name, value) => {
    expect(bodyErrors(schema, { notes: value })).toEqual([
      { location: "body", field: "notes", message: UNSTORABLE_TEXT_MESSAGE },
    ]);
  });

  it.each([
    ["emoji (a surrogate pair)", "🧪🏳️‍🌈"],
    ["right-to-left text and marks", "\u202eשלום\u200f"],
    ["other control characters", "tab\tline\nbell\u0007"],
    ["the last code point", "\u{10ffff}"],
  ])("keeps %s", (_name, value) => {
    expect(isStorableText(value)).toBe(true);
    expect(schema.safeParse({ notes: value }).success).toBe(true);
  });
});
