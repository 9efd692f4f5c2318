/**
 * The one error shape of every non-2xx JSON reply: RFC 9457 problem+json with a stable `code`
 * and the request id; validation errors also list the offending fields.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { PROBLEM_TYPES, PROBLEMS_PATH, type ProblemCode, problemTypeSlug } from "../domain/problem-types.ts";

export type { ProblemCode } from "../domain/problem-types.ts";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface FieldError {
  /**
   * Where the field was: query, path, header or body; `arguments` for an MCP tool's arguments, which
   * a client sends as one JSON object whatever REST location the same field has.
   */
  location: "query" | "path" | "header" | "body" | "arguments";
  /**
   * The field's name; nested body members are dotted (`a.b`). The location's own name (`body`,
   * `query`, `path`, `headers`) when the whole of it is wrong, e.g. a JSON array as the body.
   */
  field: string;
  message: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/**
 * An error that is already meant for the client: its message and code leave the service. The code
 * is one of src/domain/problem-types.ts, whose entry gives the title every occurrence carries.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ProblemCode,
    detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "HttpProblem";
  }

  /** The problem type's title (RFC 9457 §3.1.4), the same for every occurrence of the code. */
  get title(): string {
    return PROBLEM_TYPES[this.code].title;
  }
}

/** Where a problem type is documented: `<origin>/problems/<code-in-kebab-case>`. */
export function problemTypeUrl(origin: string, code: ProblemCode): string {
  return `${origin}${PROBLEMS_PATH}/${problemTypeSlug(code)}`;
}

/** Identifies the request a problem answers, and where problem types are documented. */
export interface ProblemContext {
  requestId: string;
  /** The service's public origin; `type` is `<origin>/problems/<code-in-kebab-case>`. */
  origin: string;
}

/** Builds the problem document; `type` is a stable URI derived from the code. */
export function problemBody(problem: HttpProblem, context: ProblemContext): Problem {
  return {
    type: problemTypeUrl(context.origin, problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    code: problem.code,
    request_id: context.requestId,
    ...problem.extensions,
  };
}

export function problemResponse(problem: HttpProblem, context: ProblemContext): Response {
  return new Response(JSON.stringify(problemBody(problem, context)), {
    status: problem.status,
    headers: {
      "content-type": PROBLEM_CONTENT_TYPE,
      "x-request-id": context.requestId,
      ...problem.headers,
    },
  });
}

/**
 * The most field errors one problem lists. A body of thousands of unknown keys would otherwise be
 * answered by a document many times its own size; the first ones say what is wrong, and
 * `errors_omitted` says how many more there were.
 */
export const MAX_LISTED_FIELD_ERRORS = 20;

/** The longest field name a problem repeats; a client's own key may be kilobytes long. */
export const MAX_FIELD_NAME_LENGTH = 100;

function shortFieldName(field: string): string {
  return field.length <= MAX_FIELD_NAME_LENGTH ? field : `${field.slice(0, MAX_FIELD_NAME_LENGTH)}…`;
}

export const validationProblem = (allErrors: FieldError[]) => {
  const errors = allErrors
    .slice(0, MAX_LISTED_FIELD_ERRORS)
    .map((error) => ({ ...error, field: shortFieldName(error.field) }));
  const omitted = allErrors.length - errors.length;
  const listed = errors.map((error) => `${error.field || error.location}: ${error.message}`).join("; ");
  return new HttpProblem(
    400,
    "VALIDATION_FAILED",
    omitted > 0 ? `${listed}; and ${omitted} more` : listed,
    omitted > 0 ? { errors, errors_omitted: omitted } : { errors },
  );
};

export const notFoundProblem = (detail = "No resource at this path.") => new HttpProblem(404, "NOT_FOUND", detail);

/** 405 for a method the path does not have; `allow` is the Allow header's value. */
export const methodNotAllowedProblem = (method: string, allow: string) =>
  new HttpProblem(
    405,
    "METHOD_NOT_ALLOWED",
    `${method} is not allowed here; this path allows ${allow}.`,
    {},
    { Allow: allow },
  );

/** 413: the request body is larger than `limit` bytes (checked before the body is read). */
export const contentTooLargeProblem = (limit: number) =>
  new HttpProblem(
    413,
    "CONTENT_TOO_LARGE",
    `The request body is larger than ${limit} bytes, the most this service reads.`,
    { limit_bytes: limit },
  );

/** 414: the request target (path and query) is longer than `limit` bytes. */
export const uriTooLongProblem = (limit: number) =>
  new HttpProblem(
    414,
    "URI_TOO_LONG",
    `The request's path and query are longer than ${limit} bytes, the most this service reads.`,
    { limit_bytes: limit },
  );

/** 431: the request's header fields are larger than `limit` bytes in total; `largest` names the biggest. */
export const headersTooLargeProblem = (limit: number, largest: string) =>
  new HttpProblem(
    431,
    "HEADERS_TOO_LARGE",
    `The request's header fields are larger than ${limit} bytes in total, the most this service reads; the largest is ${largest}.`,
    { limit_bytes: limit },
  );

export const internalProblem = () =>
  new HttpProblem(500, "INTERNAL_ERROR", "The service failed to handle the request.");
