/**
 * The one error shape of every non-2xx JSON reply: RFC 9457 problem+json with a stable `code`
 * and the request id; validation errors also list the offending fields.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export interface FieldError {
  /** Where the field was: query, path, header or body. */
  location: "query" | "path" | "header" | "body";
  /** The field's name; nested body members are dotted (`a.b`). Empty for the body as a whole. */
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

/** An error that is already meant for the client: its message and code leave the service. */
export class HttpProblem extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = "HttpProblem";
  }
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
    type: `${context.origin}/problems/${problem.code.toLowerCase().replaceAll("_", "-")}`,
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

export const validationProblem = (errors: FieldError[]) =>
  new HttpProblem(
    400,
    "VALIDATION_FAILED",
    "Invalid request",
    errors.map((error) => `${error.field || error.location}: ${error.message}`).join("; "),
    { errors },
  );

export const notFoundProblem = (detail = "No resource at this path.") =>
  new HttpProblem(404, "NOT_FOUND", "Not found", detail);

export const internalProblem = () =>
  new HttpProblem(500, "INTERNAL_ERROR", "Internal error", "The service failed to handle the request.");
